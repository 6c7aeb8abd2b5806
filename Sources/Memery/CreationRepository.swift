import Foundation
import MemeryCore
import MemeryStore

/// Creations' own streams: a creation's head opened from its snapshot and the tail after
/// it, its whole history tree, and a new creation's first append. Edits go through the
/// cached instance, `CreationSession`, which holds the head between edits; everything else
/// a creation's stream holds is read here. Its first append starts two streams in one
/// transaction (`EventSourcedRepository.firstWrite`): the creation's and its membership's.
struct CreationRepository: Sendable {
    let store: EventStore
    /// The heads a long-lived process keeps, following the global log.
    let projections: LiveProjections
    /// The history trees built last, extended by what came after.
    let histories: HistoryCache
    let turns: WriteTurns
    let galleryIndex: GalleryIndex
    private let firsts: EventSourcedRepository<Creation>

    init(store: EventStore, projections: LiveProjections, histories: HistoryCache, turns: WriteTurns, galleryIndex: GalleryIndex) {
        self.store = store
        self.projections = projections
        self.histories = histories
        self.turns = turns
        self.galleryIndex = galleryIndex
        firsts = EventSourcedRepository(store: store, turns: turns, stream: { $0 })
    }

    /// Snapshots are written every this many events.
    static let snapshotInterval: UInt64 = 100

    // MARK: Reading

    /// Damage met while reading one creation is that creation's: the error names it (and
    /// says the rest of the store is readable), instead of blaming the whole store.
    static func naming<T>(_ name: String, _ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch StoreError.damaged(let sequence, let reason) {
            throw MemeryError(.damagedStore, "\"\(name)\" is damaged\(sequence.map { " at sequence \($0)" } ?? ""): \(reason); the other creations can be read",
                              underlying: StoreError.damaged(sequence: sequence, reason: reason))
        }
    }

    /// The head of the creation the gallery entry names, under the gallery's name.
    func head(_ entry: Gallery.Entry) throws -> CreationHead {
        try Self.naming(entry.name) {
            var replayed: CreationHead?
            var head = try projections.head(entry.id, store) {
                let (head, fromScratch) = try readHead(entry.id)
                if fromScratch { replayed = head }
                return head
            }
            if let replayed { snapshotIfDue(replayed, force: true) }  // a synced write: not under the cache's lock
            head.state.name = entry.name  // the gallery's name: renames live there
            return head
        }
    }

    /// The head from the store: the snapshot and the events after it. Undo, redo and
    /// checkout to a large state (64 KiB or more) write the history index but no snapshot,
    /// so a tail that holds a move is opened from the index: the state at its head (a
    /// checkpoint and the edits below it).
    /// Only a tail the index cannot place (a branch from another machine, a move by an older
    /// Memery, a damaged index) replays the tree.
    /// `snapshotDue` says the snapshot is worth renewing (a long tail, a move, or a replay).
    func readHead(_ id: UUID) throws -> (head: CreationHead, snapshotDue: Bool) {
        let snapshot = try store.snapshot(id).flatMap { $0.format == CreationHead.snapshotFormat ? $0 : nil }
        let since = snapshot?.version ?? 0
        let tail = HistoryOrdering.batches(try store.events(in: id, fromVersion: since + 1))
        let decoded = try tail.map { try $0.map(EventCoding.domainEvent) }
        // A move in the tail: the snapshot (at 2,000 layers, 17 ms of JSON) is not worth decoding.
        if decoded.contains(where: { $0.contains(where: \.isHeadMove) }), let indexed = try headFromIndex(id) {
            return (indexed, true)
        }
        var head = CreationHead(id: id)
        if let snapshot, let cached = CreationHead.decoded(snapshot.data), cached.streamVersion == snapshot.version, cached.state.id == id {
            head = cached
        } else if since > 0 {
            return try readHead(fromScratch: id)
        }
        // An append in the tail that sorts before the latest (from another machine) is placed by the tree.
        for (batch, events) in zip(tail, decoded) {
            guard let envelope = EventCoding.envelope(batch), head.apply(events, envelope) else {
                return try readHead(fromScratch: id)
            }
        }
        return (head, head.streamVersion - since >= Self.snapshotInterval)
    }

    /// The head the history index gives (caught up with the tail), or nil when it cannot.
    private func headFromIndex(_ id: UUID) throws -> CreationHead? {
        do {
            return try store.readCache(id) { cache in
                guard let index = try HistoryIndexReader(cache), let node = index.head else { return nil }
                let record = try index.node(node)
                return CreationHead(state: try index.state(at: node), streamVersion: cache.version,
                                    headVersion: record.lastVersion, headEdit: record.id, latest: index.meta.latest)
            }
        } catch {
            // Unusable, or damage it leads to (a record that names another event): the replay
            // that answers instead reads the stream itself, and names real damage.
            return nil
        }
    }

    /// The head by replaying the whole tree, when neither the snapshot nor the index can place the tail.
    private func readHead(fromScratch id: UUID) throws -> (head: CreationHead, snapshotDue: Bool) {
        // (Under the live cache's lock: the history index is left for the next move to write.)
        histories.count(built: true)
        return (CreationHead(try loadHistory(id, writingIndex: false).history), true)
    }

    /// Keeps the creation's snapshot near its head. A snapshot is a cache: failing to write
    /// one loses nothing, so errors are ignored.
    func snapshotIfDue(_ head: CreationHead, force: Bool = false) {
        guard force || head.streamVersion % Self.snapshotInterval == 0, let data = try? head.encoded() else { return }
        try? store.putSnapshot(head.state.id, version: head.streamVersion, format: CreationHead.snapshotFormat, data: data) { cache in
            // Whatever stops the index's catch-up leaves it behind, never the snapshot unwritten
            // (a failed put would fail the commit: LMDB refuses to commit after one).
            try? HistoryIndex.catchUp(cache, at: head.streamVersion, state: head.state)
        }
    }

    /// The creation's whole history under the gallery's name: the tree kept from the last
    /// look, with the appends since added when each sorts after everything in it (this
    /// machine's own edits always do); else built again from the start.
    func history(_ entry: Gallery.Entry) throws -> CreationHistory {
        var history = try Self.naming(entry.name) { try currentHistory(entry.id) }
        history.name = entry.name  // the gallery's name: renames live there
        return history
    }

    private func currentHistory(_ id: UUID) throws -> CreationHistory {
        let version = try store.version(of: id)
        if var tree = histories.tree(id), tree.storedVersion <= version {
            if tree.storedVersion == version { return tree.history }
            let newer = try store.events(in: id, fromVersion: tree.storedVersion + 1)
            var extended = true
            for batch in HistoryOrdering.batches(newer) {
                guard let envelope = EventCoding.envelope(batch), tree.history.latest.map({ envelope.order >= $0 }) ?? true else {
                    extended = false
                    break
                }
                tree.history.apply(try batch.map(EventCoding.domainEvent), envelope)
            }
            if extended, let last = newer.last?.version {
                tree.storedVersion = last
                histories.keep(tree, for: id)
                histories.count(built: false)
                return tree.history
            }
        }
        // Kept as far as the events read, not the version looked at before: an append made
        // in between is in the tree already and must not be added again.
        let (history, events) = try loadHistory(id)
        histories.keep(.init(history: history, storedVersion: UInt64(events.count)), for: id)
        histories.count(built: true)
        return history
    }

    /// The whole history tree, replayed from the creation's first event, and its events in
    /// the order every machine agrees on (`HistoryOrder`), numbered in that order.
    func loadHistory(_ id: UUID, writingIndex: Bool = true) throws -> (history: CreationHistory, events: [StoredEvent]) {
        let ordered = HistoryOrdering.inHistoryOrder(try store.events(in: id))
        var history = CreationHistory(id: id)
        // The history index is built alongside when it cannot answer (missing, damaged, or a
        // tail only a replay places), so that the next new process need not replay.
        var index = !writingIndex || HistoryIndex.isCurrent(store, stream: id) ? nil : HistoryIndex.Building()
        let batches = HistoryOrdering.batches(ordered)
        history.reserveCapacity(appends: batches.count)
        for batch in batches {
            guard let envelope = EventCoding.envelope(batch) else { continue }
            let events = try batch.map(EventCoding.domainEvent)
            history.apply(events, envelope)
            try index?.add(batch, events, envelope, tree: history)
        }
        index?.write(to: store, stream: id, version: UInt64(ordered.count))
        return (history, ordered)
    }

    // MARK: Starting

    /// Appends a new creation's name and canvas in one batch: the first node of its history,
    /// which undo keeps. The gallery is not read: the name's claim, taken in the same
    /// transaction, is what keeps names unique, so the 10,000th creation costs what the
    /// first did.
    func start(_ name: String, with canvas: CreationCommand, blobs: [Data] = [], blobRefs: [String] = []) throws -> Creation {
        let empty = Creation(id: UUID())
        let named = try empty.decide(.create(name: name))
        let made = try empty.evolve(named).decide(canvas)
        let creation = empty.evolve(named + made)
        do {
            // The creation's first edit and its gallery membership land together, each the
            // first event of its own stream: no other creation's stream is read or waited on.
            let joined = try Membership(creation: creation.id).decide(.add(name: name, rank: GalleryRank.added(at: GalleryIndex.nowMilliseconds)))
            try turns.take { _ in
                var first = try firsts.firstWrite(of: creation.id, named + made)
                first.derive = HistoryIndex.deriving(named + made, after: 0, stateBefore: empty) { creation }
                try store.append([first,
                                  try galleryIndex.memberships.firstWrite(of: creation.id, joined)],
                                 blobs: blobs, blobRefs: blobRefs, claim: [GalleryIndex.nameClaim(name)])
            }
            return creation
        } catch StoreError.claimTaken {
            throw galleryIndex.nameTaken(name)
        }
    }
}
