import Foundation
import MemeryCore

/// The history tree drawn for a terminal and shaped for JSON.
public enum HistoryTreeText {
    public static func summary(_ node: CreationHistory.Node) -> String {
        node.events.map { HistoryEntry.describe($0) }.joined(separator: "; ")
    }

    public static func time(_ millis: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }

    /// The tree drawn top-down: a chain of edits stays at one indent; where edits branched,
    /// each branch is drawn indented under a "branch K" line. Iterative, with a stack of its
    /// own, so a history branched a hundred thousand times deep cannot overflow the call stack.
    /// How many levels of branches are drawn indented.
    public static let maxIndent = 32

    public static func lines(_ history: CreationHistory) -> [String] {
        var lines = [String]()
        enum Item { case chain(start: Int, prefix: String), label(String) }
        var stack = history.nodes.indices.filter { history.nodes[$0].parent == nil }.reversed().map { Item.chain(start: $0, prefix: "") }
        while let item = stack.popLast() {
            switch item {
            case .label(let text):
                lines.append(text)
            case let .chain(start, prefix):
                var index = start
                while true {
                    let node = history.nodes[index]
                    let number = "v\(node.version)".padding(toLength: 6, withPad: " ", startingAt: 0)
                    let head = index == history.head ? "   ← head" : ""
                    lines.append("\(prefix)\(number) \(time(node.time))  \(summary(node))\(head)")
                    guard node.children.count == 1 else { break }
                    index = node.children[0]
                }
                let children = history.nodes[index].children
                guard children.count > 1 else { continue }
                // Pushed in reverse so branch 1 is drawn first.
                for (offset, child) in children.enumerated().reversed() {
                    let last = offset == children.count - 1
                    // Past a deep nesting the indent stops growing, so a line stays readable.
                    let deeper = prefix.count >= 2 * maxIndent ? prefix : prefix + (last ? "  " : "│ ")
                    stack.append(.chain(start: child, prefix: deeper))
                    stack.append(.label("\(prefix)\(last ? "└" : "├") branch \(offset + 1)"))
                }
            }
        }
        return lines
    }

    public static func json(_ history: CreationHistory) -> [String: Any] {
        let nodes: [[String: Any]] = history.nodes.map { node in
            [
                "version": node.version, "firstVersion": node.firstVersion,
                "parent": node.parent.map { history.nodes[$0].version as Any } ?? NSNull(),
                "children": node.children.map { history.nodes[$0].version },
                "time": node.time, "summary": summary(node), "types": node.events.map(\.type),
            ]
        }
        let moves: [[String: Any]] = history.batches.compactMap { batch in
            guard case let .move(to, cause) = batch.kind else { return nil }
            return ["version": batch.lastVersion, "time": batch.time, "cause": cause.rawValue, "to": history.nodes[to].version]
        }
        return [
            "name": history.state.name,
            "head": history.head.map { history.nodes[$0].version as Any } ?? NSNull(),
            "events": history.streamVersion,
            "nodes": nodes,
            "moves": moves,
        ]
    }
}
