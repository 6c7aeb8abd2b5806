public import Foundation
import MemeryCore
import MemeryStore

/// One creation held open for a series of edits, as `memery apply` makes them. The state
/// at the head stays in memory once read, so an edit costs one decide and one durable
/// append; a move of the head decided on the history index reads the index alone; the
/// whole history tree is read only when the index cannot answer. When another process
/// edits the creation meanwhile, the append conflicts and the session reloads.
public final class CreationSession {
    public let workspace: Workspace
    public let name: String
    public let id: UUID
    /// The head, once something needed it (a move decided on the index does not).
    private var opened: CreationHead?
    /// The whole tree, once something needed it.
    private var tree: CreationHistory?
    /// When set, an edit is stored only if the creation is at this stream version when it
    /// is appended (the store checks it in the append's own transaction); otherwise it
    /// throws `StaleVersion` and stores nothing, where it would decide again on a conflict.
    var expectedVersion: UInt64?

    init(workspace: Workspace, name: String) throws {
        self.workspace = workspace
        self.name = name
        id = try workspace.entryForEditing(name).id
    }

    /// The head: the state shown, the stream version the next append expects.
    public var head: CreationHead {
        get throws {
            if let opened { return opened }
            let head = try workspace.creations.head(try entry())
            opened = head
            return head
        }
    }

    /// The gallery's entry for the creation this session holds: refused in the trash, and
    /// when the name has come to mean another creation meanwhile (a rename, then a new one
    /// under the old name), rather than deciding on one stream and appending to the other.
    private func entry() throws -> Gallery.Entry {
        let entry = try workspace.entryForEditing(name)
        guard entry.id == id else { throw DomainError.noSuchCreation(name) }
        return entry
    }

    public var state: Creation { get throws { try head.state } }

    /// The whole history tree (read once, then kept up to date).
    public func history() throws -> CreationHistory {
        if let tree { return tree }
        let loaded = try workspace.creations.history(try entry())
        tree = loaded
        if opened == nil { opened = CreationHead(loaded) }  // the head it has, not read again
        return loaded
    }

    /// Decides an edit against the state at the head and appends it as one batch; returns
    /// the events once durable (none when nothing changed).
    @discardableResult
    public func edit(_ command: CreationCommand, blobs: [Data] = [], blobRefs: [String] = []) throws -> [RecordedEvent] {
        let command = try FontNames.resolving(command)
        return try retrying { try append(try state.decide(command), blobs: blobs, blobRefs: blobRefs) }.recorded
    }

    /// Decides a move of the head (undo, redo, checkout) and appends it. A new session reads
    /// the creation's history index, a few records, rather than the head's snapshot or the
    /// whole tree; the tree is replayed (and the index built again) when the index is
    /// missing or cannot place the stream's tail.
    @discardableResult
    public func changeHistory(_ decide: (any HistoryNavigation) throws -> [CreationEvent]) throws -> [RecordedEvent] {
        try retrying {
            // A small head is worth opening (a redo then folds one edit onto it, not a
            // checkpoint's distance); a large one costs more to decode than the move saves.
            if tree == nil, opened == nil, (try workspace.store.snapshotSize(id) ?? 0) < Self.snapshotWithMoveBelow,
               HistoryIndex.isCurrent(workspace.store, stream: id) {
                _ = try head
            }
            if tree == nil, let planned = try planFromIndex(decide) {
                return try append(planned.events, on: planned.base, movedTo: planned.target, summary: planned.summary)
            }
            return try append(try decide(try history()))
        }.recorded
    }

    /// A move decided on the history index: the head it was decided on, the events, the
    /// state they lead to and what the edit there did. Nil when the index cannot answer (or
    /// does not answer for the head this session holds).
    private func planFromIndex(_ decide: (any HistoryNavigation) throws -> [CreationEvent])
        throws -> (base: AppendBase, events: [CreationEvent], target: MoveTarget?, summary: HeadSummary?)? {
        do {
            return try workspace.store.readCache(id) { cache in
                guard let index = try HistoryIndexReader(cache) else { return nil }
                let headEdit = try index.head.map { try index.editID(of: $0) }
                if let opened {
                    guard cache.version == opened.streamVersion, headEdit == opened.headEdit else { return nil }
                    if let node = index.head { index.knowing(opened.state, at: node) }
                }
                let base = AppendBase(streamVersion: cache.version, headEdit: headEdit, latest: index.meta.latest, state: opened?.state)
                let events = try decide(index)
                guard events.count == 1, case .headMoved(let move) = events[0] else {
                    // Nothing to move (a checkout to the head): the head's own summary.
                    let summary = try index.head.map { ($0, try index.node($0).lastVersion) }.map { ($1, try index.summary(of: $0)) }
                    return (base, events, nil, events.isEmpty ? summary : nil)
                }
                let node = try index.node(id: move.to), record = try index.node(node)
                let target = MoveTarget(node: node, state: try index.state(at: node), version: record.lastVersion,
                                        estimatedBytes: record.checkpointBytes + record.foldBytes)
                return (base, events, target, (target.version, try index.summary(of: node)))
            }
        } catch where HistoryIndex.cannotAnswer(error) {
            // Damaged or inconsistent: dropped, so that the replay that answers builds it again.
            try? workspace.store.updateCache(id) { try $0.removeAll() }
            return nil
        }
    }

    /// What an append is made on: the stream version it expects, the edit at the head, the
    /// latest append's order, and the head's state when it is at hand.
    private struct AppendBase {
        var streamVersion: UInt64
        var headEdit: UUID?
        var latest: HistoryOrder?
        var state: Creation?

        init(streamVersion: UInt64, headEdit: UUID?, latest: HistoryOrder?, state: Creation?) {
            (self.streamVersion, self.headEdit, self.latest, self.state) = (streamVersion, headEdit, latest, state)
        }

        init(_ head: CreationHead) {
            self.init(streamVersion: head.streamVersion, headEdit: head.headEdit, latest: head.latest, state: head.state)
        }
    }

    private struct MoveTarget {
        var node: Int
        var state: Creation
        var version: UInt64
        /// About the size of the state's JSON: its nearest checkpoint's and the payloads folded since.
        var estimatedBytes: UInt64
    }

    /// A move stores the state it leads to as the snapshot when it is smaller than this (its
    /// JSON costs less than a commit of its own, which the next reader would otherwise make
    /// to renew the snapshot); a larger one is left to that reader (at 2,000 layers, 624 KiB
    /// and 47 ms of JSON, which a `memery undo` that shows nothing need not pay).
    static let snapshotWithMoveBelow = 64 * 1024
    typealias HeadSummary = (version: UInt64, summary: String)
    /// What the last move decided on the index left at the head (the tree was not read).
    private var indexedSummary: HeadSummary?

    /// Through the workspace's one write path: on a conflict, start again from the store.
    private func retrying(_ attempt: () throws -> [StoredEvent]) throws -> [StoredEvent] {
        try workspace.turns.take { tries in
            if tries > 1 {
                opened = nil
                tree = nil
            }
            return try attempt()
        }
    }

    private func append(_ events: [CreationEvent], on decidedOn: AppendBase? = nil, blobs: [Data] = [], blobRefs: [String] = [],
                        movedTo planned: MoveTarget? = nil, summary: HeadSummary? = nil) throws -> [StoredEvent] {
        indexedSummary = summary
        var base = try decidedOn ?? AppendBase(head)
        // Checked against the version the events were decided on, which the store checks again in the append.
        if let expected = expectedVersion, base.streamVersion != expected {
            throw StaleVersion(expected: expected, current: base.streamVersion, name: name)
        }
        guard !events.isEmpty else { return [] }
        let newEvents = try EventCoding.newEvents(events, madeOn: base.headEdit)
        // Stamped after every append the creation has, so it sorts last on every machine.
        let now = HistoryOrder.stamp(now: Date(), after: base.latest)
        let order = HistoryOrder(time: Int64((now.timeIntervalSince1970 * 1000).rounded()), id: newEvents[0].id)
        var moved: CreationHead?
        var target: Int?
        let isMove = events.count == 1 && events[0].isHeadMove
        if isMove, case .headMoved(let move) = events[0] {
            target = planned?.node ?? tree?.node(id: move.to)
            if let planned {
                moved = CreationHead(state: planned.state, streamVersion: base.streamVersion + 1,
                                     headVersion: planned.version, headEdit: move.to, latest: order)
            } else if let tree, let target = tree.node(id: move.to) {
                moved = CreationHead(state: tree.state(at: target), streamVersion: base.streamVersion + 1,
                                     headVersion: tree.nodes[target].version, headEdit: move.to, latest: order)
            }
        }
        // A move on the tree (which the index could not answer) keeps its snapshot, as before the index.
        let snapshotWithMove = planned.map { $0.estimatedBytes < UInt64(Self.snapshotWithMoveBelow) } ?? true
        let snapshot = snapshotWithMove ? moved : nil
        let write = EventStore.StreamWrite(
            stream: id, expectedVersion: base.streamVersion, events: newEvents,
            snapshot: try snapshot.map { .init(format: CreationHead.snapshotFormat, data: try $0.encoded()) },
            // A move writes the history index (a few records); without a snapshot (a large
            // state) the next reader opens the head from it (`CreationRepository.readHead`). An
            // edit does not write the index (a third B-tree in every durable commit): a reader
            // catches it up from the tail.
            derive: isMove ? HistoryIndex.deriving(events, after: base.streamVersion, moveTarget: target, stateBefore: base.state) { nil } : nil)
        let stored = try workspace.store.append([write], blobs: blobs, blobRefs: blobRefs, now: now)
        base.state = nil  // a second reference to the head's layers would make folding below copy every one
        guard let envelope = EventCoding.envelope(stored[...]) else { return stored }
        tree?.apply(events, envelope)
        if let moved {
            opened = moved
        } else if var head = opened {
            opened = nil  // the same: folded with one reference, the layers are changed in place
            if head.apply(events, envelope) {
                opened = head
            } else {
                opened = tree.map(CreationHead.init)  // (a move the tree could not place; else read again)
            }
        }
        opened?.state.name = name
        if !isMove, let opened { workspace.creations.snapshotIfDue(opened) }
        if moved != nil, let opened, let last = stored.last {
            // The log cannot fold a move: without this, a long-lived process's next read
            // would open the head it has just computed again from the index.
            workspace.creations.projections.keepMoved(opened, through: last.sequence, workspace.store)
        }
        return stored
    }

    @discardableResult
    public func undo(steps: Int = 1) throws -> [RecordedEvent] { try changeHistory { try $0.decideUndo(steps: steps) } }

    @discardableResult
    public func redo(branch: Int? = nil) throws -> [RecordedEvent] { try changeHistory { try $0.decideRedo(branch: branch) } }

    @discardableResult
    public func checkout(event: UInt64) throws -> [RecordedEvent] {
        try changeHistory { try $0.decideCheckout(try $0.edit(shownAs: event)) }
    }

    @discardableResult
    public func checkout(at time: Date, text: String) throws -> [RecordedEvent] {
        try changeHistory { try $0.decideCheckout(try Self.head($0, at: time, text: text)) }
    }

    static func head(_ history: some HistoryNavigation, at time: Date, text: String) throws -> Int {
        let millis = (time.timeIntervalSince1970 * 1000).rounded(.down)
        guard millis.isFinite, abs(millis) < 9e15 else { throw DomainError.invalidTime(DomainError.shortened(text)) }
        return try history.head(atTime: Int64(millis), describedAs: text)
    }

    /// The head's version and what the edit there did, after undo, redo or checkout.
    func headSummary() throws -> HeadSummary? {
        if let indexedSummary { return indexedSummary }
        let history = try history()
        guard let head = history.head else { return nil }
        let node = history.nodes[head]
        return (node.version, HistoryTreeText.summary(head, in: history))
    }

    /// Adds a picture file as a layer (its bytes stored with the edit); returns the layer's label.
    public func addImage(imageAt path: String, at: Point? = nil, scale: Double = 1, rotation: Double = 0,
                         opacity: Double = 1, flip: FlipAxis? = nil) throws -> String {
        let (data, image, _) = try workspace.pictureReader.readImage(at: path)
        try edit(.addImage(image, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip), blobs: [data])
        return try state.layers.last?.label ?? ""
    }

    /// Adds a garage image as a layer; returns the layer's label.
    public func addImage(garageImage reference: String, at: Point? = nil, scale: Double = 1, rotation: Double = 0,
                         opacity: Double = 1, flip: FlipAxis? = nil) throws -> String {
        let item = try workspace.garage().find(reference)
        try edit(.addImage(item.image, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip), blobRefs: [item.image.blob])
        return try state.layers.last?.label ?? ""
    }
}
