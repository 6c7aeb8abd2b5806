public import Foundation
import MemeryCore

/// The history tree drawn for a terminal and shaped for JSON.
public enum HistoryTreeText {
    /// What the edits of the node at `index` did, each said as a change from the state
    /// before it (a turn of the picture alone by how much it turned, not where it ended).
    public static func summary(_ index: Int, in history: CreationHistory) -> String {
        summary(history.nodes[index].events) { HistoryEntry.state(before: $0, inNode: index, of: history) }
    }

    /// What an edit's events did; `before(position)` is the creation just before the event
    /// there, asked for only to say a turn of the picture alone as what changed.
    static func summary(_ events: [CreationEvent], before: (Int) throws -> Creation) rethrows -> String {
        var placement: Transform?
        return try events.enumerated().map { position, event in
            guard case .baseImageMoved = event else { return HistoryEntry.describe(event) }
            if placement == nil { placement = try before(position).basePlacement }
            return HistoryEntry.describe(event, placementBefore: placement)
        }.joined(separator: "; ")
    }

    /// What an edit's events did, when saying it needs no state (nil: a turn of the picture
    /// alone, said as a change from where it was). What the history index keeps.
    static func summaryWithoutState(_ events: [CreationEvent]) -> String? {
        guard !events.contains(where: { if case .baseImageMoved = $0 { true } else { false } }) else { return nil }
        return summary(events) { _ in Creation(id: UUID()) }
    }

    /// A time as ISO 8601 (`2026-11-27T03:44:28Z`). A format style, not a new
    /// ISO8601DateFormatter per line: making one costs 200 µs (ICU), which was most of
    /// `memery history` on a creation of 5,000 edits.
    public static func time(_ millis: Int64) -> String {
        Date(timeIntervalSince1970: Double(millis) / 1000).formatted(iso8601)
    }

    private static let iso8601 = Date.ISO8601FormatStyle()

    /// An edit's number padded to a column of six; never cut (`padding(toLength:)` would
    /// print v100001 as v10000).
    static func column(_ version: UInt64) -> String {
        var bytes = [UInt8]()
        appendColumn(version, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func appendColumn(_ version: UInt64, to text: inout [UInt8]) {
        var digits = 1, rest = version
        while rest >= 10 {
            digits += 1
            rest /= 10
        }
        let width = max(1 + digits, 6)
        text.append(contentsOf: repeatElement(UInt8(ascii: " "), count: width))
        let end = text.count
        text[end - width] = UInt8(ascii: "v")
        rest = version
        for position in stride(from: end - width + digits, to: end - width, by: -1) {
            text[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// How many levels of branches are drawn indented.
    public static let maxIndent = 32

    /// The tree drawn top-down: a chain of edits stays at one indent; where edits branched,
    /// each branch is drawn indented under a "branch K" line.
    public static func lines(_ history: CreationHistory) -> [String] { lines(HistoryTreeAnswer(history)) }

    /// The tree drawn from its answer, a line each (its nodes are in history order, so by
    /// ascending number).
    public static func lines(_ tree: HistoryTreeAnswer) -> [String] { lines(HistoryOutline(tree)) }

    static func lines(_ outline: HistoryOutline) -> [String] {
        var text = [UInt8](), ends = [Int]()
        ends.reserveCapacity(outline.nodes.count)
        // Nothing here throws: the text is kept whole.
        try? draw(outline, to: { text += $0 }, lineEnded: { ends.append($0) })
        var start = 0
        return ends.map { end in
            defer { start = end + 1 }
            return String(decoding: text[start..<end], as: UTF8.self)
        }
    }

    /// The tree as `memery history` prints it, each line ended by a newline: UTF-8 written
    /// straight from the outline, handed to `write` in pieces of about 64 KiB (one String a
    /// line, joined, and one print a line were most of its time at 100,000 edits; one buffer
    /// of the whole text was a sixth of its page faults).
    /// `lineEnded(offset)`: called at each line's end, with where in the text its newline goes.
    static func draw(_ outline: HistoryOutline, to write: (UnsafeRawBufferPointer) throws -> Void,
                     lineEnded: (Int) -> Void = { _ in }) throws {
        let nodes = outline.nodes
        let piece = 64 * 1024
        var text = [UInt8](), handedOver = 0
        text.reserveCapacity(piece + 4096)
        func endLine() throws {
            lineEnded(handedOver + text.count)
            text.append(UInt8(ascii: "\n"))
            if text.count >= piece {
                try text.withUnsafeBytes(write)
                handedOver += text.count
                text.removeAll(keepingCapacity: true)
            }
        }
        var times = EditTimeFormatter()
        let head = Array("   ← head".utf8), indent = Array("  ".utf8), bar = Array("│ ".utf8)
        /// A chain: from `start` down while each edit has one child. A label: `branch K` under `prefix`.
        enum Item { case chain(start: Int, prefix: [UInt8], depth: Int), label(prefix: [UInt8], number: Int, last: Bool) }
        // The summaries read in place: a slice of the array would be made and retained a line.
        try outline.summaries.withUnsafeBytes { summaries in
            // Iterative, with a stack of its own, so a history branched a hundred thousand
            // times deep cannot overflow the call stack.
            var stack = nodes.indices.reversed().filter { nodes[$0].parent == HistoryOutline.root }.map { Item.chain(start: $0, prefix: [], depth: 0) }
            while let item = stack.popLast() {
                switch item {
                case let .label(prefix, number, last):
                    text += prefix
                    text += Array("\(last ? "└" : "├") branch \(number)".utf8)
                    try endLine()
                case let .chain(start, prefix, depth):
                    var index = start
                    while true {
                        let node = nodes[index]
                        if !prefix.isEmpty { text += prefix }
                        appendColumn(node.version, to: &text)
                        text.append(UInt8(ascii: " "))
                        times.append(node.time, to: &text)
                        text.append(UInt8(ascii: " "))
                        text.append(UInt8(ascii: " "))
                        text.append(contentsOf: UnsafeRawBufferPointer(rebasing: summaries[node.summary]))
                        if index == outline.head { text += head }
                        try endLine()
                        guard let child = outline.onlyChild(of: index) else { break }
                        index = child
                    }
                    let children = outline.children(of: index)
                    guard children.count > 1 else { continue }
                    // Pushed in reverse so branch 1 is drawn first.
                    for (offset, child) in children.enumerated().reversed() {
                        let last = offset == children.count - 1
                        // Past a deep nesting the indent stops growing, so a line stays readable.
                        let deeper = depth >= maxIndent ? prefix : prefix + (last ? indent : bar)
                        stack.append(.chain(start: child, prefix: deeper, depth: min(depth + 1, maxIndent)))
                        stack.append(.label(prefix: prefix, number: offset + 1, last: last))
                    }
                }
            }
        }
        if !text.isEmpty { try text.withUnsafeBytes(write) }
    }

    /// The edits leading to the head, one line each as the tree draws them, with where
    /// branches leave the line and what lies above it.
    public static func lines(_ line: HeadLineAnswer) -> [String] {
        var lines = line.before.map { ["⋮ earlier edits, up to v\($0) (without --last: the whole tree)"] } ?? []
        for (position, node) in line.nodes.enumerated() {
            let number = column(node.version)
            var note = ""
            if position == line.nodes.count - 1 {
                note = "   ← head"
                let after = node.children.count
                if after > 0 { note += after == 1 ? " (redo: v\(node.children[0]))" : " (redo: \(after) branches, the newest v\(node.children[after - 1]))" }
            } else if node.children.count > 1 {
                let others = node.children.count - 1
                note = "   (+\(others) other branch\(others == 1 ? "" : "es") from here)"
            }
            lines.append("\(number) \(time(node.time))  \(node.summary)\(note)")
        }
        return lines
    }

    /// The tree as JSON, with its `tip`: a fingerprint of every edit and move in it, in
    /// order. With `since` (the events a reader has) and the `tip` it was given with them,
    /// only the edits and moves after those, marked `"since"`: a page that holds a
    /// 10,000-edit tree is sent one edit after each edit, not 10,000. When the reader's part
    /// is not the start of this tree (an append from another machine sorted in before its
    /// end, which renumbers what follows), the whole tree, unmarked.
    /// FNV-1a over each append up to `version`: an edit's id, or a move's time, cause and
    /// target. Any append inserted, dropped or reordered changes it.
    static func tip(of history: CreationHistory, through version: UInt64) -> String {
        var tip = HistoryTip()
        for batch in history.batches where batch.lastVersion <= version {
            switch batch.kind {
            case .edit(let node): tip.edit(history.nodes[node].id, lastVersion: batch.lastVersion)
            case let .move(to, cause): tip.move(time: batch.time, cause: cause, to: history.nodes[to].id, lastVersion: batch.lastVersion)
            }
        }
        return tip.text
    }
}

/// A history's `tip`: FNV-1a over each append in history order, an edit's id, or a move's
/// time, cause and target, each with its last event's number. Any append inserted, dropped
/// or reordered changes it.
struct HistoryTip {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    private mutating func mix<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    }

    private mutating func mix(_ id: UUID) { withUnsafeBytes(of: id.uuid) { mix($0) } }

    mutating func edit(_ id: UUID, lastVersion: UInt64) {
        mix(id)
        withUnsafeBytes(of: lastVersion.bigEndian) { mix($0) }
    }

    mutating func move(time: Int64, cause: CreationEvent.HeadMoved.Cause, to id: UUID, lastVersion: UInt64) {
        mix("move \(time) \(cause.rawValue) ".utf8)
        mix(id)
        withUnsafeBytes(of: lastVersion.bigEndian) { mix($0) }
    }

    var text: String { String(hash, radix: 16) }
}
