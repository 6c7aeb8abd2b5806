import Foundation
import MemeryCore
import MemeryStore

/// The streams one decider keeps (each creation's gallery membership, the garage, the
/// templates; a creation's own first append): the one path by which a command becomes
/// stored events. It loads the state and its stream's version (from the projection a
/// long-lived process keeps, when it keeps one), decides, appends with that version, and when
/// another process appended meanwhile, loads and decides again (`WriteTurns`). Events are
/// written and read by the decider's own coding (`RecordableEvent`).
///
/// A creation's history is the one stream that loads otherwise, from a snapshot and the tail
/// after it: `CreationRepository`, whose `CreationSession` is the cached instance.
struct EventSourcedRepository<D: Decider>: Sendable where D.Event: RecordableEvent {
    let store: EventStore
    let turns: WriteTurns
    /// The stream an id's state lives in (a membership's is derived from its creation's id).
    let stream: @Sendable (UUID) -> UUID
    /// The state after one stored event: the decider's `evolve`, unless the stream orders by
    /// when each event was made (memberships).
    var evolve: @Sendable (D, D.Event, StoredEvent) -> D = { state, event, _ in state.evolve(event) }
    /// Where a long-lived process keeps the state, if it does (the garage, the templates).
    var projection: (@Sendable (EventStore, () throws -> LiveProjections.Folded<D>) throws -> LiveProjections.Folded<D>)?
    /// Each change stamped after the stream's latest even when the clock went back, so that
    /// on every machine the later change of a field wins (memberships).
    var stampsAfterLatest = false

    /// The state of `id`'s stream and the stream's version (0: no events yet).
    func load(_ id: UUID) throws -> (state: D, version: UInt64) {
        guard let projection else {
            let (state, version, _) = try fold(id)
            return (state, version)
        }
        let folded = try projection(store) {
            let (state, version, _) = try fold(id)
            return .init(state: state, version: version)
        }
        return (folded.state, folded.version)
    }

    /// The stream folded from its first event, and the latest time any event was made.
    private func fold(_ id: UUID) throws -> (state: D, version: UInt64, latest: Int64) {
        var state = D.initialState(of: id)
        let stored = try store.events(in: stream(id))
        for event in stored { state = evolve(state, try EventCoding.decoded(event), event) }
        return (state, stored.last?.version ?? 0, stored.map(\.timeMilliseconds).max() ?? 0)
    }

    /// Decides `command` against `id`'s state and appends what it causes, with the version
    /// decided against; `claim` and `release` name claims held for `id`, which also owns the
    /// pictures stored (a membership's id is its creation's, so a purge takes both). Returns the state
    /// after and the events once durable (none when nothing changed).
    @discardableResult
    func decide(_ command: D.Command, for id: UUID, blobs: [Data] = [], blobRefs: [String] = [],
                claim: [String] = [], release: [String] = []) throws -> (state: D, stored: [StoredEvent]) {
        try turns.take { _ in
            // A stamped stream is read whole for its latest time; any other as `load` keeps it.
            let (state, version, latest) = try stampsAfterLatest ? fold(id) : { let (s, v) = try load(id); return (s, v, 0) }()
            let events = try state.decide(command)
            guard !events.isEmpty else { return (state, []) }
            let write = EventStore.StreamWrite(stream: stream(id), expectedVersion: version, events: try events.map { try EventCoding.newEvent($0) })
            let stored = try store.append([write], blobs: blobs, blobRefs: blobRefs, claim: claim, release: release,
                                          owner: id,  // claims and pictures are the id's: a membership's, its creation's
                                          now: stampsAfterLatest ? Self.time(after: latest) : Date())
            return (state.evolve(events), stored)
        }
    }

    /// A new stream's first events as one write, for an append that starts several streams
    /// in one transaction (a creation and its membership): each must be the stream's first.
    func firstWrite(of id: UUID, _ events: [D.Event]) throws -> EventStore.StreamWrite {
        EventStore.StreamWrite(stream: stream(id), expectedVersion: 0, events: try events.map { try EventCoding.newEvent($0) })
    }

    /// Now, or just after `latest` (milliseconds) if the clock says otherwise.
    static func time(after latest: Int64) -> Date {
        let now = Date()
        // In whole milliseconds, as the store keeps it.
        return Int64((now.timeIntervalSince1970 * 1000).rounded()) > latest ? now : Date(timeIntervalSince1970: Double(latest + 1) / 1000)
    }
}

