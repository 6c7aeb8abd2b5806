import Foundation
import MemeryCore
import MemeryStore

extension HistoryIndexReader {
    /// The whole tree as `memery history --json` gives it, from the index's records alone: one pass
    /// of a cursor over each kind (nodes, their descriptions, moves), with the edits caught up
    /// from the tail in memory over them. No event is read, except the few of an edit only
    /// they can describe (a turn of the picture alone), so a new process draws 100,000 edits
    /// without replaying them.
    func treeAnswer(name: String) throws -> HistoryTreeAnswer {
        let count = Int(meta.nodeCount)
        guard head.map({ $0 < count }) ?? true else { throw HistoryIndex.Unusable(reason: "the head is past the nodes") }
        let nodes = try allRecords(HistoryIndex.nodeKey, count: count, HistoryIndex.Node.init)
        var lastTypes = HistoryIndex.Description.LastTypes()
        let descriptions = try allRecords(HistoryIndex.descriptionKey, count: count) { try HistoryIndex.Description(&$0, sharing: &lastTypes) }
        let moves = try allRecords(HistoryIndex.moveKey, count: Int(meta.moveCount)) { try HistoryIndex.move(0, &$0) }

        // Children by parent, oldest first: nodes are numbered in history order, as the lists are.
        var children = [[UInt64]](repeating: [], count: count)
        for (index, node) in nodes.enumerated() where node.parent != HistoryIndex.none {
            guard Int(node.parent) < index else { throw HistoryIndex.Unusable(reason: "node \(index) comes before its parent") }
            children[Int(node.parent)].append(node.lastVersion)
        }
        var answerNodes = [HistoryTreeAnswer.Node]()
        answerNodes.reserveCapacity(count)
        for (index, node) in nodes.enumerated() {
            let parent = node.parent == HistoryIndex.none ? nil : nodes[Int(node.parent)].lastVersion
            var described = descriptions[index]
            if described == nil {
                let events = try events(of: index)
                described = .init(types: events.map(\.type), summary: try summary(of: index, events: events))
            }
            answerNodes.append(HistoryTreeAnswer.Node(id: node.id.lowercasedString, version: node.lastVersion, firstVersion: node.firstVersion,
                                                      parent: parent, children: children[index], time: node.time,
                                                      summary: described?.summary ?? "", types: described?.types ?? []))
        }

        // The tip takes the appends in history order: the two lists merged by event number.
        var tip = HistoryTip(), answerMoves = [HistoryTreeAnswer.Move]()
        var nextMove = 0
        func addMoves(before version: UInt64) throws {
            while nextMove < moves.count, moves[nextMove].firstVersion < version {
                let move = moves[nextMove]
                guard case let .move(to, cause) = move.kind, to < count else { throw HistoryIndex.Unusable(reason: "move \(nextMove) goes past the nodes") }
                tip.move(time: move.time, cause: cause, to: nodes[to].id, lastVersion: move.lastVersion)
                answerMoves.append(.init(version: move.lastVersion, time: move.time, cause: cause.rawValue, to: nodes[to].lastVersion))
                nextMove += 1
            }
        }
        for node in nodes {
            try addMoves(before: node.firstVersion)
            tip.edit(node.id, lastVersion: node.lastVersion)
        }
        try addMoves(before: .max)
        return HistoryTreeAnswer(name: name, head: head.map { nodes[$0].lastVersion }, events: streamVersion,
                                 nodes: answerNodes, moves: answerMoves, tip: tip.text)
    }

    /// The tree as `memery history` draws it, from the description records alone (each
    /// begins with its node's parent, number and time; the moves are not drawn): a flat array
    /// and one buffer of summaries, filled in one cursor pass.
    func outline() throws -> HistoryOutline {
        let count = Int(meta.nodeCount)
        guard head.map({ $0 < count }) ?? true else { throw HistoryIndex.Unusable(reason: "the head is past the nodes") }
        var outline = HistoryOutline()
        // Bounded: the count comes from a record, and a damaged one must fail as "missing", not as an allocation.
        outline.nodes.reserveCapacity(min(count, 1 << 20))
        outline.summaries.reserveCapacity(min(count, 1 << 20) * 48)
        // Marked, and said from their events once every record is read (a record written
        // since may describe one after all).
        let askTheEvents = -1 ..< -1
        var marked = [Int]()
        try forEachRecord(HistoryIndex.descriptionKey, count: count) { index, reader in
            let parts = try HistoryIndex.Description.parts(&reader)
            guard parts.parent == HistoryIndex.none || Int(parts.parent) < index else {
                throw HistoryIndex.Unusable(reason: "node \(index) comes before its parent")
            }
            var read = HistoryOutline.Node(version: parts.lastVersion, time: parts.time,
                                           parent: parts.parent == HistoryIndex.none ? HistoryOutline.root : Int32(parts.parent))
            if let said = parts.said {
                // Text that is not UTF-8 (a record damaged under a checksum that holds) is
                // repaired, as a String made of it would be: U+FFFD for each bad sequence.
                read.summary = said.summary.isASCII ? outline.keep(said.summary) : outline.keep(String(decoding: said.summary, as: UTF8.self).utf8)
            } else {
                read.summary = askTheEvents
                marked.append(index)
            }
            if index < outline.nodes.count { outline.nodes[index] = read } else { outline.nodes.append(read) }
        }
        for index in marked where outline.nodes[index].summary == askTheEvents {
            outline.nodes[index].summary = outline.keep(try summary(of: index).utf8)
        }
        outline.head = head
        outline.linkChildren()
        return outline
    }

    /// Every record of one kind, numbered 0..<count.
    private func allRecords<T>(_ key: (UInt32) -> [UInt8], count: Int, _ parse: (inout FieldReader) throws -> T) throws -> [T] {
        var found = [T]()
        found.reserveCapacity(min(count, 1 << 20))
        try forEachRecord(key, count: count) { index, reader in
            let record = try parse(&reader)
            if index < found.count { found[index] = record } else { found.append(record) }
        }
        return found
    }

    /// Visits every record of one kind, numbered 0..<count: the stored ones by a cursor (in
    /// key order, so by number), then those written in memory since (the tail caught up),
    /// which may visit a number again, to take its place. A gap or a damaged record makes
    /// the index unusable.
    private func forEachRecord(_ key: (UInt32) -> [UInt8], count: Int, _ visit: (Int, inout FieldReader) throws -> Void) throws {
        var visited = 0
        let kind = key(0)[0]
        /// The record's number, when it is one of this kind's below `count`.
        func number(_ key: UnsafeRawBufferPointer) -> Int? {
            guard key.count == 5, key[0] == kind else { return nil }
            let index = Int(UInt32(bigEndian: key.loadUnaligned(fromByteOffset: 1, as: UInt32.self)))
            return index < count ? index : nil  // past the last (`h` ffffffff is the index's own record)
        }
        if count > 0 {
            try records.base?.scan(from: key(0)) { key, value in
                guard let index = number(key) else { return false }
                guard index == visited else { throw HistoryIndex.Unusable(reason: "record \(visited) is missing") }
                guard let value else { throw HistoryIndex.Unusable(reason: "record \(index) fails its checksum") }
                var reader = FieldReader(value)
                try visit(index, &reader)
                visited += 1
                return true
            }
        }
        let written = records.written.compactMap { key, value in key.withUnsafeBytes(number).map { ($0, value) } }
        for (index, value) in written.sorted(by: { $0.0 < $1.0 }) {
            guard index <= visited else { throw HistoryIndex.Unusable(reason: "record \(visited) is missing") }
            try FieldReader.read(value) { try visit(index, &$0) }
            if index == visited { visited += 1 }
        }
        guard visited == count else { throw HistoryIndex.Unusable(reason: "record \(visited) is missing") }
    }
}

extension UUID {
    /// The id as the answers spell it (lower case), written directly: `uuidString.lowercased()`
    /// makes two strings, which showed in drawing 100,000 edits.
    var lowercasedString: String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            let digits: StaticString = "0123456789abcdef"
            var at = 0
            withUnsafeBytes(of: uuid) { bytes in
                for (position, byte) in bytes.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        buffer[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    buffer[at] = digits.utf8Start[Int(byte >> 4)]
                    buffer[at + 1] = digits.utf8Start[Int(byte & 0xf)]
                    at += 2
                }
            }
            return at
        }
    }
}

extension UnsafeRawBufferPointer {
    /// Whether every byte is below 0x80, read eight at a time (summaries are mostly ASCII).
    var isASCII: Bool {
        var offset = 0, seen: UInt64 = 0
        while offset + 8 <= count {
            seen |= loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < count {
            seen |= UInt64(self[offset])
            offset += 1
        }
        return seen & 0x8080_8080_8080_8080 == 0
    }
}
