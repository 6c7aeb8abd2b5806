import Foundation
import MemeryCore
import MemeryStore

/// Extending a creation's `HistoryIndex` by appends in history order, exactly as
/// `CreationHistory.apply` extends the tree (the tests compare the two on random histories),
/// and building it whole from a replay.
extension HistoryIndex {
    /// Adds one append. `nodeWithID` finds an edit's node (nil: this history has no such
    /// edit); `stateAfter` is the state at a new edit's node, asked for only when a checkpoint
    /// is due or while the creation has no canvas yet.
    static func apply(_ stored: ArraySlice<StoredEvent>, _ events: [CreationEvent], _ envelope: EditEnvelope,
                      to meta: inout Meta, in records: inout some HistoryRecords,
                      nodeWithID: (UUID) throws -> UInt32?, stateAfter: () throws -> Creation) throws {
        guard let first = stored.first, !events.isEmpty else { return }
        let firstVersion = envelope.lastVersion - UInt64(events.count) + 1
        meta.streamVersion = envelope.lastVersion
        meta.latest = Swift.max(meta.latest ?? envelope.order, envelope.order)
        if events.count == 1, case .headMoved(let move) = events[0] {
            // A move to an unknown edit changes nothing, as in the tree.
            guard let target = try nodeWithID(move.to) else { return }
            try add(CreationHistory.Batch(firstVersion: firstVersion, lastVersion: envelope.lastVersion, time: envelope.time,
                                          kind: .move(to: Int(target), cause: move.cause)), to: &meta, in: &records)
            meta.head = target
            return
        }
        // The edit it was made on; one whose parent is not here yet hangs under the head.
        let head: UInt32? = meta.head == none ? nil : meta.head
        let parent: UInt32? = try envelope.parent.map { try nodeWithID($0) ?? head } ?? nil
        let index = meta.nodeCount
        let parentNode = try parent.map { try node($0, in: records) }
        let payloadBytes = stored.reduce(0) { $0 + UInt64($1.payload.count) }
        var made = Node(id: envelope.id, parent: parent ?? none, firstSequence: first.sequence, eventCount: UInt32(stored.count),
                        firstVersion: firstVersion, lastVersion: envelope.lastVersion, time: envelope.time, childCount: 0,
                        firstChild: none, lastChild: none, nextSibling: none, checkpoint: parentNode?.checkpoint ?? none, foldBytes: (parentNode?.foldBytes ?? 0) + payloadBytes,
                        checkpointBytes: parentNode?.checkpointBytes ?? 0)
        var state: Creation?
        if made.foldBytes >= Swift.max(made.checkpointBytes, UInt64(minimumFoldBytes)) {
            let after = try stateAfter()
            let data = try JSONEncoder().encode(after)
            try records.put(stateKey(index), Array(data))
            (made.checkpoint, made.foldBytes, made.checkpointBytes) = (index, 0, UInt64(data.count))
            state = after
        }
        if meta.genesis == none, (try state ?? stateAfter()).canvas != nil { meta.genesis = index }
        try put(made, at: index, in: &records)
        if let parent, var parentNode {
            if parentNode.childCount == 0 {
                parentNode.firstChild = index
            } else {
                var previous = try node(parentNode.lastChild, in: records)
                previous.nextSibling = index
                try put(previous, at: parentNode.lastChild, in: &records)
            }
            parentNode.lastChild = index
            parentNode.childCount += 1
            try put(parentNode, at: parent, in: &records)
        }
        meta.nodeCount += 1
        try add(CreationHistory.Batch(firstVersion: firstVersion, lastVersion: envelope.lastVersion, time: envelope.time,
                                      kind: .edit(node: Int(index))), to: &meta, in: &records)
        meta.head = index
    }

    private static func add(_ batch: CreationHistory.Batch, to meta: inout Meta, in records: inout some HistoryRecords) throws {
        try put(batch, at: meta.batchCount, in: &records)
        meta.batchCount += 1
        meta.timesAscending = meta.timesAscending && batch.time >= meta.lastTime
        meta.lastTime = batch.time
    }

    /// The index's part of an append made on a creation at stream version `version`, for
    /// `StreamWrite.derive`: in the append's own transaction, when the index covers exactly
    /// `version` (or the creation is new). Otherwise the index is left behind for a replay to
    /// build, and so is one the append would not fit (damaged, or an append that sorts before
    /// the latest); an edit never fails for its index's sake.
    /// It knows two edits by id: the head's, which an edit is made on, and `moveTarget`, the
    /// node a move goes to (as its decider found it); any other leaves the index behind.
    static func deriving(_ events: [CreationEvent], after version: UInt64, moveTarget: Int? = nil,
                         stateAfter: @escaping @Sendable () -> Creation) -> @Sendable (StreamCache, [StoredEvent]) throws -> Void {
        { cache, stored in
            var records = cache
            do {
                var meta: Meta
                if let current = try HistoryIndex.meta(in: cache) {
                    guard current.coveredVersion == version else { return }
                    meta = current
                } else {
                    guard version == 0 else { return }
                    meta = Meta()
                }
                guard let envelope = EventCoding.envelope(stored[...]) else { return }
                if let latest = meta.latest, envelope.order < latest { return }
                let known = [meta.head, moveTarget.map(UInt32.init) ?? none].filter { $0 != none }
                let ids = try known.map { try node($0, in: cache).id }
                try apply(stored[...], events, envelope, to: &meta, in: &records, nodeWithID: { id in
                    guard let position = ids.firstIndex(of: id) else { throw Unusable(reason: "an edit the append names is not at hand") }
                    return known[position]
                }, stateAfter: stateAfter)
                meta.coveredVersion = cache.version
                try put(meta, in: &records)
            } catch is Unusable {
                return  // what was written is not covered by the index's version: a replay replaces it
            } catch is EncodingError {
                return
            }
        }
    }

    /// The index built alongside a replay: each append added as the tree adds it.
    struct Building {
        var records = HistoryRecordsInMemory()
        var meta = Meta()

        mutating func add(_ stored: ArraySlice<StoredEvent>, _ events: [CreationEvent], _ envelope: EditEnvelope, tree: CreationHistory) throws {
            // The tree has this append already, and numbers its nodes as the index does.
            try HistoryIndex.apply(stored, events, envelope, to: &meta, in: &records,
                                   nodeWithID: { id in tree.node(id: id).map(UInt32.init) },
                                   stateAfter: { tree.state })
        }

        /// Writes what was built in place of the old index, unless the stream has moved past
        /// `version` meanwhile (or another process wrote it first). A cache: a store that
        /// cannot be written (read-only, a full disk) just goes without.
        func write(to store: EventStore, stream: UUID, version: UInt64) {
            var meta = meta
            meta.coveredVersion = version
            try? store.updateCache(stream) { cache in
                guard cache.version == version, (try? HistoryIndex.meta(in: cache))??.coveredVersion != version else { return }
                try cache.removeAll()
                var target = cache
                for key in records.records.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                    try target.put(key, records.records[key]!)
                }
                try HistoryIndex.put(meta, in: &target)
            }
        }
    }

    /// True when the stream's index covers its latest version.
    static func isCurrent(_ store: EventStore, stream: UUID) -> Bool {
        (try? store.readCache(stream) { cache in try meta(in: cache)?.coveredVersion == cache.version }) ?? false
    }
}
