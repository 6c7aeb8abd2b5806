import ArgumentParser
import Foundation
import Memery
import MemeryCore

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show a creation's history as a tree: every edit by event number and time, branches, and the head.",
        discussion: "Undo, redo and checkout move the head (marked ←); an edit made after an undo starts a branch, and every branch stays. `--events` lists the raw events instead.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "List every event in order, undo and redo included (with --json: the stored envelopes).")
    var events = false

    func run() throws {
        let workspace = try storeOptions.open()
        if events {
            let entries = try workspace.events(of: name)
            if json {
                try printJSON(try entries.map { try $0.event.envelopeJSON() })
            } else {
                for entry in entries {
                    print("v\(entry.event.version)\t#\(entry.event.sequence)\t\(HistoryTreeText.time(entry.event.timeMilliseconds))\t\(entry.event.type)\t\(entry.summary)")
                }
            }
            return
        }
        let history = try workspace.history(of: name)
        if json {
            try printJSON(HistoryTreeText.json(history))
        } else {
            HistoryTreeText.lines(history).forEach { print($0) }
        }
    }
}

/// The history tree drawn for a terminal and shaped for JSON.
enum HistoryTreeText {
    static func summary(_ node: CreationHistory.Node) -> String {
        node.events.map(HistoryEntry.describe).joined(separator: "; ")
    }

    static func time(_ millis: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }

    static func lines(_ history: CreationHistory) -> [String] {
        var lines = [String]()
        func draw(_ start: Int, prefix: String) {
            var index = start
            while true {
                let node = history.nodes[index]
                let number = "v\(node.version)".padding(toLength: 6, withPad: " ", startingAt: 0)
                let head = index == history.head ? "   ← head" : ""
                lines.append("\(prefix)\(number) \(time(node.time))  \(summary(node))\(head)")
                switch node.children.count {
                case 0: return
                case 1: index = node.children[0]
                default:
                    for (offset, child) in node.children.enumerated() {
                        let last = offset == node.children.count - 1
                        lines.append("\(prefix)\(last ? "└" : "├") branch \(offset + 1)")
                        draw(child, prefix: prefix + (last ? "  " : "│ "))
                    }
                    return
                }
            }
        }
        for (index, node) in history.nodes.enumerated() where node.parent == nil { draw(index, prefix: "") }
        return lines
    }

    static func json(_ history: CreationHistory) -> [String: Any] {
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
