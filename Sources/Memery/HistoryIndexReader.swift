import Foundation
import MemeryCore
import MemeryStore

/// A creation's history read from its `HistoryIndex`, a record at a time, inside one read
/// transaction: undo, redo and checkout in a new process without replaying the stream.
/// Lookups by event number or time halve the batches (they are in history order); a state
/// is the nearest checkpoint at or above the node with the edits below it folded.
final class HistoryIndexReader: HistoryNavigation {
    let cache: StreamCache
    /// The stored index with the edits appended since it was written added in memory.
    let records: HistoryRecordsOverlay<StreamCache>
    let meta: HistoryIndex.Meta
    private var lastState: (node: Int, state: Creation)?
    /// A state known already (the head's, which the session holds): a state below it folds from there.
    private var known: (node: Int, state: Creation)?
    /// The nodes read in this transaction, by edit id: the index keeps no map of its own.
    private var nodesRead: [UUID: Int] = [:]

    /// Nil when the stream has no index, or a tail after it that only a replay can place.
    init?(_ cache: StreamCache) throws {
        guard var meta = try HistoryIndex.meta(in: cache), meta.coveredVersion <= cache.version else { return nil }
        var records = HistoryRecordsOverlay(over: cache)
        do {
            try HistoryIndex.catchUp(&meta, in: &records, cache: cache, through: cache.version)
        } catch is HistoryIndex.Unusable {
            return nil
        }
        self.cache = cache
        self.records = records
        self.meta = meta
    }

    var id: UUID { cache.stream }
    var head: Int? { meta.head == HistoryIndex.none ? nil : Int(meta.head) }
    var genesis: Int? { meta.genesis == HistoryIndex.none ? nil : Int(meta.genesis) }
    var streamVersion: UInt64 { meta.streamVersion }

    func node(_ node: Int) throws -> HistoryIndex.Node {
        guard node >= 0, node < Int(meta.nodeCount) else { throw HistoryIndex.Unusable(reason: "node \(node) is past the index's end") }
        let record = try HistoryIndex.node(UInt32(node), in: records)
        nodesRead[record.id] = node
        return record
    }

    /// The node of an edit read already (as deciding a move reads its target).
    func node(id: UUID) throws -> Int {
        guard let node = nodesRead[id] else { throw HistoryIndex.Unusable(reason: "edit \(id) was not read") }
        return node
    }

    func editID(of node: Int) throws -> UUID { try self.node(node).id }

    func parent(of node: Int) throws -> Int? {
        let parent = try self.node(node).parent
        return parent == HistoryIndex.none ? nil : Int(parent)
    }

    func childCount(of node: Int) throws -> Int { Int(try self.node(node).childCount) }

    /// Walks the list of children from the oldest; the newest, redo's default, is at hand.
    func child(_ number: Int, of node: Int) throws -> Int {
        let parent = try self.node(node)
        guard number >= 1, number <= Int(parent.childCount) else { throw HistoryIndex.Unusable(reason: "node \(node) has no child \(number)") }
        if number == Int(parent.childCount) { return Int(parent.lastChild) }
        var child = Int(parent.firstChild)
        for _ in 1..<number { child = Int(try self.node(child).nextSibling) }
        return child
    }

    // Batches are two lists, each in history order: the edits (nodes) and the moves. A
    // question about "the last batch" asks both and takes the later of the two answers.

    func editBatch(_ node: Int) throws -> CreationHistory.Batch {
        let record = try self.node(node)
        return CreationHistory.Batch(firstVersion: record.firstVersion, lastVersion: record.lastVersion, time: record.time, kind: .edit(node: node))
    }

    func move(_ index: Int) throws -> CreationHistory.Batch { try HistoryIndex.move(UInt32(index), in: records) }

    /// In each list, the first batch for which `isAfter` holds (they are in order), found by halving.
    private func first(where isAfter: (CreationHistory.Batch) -> Bool) throws -> (edit: Int, move: Int) {
        func search(_ count: Int, _ batch: (Int) throws -> CreationHistory.Batch) throws -> Int {
            var low = 0, high = count
            while low < high {
                let middle = (low + high) / 2
                if isAfter(try batch(middle)) { high = middle } else { low = middle + 1 }
            }
            return low
        }
        return (try search(Int(meta.nodeCount), editBatch), try search(Int(meta.moveCount), move))
    }

    /// The later in history order of the two batches just before `after`'s.
    private func lastBefore(_ after: (edit: Int, move: Int)) throws -> CreationHistory.Batch? {
        let edit = after.edit > 0 ? try editBatch(after.edit - 1) : nil
        let move = after.move > 0 ? try self.move(after.move - 1) : nil
        guard let edit, let move else { return edit ?? move }
        return edit.firstVersion > move.firstVersion ? edit : move
    }

    func batch(holdingEvent version: UInt64) throws -> CreationHistory.Batch? {
        let after = try first { $0.lastVersion >= version }
        for candidate in [after.edit < Int(meta.nodeCount) ? try editBatch(after.edit) : nil,
                          after.move < Int(meta.moveCount) ? try move(after.move) : nil] {
            if let candidate, candidate.firstVersion <= version { return candidate }
        }
        return nil
    }

    func head(afterBatchStartingAtOrBefore version: UInt64) throws -> Int? {
        try lastBefore(try first { $0.firstVersion > version })?.headAfter
    }

    func head(afterBatchMadeAtOrBefore time: Int64) throws -> Int? {
        if meta.timesAscending { return try lastBefore(try first { $0.time > time })?.headAfter }
        // Stamps out of order (appends made across a clock set back): the last one at or before, from the end of each list.
        func last(_ count: Int, _ batch: (Int) throws -> CreationHistory.Batch) throws -> CreationHistory.Batch? {
            for index in stride(from: count - 1, through: 0, by: -1) {
                let found = try batch(index)
                if found.time <= time { return found }
            }
            return nil
        }
        let edit = try last(Int(meta.nodeCount), editBatch), move = try last(Int(meta.moveCount), self.move)
        guard let edit, let move else { return (edit ?? move)?.headAfter }
        return (edit.firstVersion > move.firstVersion ? edit : move).headAfter
    }

    /// The node's events, read from the log and checked.
    func events(of node: Int) throws -> [CreationEvent] {
        let record = try self.node(node)
        let stored = try cache.events(fromSequence: record.firstSequence, count: Int(record.eventCount))
        guard stored.first?.id == record.id else { throw HistoryIndex.Unusable(reason: "node \(node) names other events") }
        return try stored.map(EventCoding.domainEvent)
    }

    func state(at node: Int) throws -> Creation {
        if let lastState, lastState.node == node { return lastState.state }
        if let known, known.node == node { return known.state }
        var path = [Int]()
        var current = node
        let checkpoint = try self.node(node).checkpoint
        var state: Creation
        while true {
            if let known, current == known.node {
                state = known.state  // a redo: the head's state and the child's events
                break
            }
            if let lastState, current == lastState.node {
                state = lastState.state  // an ancestor's, asked for last (turns drawn one after another)
                break
            }
            if current == Int(checkpoint) {
                guard let data = try records.get(HistoryIndex.stateKey(checkpoint)) else {
                    throw HistoryIndex.Unusable(reason: "the state at node \(checkpoint) is missing")
                }
                do {
                    state = try Creation.decoded(Data(data))
                } catch {
                    throw HistoryIndex.Unusable(reason: "the state at node \(checkpoint) cannot be read")
                }
                break
            }
            path.append(current)
            guard let parent = try parent(of: current) else {
                guard checkpoint == HistoryIndex.none else { throw HistoryIndex.Unusable(reason: "node \(node)'s checkpoint is not above it") }
                state = Creation(id: id)
                break
            }
            current = parent
        }
        for index in path.reversed() { state.fold(try events(of: index)) }
        lastState = (node, state)
        return state
    }

    /// Takes `state` as the state at `node` (the head's, held by whoever asks).
    func knowing(_ state: Creation, at node: Int) { known = (node, state) }

    /// The node's children, oldest first.
    func children(of node: Int) throws -> [Int] {
        let record = try self.node(node)
        guard record.childCount < meta.nodeCount else { throw HistoryIndex.Unusable(reason: "node \(node) has more children than the index has nodes") }
        var children = [Int](), child = record.firstChild
        for _ in 0..<record.childCount {
            children.append(Int(child))
            child = try self.node(Int(child)).nextSibling
        }
        return children
    }

    /// What the edit at `node` did, as `memery history` says it (`events`: its events, when read already).
    func summary(of node: Int, events read: [CreationEvent]? = nil) throws -> String {
        let events = try read ?? events(of: node)
        return try HistoryTreeText.summary(events) { position in
            // Only a turn of the picture alone asks: the state before it costs a checkpoint's decoding.
            let before = try parent(of: node).map(state(at:)) ?? Creation(id: id)
            return before.evolve(events.prefix(position).filter { !$0.isHeadMove })
        }
    }
}
