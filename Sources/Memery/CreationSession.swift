public import Foundation
import MemeryCore
import MemeryStore

/// One creation held open for a series of edits, as `memery apply` makes them. The state
/// at the head stays in memory, so an edit costs one decide and one durable append; the
/// whole history tree is read only when undo, redo or checkout need it. When another
/// process edits the creation meanwhile, the append conflicts and the session reloads.
public final class CreationSession {
    public let workspace: Workspace
    public let name: String
    public private(set) var head: CreationHead
    /// The whole tree, once something needed it.
    private var tree: CreationHistory?
    /// When set, an edit is stored only if the creation is at this stream version when it
    /// is appended (the store checks it in the append's own transaction); otherwise it
    /// throws `StaleVersion` and stores nothing, where it would decide again on a conflict.
    var expectedVersion: UInt64?

    init(workspace: Workspace, name: String) throws {
        self.workspace = workspace
        self.name = name
        head = try workspace.headForEditing(name)
    }

    public var state: Creation { head.state }
    public var id: UUID { head.state.id }

    /// The whole history tree (read once, then kept up to date).
    public func history() throws -> CreationHistory {
        if let tree { return tree }
        let loaded = try workspace.history(of: name)
        tree = loaded
        return loaded
    }

    /// Decides an edit against the state at the head and appends it as one batch; returns
    /// the events once durable (none when nothing changed).
    @discardableResult
    public func edit(_ command: CreationCommand, blobs: [Data] = [], blobRefs: [String] = []) throws -> [RecordedEvent] {
        let command = try FontNames.resolving(command)
        return try retrying { try append(try head.state.decide(command), blobs: blobs, blobRefs: blobRefs) }.recorded
    }

    /// Decides a move of the head (undo, redo, checkout) and appends it. A new session reads
    /// the creation's history index, a few records, rather than the whole tree; the tree is
    /// replayed (and the index built again) when the index is missing or behind the stream.
    @discardableResult
    public func changeHistory(_ decide: (any HistoryNavigation) throws -> [CreationEvent]) throws -> [RecordedEvent] {
        try retrying {
            if tree == nil, let planned = try planFromIndex(decide) {
                return try append(planned.events, movedTo: planned.target, summary: planned.summary)
            }
            return try append(try decide(try history()))
        }.recorded
    }

    /// A move decided on the history index: the events, the state they lead to and what
    /// the edit there did. Nil when the index cannot answer for the head this session holds.
    private func planFromIndex(_ decide: (any HistoryNavigation) throws -> [CreationEvent])
        throws -> (events: [CreationEvent], target: MoveTarget?, summary: HeadSummary?)? {
        do {
            return try workspace.store.readCache(id) { cache in
                guard cache.version == head.streamVersion, let index = try HistoryIndexReader(cache),
                      try index.head.map({ try index.editID(of: $0) }) == head.headEdit else { return nil }
                if let node = index.head { index.knowing(head.state, at: node) }
                let events = try decide(index)
                guard events.count == 1, case .headMoved(let move) = events[0] else {
                    // Nothing to move (a checkout to the head): the head's own summary.
                    let summary = try index.head.map { ($0, try index.node($0).lastVersion) }.map { ($1, try index.summary(of: $0)) }
                    return (events, nil, events.isEmpty ? summary : nil)
                }
                let node = try index.node(id: move.to)
                let target = MoveTarget(node: node, state: try index.state(at: node), version: try index.node(node).lastVersion)
                return (events, target, (target.version, try index.summary(of: node)))
            }
        } catch is HistoryIndex.Unusable {
            // Damaged or inconsistent: dropped, so that the replay that answers builds it again.
            try? workspace.store.updateCache(id) { try $0.removeAll() }
            return nil
        }
    }

    private struct MoveTarget { var node: Int; var state: Creation; var version: UInt64 }
    typealias HeadSummary = (version: UInt64, summary: String)
    /// What the last move decided on the index left at the head (the tree was not read).
    private var indexedSummary: HeadSummary?

    /// Through the workspace's one write path: on a conflict, start again from the store.
    private func retrying(_ attempt: () throws -> [StoredEvent]) throws -> [StoredEvent] {
        try workspace.turns.take { tries in
            if tries > 1 {
                head = try workspace.headForEditing(name)
                tree = nil
            }
            if let expected = expectedVersion, head.streamVersion != expected {
                throw StaleVersion(expected: expected, current: head.streamVersion, name: name)
            }
            return try attempt()
        }
    }

    private func append(_ events: [CreationEvent], blobs: [Data] = [], blobRefs: [String] = [],
                        movedTo planned: MoveTarget? = nil, summary: HeadSummary? = nil) throws -> [StoredEvent] {
        indexedSummary = summary
        guard !events.isEmpty else { return [] }
        // A move of the head is stored with the state it leads to, so that the next reader
        // opens it from that snapshot instead of replaying the whole tree.
        let newEvents = try EventCoding.newEvents(events, madeOn: head.headEdit)
        // Stamped after every append the creation has, so it sorts last on every machine.
        let now = HistoryOrder.stamp(now: Date(), after: head.latest)
        let order = HistoryOrder(time: Int64((now.timeIntervalSince1970 * 1000).rounded()), id: newEvents[0].id)
        var moved: CreationHead?
        var target: Int?
        if events.count == 1, case .headMoved(let move) = events[0] {
            target = planned?.node ?? tree?.node(id: move.to)
            if let planned {
                moved = CreationHead(state: planned.state, streamVersion: head.streamVersion + 1,
                                     headVersion: planned.version, headEdit: move.to, latest: order)
            } else if let tree, let target = tree.node(id: move.to) {
                moved = CreationHead(state: tree.state(at: target), streamVersion: head.streamVersion + 1,
                                     headVersion: tree.nodes[target].version, headEdit: move.to, latest: order)
            }
        }
        let before = head.state
        let write = EventStore.StreamWrite(
            stream: id, expectedVersion: head.streamVersion, events: newEvents,
            snapshot: try moved.map { .init(format: CreationHead.snapshotFormat, data: try $0.encoded()) },
            // The history index is written with a move (which writes a snapshot anyway), not with
            // each edit: a reader catches it up with the edits since, as with a snapshot's tail.
            derive: moved == nil ? nil : HistoryIndex.deriving(events, after: head.streamVersion, moveTarget: target, stateBefore: before) { before })
        let stored = try workspace.store.append([write], blobs: blobs, blobRefs: blobRefs, now: now)
        guard let envelope = EventCoding.envelope(stored[...]) else { return stored }
        tree?.apply(events, envelope)
        if let moved {
            head = moved
        } else if !head.apply(events, envelope) {
            if let tree { head = CreationHead(tree) }  // (a move the tree could not place)
        }
        head.state.name = name
        if moved == nil { workspace.creations.snapshotIfDue(head) }
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
        return state.layers.last?.label ?? ""
    }

    /// Adds a garage image as a layer; returns the layer's label.
    public func addImage(garageImage reference: String, at: Point? = nil, scale: Double = 1, rotation: Double = 0,
                         opacity: Double = 1, flip: FlipAxis? = nil) throws -> String {
        let item = try workspace.garage().find(reference)
        try edit(.addImage(item.image, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip), blobRefs: [item.image.blob])
        return state.layers.last?.label ?? ""
    }
}
