import Foundation
import MemeryCore
import MemeryStore

/// Extending a creation's `HistoryIndex` by appends in history order, exactly as
/// `CreationHistory.apply` extends the tree (the tests compare the two on random histories),
/// catching it up with the edits appended since it was written, and building it whole from a
/// replay.
///
/// When it is written: a plain edit does not write it (that would add a third B-tree to
/// every durable commit: 9.0 writes and 33 KB per edit where 4.6 and 15 KB are without, by
/// strace over `memery apply`); a move
/// of the head and the creation's first append do, in their own transaction, and so does the
/// renewal of the head's snapshot every 100 events, in the snapshot's. Whoever reads or writes it catches it up
/// with the edits after the version it covers, as a snapshot is caught up with its tail.
extension HistoryIndex {
    /// Adds one append. `nodeWithID` finds an edit's node (nil: this history has no such
    /// edit); `stateAfter` is the state at a new edit's node, asked for only when a checkpoint
    /// is due or while the creation has no canvas yet (nil: not at hand, so the checkpoint
    /// waits for a later node).
    static func apply(_ stored: ArraySlice<StoredEvent>, _ events: [CreationEvent], _ envelope: EditEnvelope,
                      to meta: inout Meta, in records: inout some HistoryRecords,
                      nodeWithID: (UUID) throws -> UInt32?, stateAfter: () throws -> Creation?) throws {
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
        if made.foldBytes >= Swift.max(made.checkpointBytes, UInt64(minimumFoldBytes)), let after = try stateAfter() {
            let data = try after.encoded()
            try records.put(stateKey(index), Array(data))
            (made.checkpoint, made.foldBytes, made.checkpointBytes) = (index, 0, UInt64(data.count))
            state = after
        }
        if meta.genesis == none {
            guard let after = try state ?? stateAfter() else { throw Unusable(reason: "where the canvas begins is not at hand") }
            if after.canvas != nil { meta.genesis = index }
        }
        try put(made, at: index, in: &records)
        try put(Description(events), of: made, at: index, in: &records)
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

    /// An edit's batch is its node, written already; a move has a record of its own.
    private static func add(_ batch: CreationHistory.Batch, to meta: inout Meta, in records: inout some HistoryRecords) throws {
        if batch.isMove {
            try put(move: batch, at: meta.moveCount, in: &records)
            meta.moveCount += 1
        }
        meta.timesAscending = meta.timesAscending && batch.time >= meta.lastTime
        meta.lastTime = batch.time
    }

    /// Catches the index up with the stream's appends after the version it covers, each an
    /// edit made on the head (as one writer makes them). Anything else in the tail (a move
    /// this build did not index, a branch or an append sorted in before, from a sync or an
    /// older build) is `Unusable`: only a replay places it. `lastState` is the state after
    /// the tail's last edit, when at hand: a checkpoint due in the tail is written there.
    static func catchUp(_ meta: inout Meta, in records: inout some HistoryRecords, cache: StreamCache, through version: UInt64,
                        lastState: Creation? = nil) throws {
        guard meta.coveredVersion < version else { return }
        let tail = try cache.events(fromVersion: meta.coveredVersion + 1, through: version)
        let batches = HistoryOrdering.batches(tail)
        for (position, batch) in batches.enumerated() {
            guard let envelope = EventCoding.envelope(batch) else { throw Unusable(reason: "an append without events") }
            if let latest = meta.latest, envelope.order < latest { throw Unusable(reason: "an append sorts before the latest") }
            let events = try batch.map(EventCoding.domainEvent)
            let head = meta.head == none ? nil : try node(meta.head, in: records)
            guard !events.contains(where: \.isHeadMove), envelope.parent == head?.id else {
                throw Unusable(reason: "the tail holds a move or a branch")
            }
            let isLast = position == batches.count - 1, parent = meta.head
            try apply(batch, events, envelope, to: &meta, in: &records, nodeWithID: { _ in parent },
                      stateAfter: { isLast ? lastState : nil })
        }
        meta.coveredVersion = version
    }

    /// The index's part of an append made on a creation at stream version `version` (a move
    /// of the head, or its first append), for `StreamWrite.derive`: in the append's own
    /// transaction, caught up first with the edits since it was written (`stateBefore` is the
    /// state after them, when at hand). An index that cannot take the append (damaged; a tail only a replay
    /// can place) is left as it was, behind, for a replay to build again: an edit never fails
    /// for its index's sake, and nothing is written unless all of it fits.
    /// It knows the head's edit, which an edit is made on, and `moveTarget`, the node a move
    /// goes to (as its decider found it); an append naming any other leaves the index behind.
    static func deriving(_ events: [CreationEvent], after version: UInt64, moveTarget: Int? = nil, stateBefore: Creation?,
                         stateAfter: @escaping @Sendable () -> Creation?) -> @Sendable (StreamCache, [StoredEvent]) throws -> Void {
        { cache, stored in
            var records = HistoryRecordsOverlay(over: cache)
            do {
                var meta: Meta
                if let current = try HistoryIndex.meta(in: cache) {
                    meta = current
                    try catchUp(&meta, in: &records, cache: cache, through: version, lastState: stateBefore)
                } else {
                    guard version == 0 else { return }  // no index yet: the first replay builds it
                    meta = Meta()
                }
                guard meta.coveredVersion == version, let envelope = EventCoding.envelope(stored[...]) else { return }
                if let latest = meta.latest, envelope.order < latest { return }
                let known = [meta.head, moveTarget.map(UInt32.init) ?? none].filter { $0 != none }
                let ids = try known.map { try node($0, in: records).id }
                try apply(stored[...], events, envelope, to: &meta, in: &records, nodeWithID: { id in
                    guard let position = ids.firstIndex(of: id) else { throw Unusable(reason: "an edit the append names is not at hand") }
                    return known[position]
                }, stateAfter: stateAfter)
                meta.coveredVersion = cache.version
                try put(meta, in: &records)
                var target = cache
                try records.flush(into: &target)
            } catch is Unusable {
                return
            } catch is EncodingError {
                return
            }
        }
    }

    /// Writes the index caught up to the stream's version, `state` being the state there: in
    /// the transaction that renews the head's snapshot (every 100 events), so that a reader's
    /// tail stays short.
    static func catchUp(_ cache: StreamCache, at version: UInt64, state: Creation) throws {
        guard cache.version == version, var meta = try HistoryIndex.meta(in: cache), meta.coveredVersion < version else { return }
        var records = HistoryRecordsOverlay(over: cache)
        do {
            try catchUp(&meta, in: &records, cache: cache, through: version, lastState: state)
            try put(meta, in: &records)
            var target = cache
            try records.flush(into: &target)
        } catch is Unusable {
            return  // a replay will build it
        }
    }

    /// The index built alongside a replay: each append added as the tree adds it.
    struct Building {
        var records = HistoryRecordsOverlay<StreamCache>(over: nil)
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
                try records.flush(into: &target)
                try HistoryIndex.put(meta, in: &target)
            }
        }
    }

    /// True when a reader can answer from the stream's index (caught up with the tail).
    static func isCurrent(_ store: EventStore, stream: UUID) -> Bool {
        (try? store.readCache(stream) { cache in try HistoryIndexReader(cache) != nil }) ?? false
    }
}
