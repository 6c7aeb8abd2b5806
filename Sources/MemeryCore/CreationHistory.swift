import Foundation

/// A creation's whole history as a tree, and its state at the head.
///
/// Each edit (the events of one append) is a node that names, by id, the edit it was made
/// on (the head then), so an edit after an undo starts a branch, no branch is ever lost, and
/// the tree is the same on any machine the events are copied to. Undo, redo and checkout
/// are `HeadMoved` events naming the edit they go to: the head moves, nothing is deleted.
/// Replaying the stream into this type is the one way to rebuild a creation.
public struct CreationHistory: Sendable, HistoryNavigation {
    public struct Node: Sendable, Equatable {
        /// The edit's id: its first event's, unique across machines.
        public var id: UUID
        /// The stream version of the edit's last event: the edit's number.
        public var version: UInt64
        public var firstVersion: UInt64
        public var parent: Int?
        /// In the order they were made; the last is the one redo follows by default.
        public var children: [Int] = []
        /// Milliseconds since the Unix epoch.
        public var time: Int64
        public var events: [CreationEvent]
        /// The edits `state(at:)` folds to reach this node from the nearest checkpoint above
        /// it (0: the node is a checkpoint).
        var foldsFromCheckpoint: Int
    }

    /// One append in stream order: an edit (a node) or a move of the head.
    public struct Batch: Sendable, Equatable {
        public enum Kind: Sendable, Equatable { case edit(node: Int), move(to: Int, cause: CreationEvent.HeadMoved.Cause) }
        public var firstVersion: UInt64
        public var lastVersion: UInt64
        public var time: Int64
        public var kind: Kind

        public init(firstVersion: UInt64, lastVersion: UInt64, time: Int64, kind: Kind) {
            self.firstVersion = firstVersion; self.lastVersion = lastVersion; self.time = time; self.kind = kind
        }
    }

    public let id: UUID
    public private(set) var nodes: [Node] = []
    public private(set) var batches: [Batch] = []
    /// The node whose state is shown and edited; nil before the first edit.
    public private(set) var head: Int?
    /// The state at the head.
    public private(set) var state: Creation
    /// How many events the stream holds: the version the next append expects.
    public private(set) var streamVersion: UInt64 = 0
    /// The first node at which the creation has a canvas; undo never goes above it.
    public private(set) var genesis: Int?
    /// The latest append applied (they are applied in `HistoryOrder`).
    public private(set) var latest: HistoryOrder?
    /// The creation's name as the gallery knows it (renames live there, not in the history).
    public var name: String? { didSet { if let name { state.name = name } } }

    private var nodeByVersion: [UInt64: Int] = [:]
    private var nodeByID: [UUID: Int] = [:]
    /// States kept along every path, so rebuilding the state at any node folds a bounded
    /// number of edits (`checkpointDue`).
    private var checkpoints: [Int: Creation] = [:]
    static let checkpointSpacing = 64

    /// Whether a node that folds `folds` edits from the checkpoint above it should keep its
    /// state. Keeping one costs a copy of every layer the next time the head's state
    /// changes (it shares the arrays), so the spacing grows with the layers. At 2,000 layers
    /// one every 64 edits meant 78 copies of up to 2,000 layers while replaying 5,000 edits,
    /// a third of `memery history`'s processor time (`perf record`); now 20.
    /// Capped at 512, since a fold can cost as much as the layers (a search by id).
    static func checkpointDue(folds: Int, layers: Int) -> Bool {
        folds >= Swift.max(checkpointSpacing, Swift.min(layers / 8, 512))
    }

    public init(id: UUID) {
        self.id = id
        state = Creation(id: id)
    }

    // MARK: Evolving

    /// Makes room for `count` more appends. A replay knows how many it will apply: growing
    /// the indexes by id and by version as it went (rehashing every id each time) was a tenth
    /// of a new process's `memery history` at 100,000 edits (`perf record`).
    public mutating func reserveCapacity(appends count: Int) {
        nodes.reserveCapacity(nodes.count + count)
        batches.reserveCapacity(batches.count + count)
        nodeByVersion.reserveCapacity(nodeByVersion.count + count)
        nodeByID.reserveCapacity(nodeByID.count + count)
    }

    /// Applies the events of one append made on the head, as one writer makes them (a new
    /// edit id; a move has no parent).
    public mutating func apply(_ events: [CreationEvent], lastVersion: UInt64, time: Int64) {
        let parent = events.contains(where: \.isHeadMove) ? nil : head.map { nodes[$0].id }
        apply(events, EditEnvelope(id: UUID(), parent: parent, lastVersion: lastVersion, time: time))
    }

    /// Applies the events of one append.
    public mutating func apply(_ events: [CreationEvent], _ envelope: EditEnvelope) {
        guard !events.isEmpty else { return }
        let lastVersion = envelope.lastVersion, time = envelope.time
        let firstVersion = lastVersion - UInt64(events.count) + 1
        streamVersion = lastVersion
        latest = Swift.max(latest ?? envelope.order, envelope.order)
        if events.count == 1, case .headMoved(let move) = events[0] {
            // A move to an unknown edit changes nothing: evolve is total.
            guard let target = nodeByID[move.to] else { return }
            batches.append(Batch(firstVersion: firstVersion, lastVersion: lastVersion, time: time,
                                 kind: .move(to: target, cause: move.cause)))
            head = target
            state = state(at: target)
            if let name { state.name = name }
            return
        }
        // The edit it was made on; one whose parent is not here yet hangs under the head.
        let parent = envelope.parent.map { nodeByID[$0] ?? head } ?? nil
        let folds = parent.map { nodes[$0].foldsFromCheckpoint + 1 } ?? 1
        let index = nodes.count
        if parent != head { state = parent.map { state(at: $0) } ?? Creation(id: id) }  // a branch made elsewhere
        nodes.append(Node(id: envelope.id, version: lastVersion, firstVersion: firstVersion, parent: parent, time: time,
                          events: events, foldsFromCheckpoint: folds))
        if let parent { nodes[parent].children.append(index) }
        nodeByVersion[lastVersion] = index
        nodeByID[envelope.id] = index
        batches.append(Batch(firstVersion: firstVersion, lastVersion: lastVersion, time: time, kind: .edit(node: index)))
        state.fold(events)  // in place: a copy of every layer per edit made long histories slow
        if let name { state.name = name }
        head = index
        if Self.checkpointDue(folds: folds, layers: state.layers.count) {
            checkpoints[index] = state
            nodes[index].foldsFromCheckpoint = 0
        }
        if genesis == nil, state.canvas != nil { genesis = index }
    }

    /// The creation as it was at `node`.
    public func state(at node: Int) -> Creation {
        var path = [Int]()
        var current = node
        var base: Creation
        while true {
            if let kept = checkpoints[current] {
                base = kept
                break
            }
            path.append(current)
            guard let parent = nodes[current].parent else {
                base = Creation(id: id)
                break
            }
            current = parent
        }
        for index in path.reversed() {
            base.fold(nodes[index].events)
        }
        return base
    }

    public func node(version: UInt64) -> Int? { nodeByVersion[version] }
    public func node(id: UUID) -> Int? { nodeByID[id] }

    // MARK: Navigating (the rules are `HistoryNavigation`'s)

    public func editID(of node: Int) -> UUID { nodes[node].id }
    public func parent(of node: Int) -> Int? { nodes[node].parent }
    public func childCount(of node: Int) -> Int { nodes[node].children.count }
    public func child(_ number: Int, of node: Int) -> Int { nodes[node].children[number - 1] }

    public func batch(holdingEvent version: UInt64) -> Batch? {
        batches.first { $0.firstVersion <= version && version <= $0.lastVersion }
    }

    public func head(afterBatchStartingAtOrBefore version: UInt64) -> Int? {
        batches.last { $0.firstVersion <= version }?.headAfter
    }

    public func head(afterBatchMadeAtOrBefore time: Int64) -> Int? {
        batches.last { $0.time <= time }?.headAfter
    }

    // MARK: Deciding

    /// Decides an edit against the state at the head.
    public func decide(_ command: CreationCommand) throws -> [CreationEvent] {
        try state.decide(command)
    }
}

/// Where one append of a creation's events sits: the edit's id (its first event's), the
/// edit it was made on, and its place in the stream and in time.
public struct EditEnvelope: Sendable, Equatable {
    public var id: UUID
    /// The edit this one was made on; nil for the first edit and for moves of the head.
    public var parent: UUID?
    /// The stream version of the append's last event.
    public var lastVersion: UInt64
    /// Milliseconds since the Unix epoch.
    public var time: Int64

    public init(id: UUID, parent: UUID?, lastVersion: UInt64, time: Int64) {
        self.id = id; self.parent = parent; self.lastVersion = lastVersion; self.time = time
    }

    /// Where the append sorts in its creation's history on every machine.
    public var order: HistoryOrder { HistoryOrder(time: time, id: id) }
}

/// The order of a creation's appends that every machine agrees on: by time, then by id.
/// One machine appends in this order (each append is stamped later than every append the
/// creation has, `after(_:)`); appends that arrive by sync from another machine take their
/// place in it, so the tree, the numbering and the head come out the same everywhere, and
/// the head is the state of the edit (or undo, redo, checkout) made last.
public struct HistoryOrder: Sendable, Equatable, Comparable, Codable {
    public var time: Int64
    public var id: UUID

    public init(time: Int64, id: UUID) { self.time = time; self.id = id }

    public static func < (a: HistoryOrder, b: HistoryOrder) -> Bool {
        a.time != b.time ? a.time < b.time : a.id.uuidString < b.id.uuidString
    }

    /// The time to stamp an append made now on a creation whose latest append is `latest`:
    /// now, or a millisecond after it when this machine's clock is behind (set back, or
    /// behind the machine that made it).
    public static func stamp(now: Date, after latest: HistoryOrder?) -> Date {
        guard let latest else { return now }
        let millis = (now.timeIntervalSince1970 * 1000).rounded()
        return millis > Double(latest.time) ? now : Date(timeIntervalSince1970: Double(latest.time + 1) / 1000)
    }
}

extension CreationHistory.Batch {
    /// Undo, redo or checkout, rather than an edit.
    public var isMove: Bool {
        if case .move = kind { return true }
        return false
    }

    public var headAfter: Int {
        switch kind {
        case .edit(let node): return node
        case .move(let to, _): return to
        }
    }
}
