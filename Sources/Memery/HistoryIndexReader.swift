import Foundation
import MemeryCore
import MemeryStore

/// A creation's history read from its `HistoryIndex`, a record at a time, inside one read
/// transaction: undo, redo and checkout in a new process without replaying the stream.
/// Lookups by event number or time halve the batches (they are in history order); a state
/// is the nearest checkpoint at or above the node with the edits below it folded.
final class HistoryIndexReader: HistoryNavigation {
    let cache: StreamCache
    let meta: HistoryIndex.Meta
    private var lastState: (node: Int, state: Creation)?
    /// The nodes read in this transaction, by edit id: the index keeps no map of its own.
    private var nodesRead: [UUID: Int] = [:]

    /// Nil when the stream has no index, or one behind the stream (a replay builds it).
    init?(_ cache: StreamCache) throws {
        guard let meta = try HistoryIndex.meta(in: cache), meta.coveredVersion == cache.version else { return nil }
        self.cache = cache
        self.meta = meta
    }

    var id: UUID { cache.stream }
    var head: Int? { meta.head == HistoryIndex.none ? nil : Int(meta.head) }
    var genesis: Int? { meta.genesis == HistoryIndex.none ? nil : Int(meta.genesis) }
    var streamVersion: UInt64 { meta.streamVersion }

    func node(_ node: Int) throws -> HistoryIndex.Node {
        guard node >= 0, node < Int(meta.nodeCount) else { throw HistoryIndex.Unusable(reason: "node \(node) is past the index's end") }
        let record = try HistoryIndex.node(UInt32(node), in: cache)
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

    func batch(_ index: Int) throws -> CreationHistory.Batch { try HistoryIndex.batch(UInt32(index), in: cache) }

    /// The first batch for which `isAfter` holds (they are in order), or nil.
    private func firstBatch(where isAfter: (CreationHistory.Batch) -> Bool) throws -> (index: Int, batch: CreationHistory.Batch)? {
        var low = 0, high = Int(meta.batchCount)
        var found: (Int, CreationHistory.Batch)?
        while low < high {
            let middle = (low + high) / 2
            let batch = try self.batch(middle)
            if isAfter(batch) {
                found = (middle, batch)
                high = middle
            } else {
                low = middle + 1
            }
        }
        return found
    }

    func batch(holdingEvent version: UInt64) throws -> CreationHistory.Batch? {
        guard let (_, batch) = try firstBatch(where: { $0.lastVersion >= version }), batch.firstVersion <= version else { return nil }
        return batch
    }

    func head(afterBatchStartingAtOrBefore version: UInt64) throws -> Int? {
        let after = try firstBatch(where: { $0.firstVersion > version })?.index ?? Int(meta.batchCount)
        return after == 0 ? nil : try batch(after - 1).headAfter
    }

    func head(afterBatchMadeAtOrBefore time: Int64) throws -> Int? {
        if meta.timesAscending {
            let after = try firstBatch(where: { $0.time > time })?.index ?? Int(meta.batchCount)
            return after == 0 ? nil : try batch(after - 1).headAfter
        }
        // Stamps out of order (appends made across a clock set back): the last one at or before, from the end.
        for index in stride(from: Int(meta.batchCount) - 1, through: 0, by: -1) {
            let batch = try self.batch(index)
            if batch.time <= time { return batch.headAfter }
        }
        return nil
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
        var path = [Int]()
        var current = node
        let checkpoint = try self.node(node).checkpoint
        var state: Creation
        while true {
            if current == Int(checkpoint) {
                guard let data = try cache.get(HistoryIndex.stateKey(checkpoint)) else {
                    throw HistoryIndex.Unusable(reason: "the state at node \(checkpoint) is missing")
                }
                do {
                    state = try PayloadJSONDecoder().decode(Creation.self, from: Data(data))
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

    /// What the edit at `node` did, as `memery history` says it.
    func summary(of node: Int) throws -> String {
        let events = try events(of: node)
        let before = try parent(of: node).map(state(at:)) ?? Creation(id: id)
        return HistoryTreeText.summary(events) { position in before.evolve(events.prefix(position).filter { !$0.isHeadMove }) }
    }
}
