public import Foundation
import MemeryCore
import MemeryStore

/// One page of what a store has to push: its events as they travel, whole appends only.
public struct OutgoingPage: Sendable {
    public var events: [SyncEvent]
    /// The last local sequence the page looked at: the next page starts after it.
    public var through: UInt64
    /// True when the log goes on past `through`.
    public var more: Bool
    /// The creations whose histories the page carries.
    public var creations: Set<UUID> = []
}

/// The store's side of a push: its log read as events that travel, whole appends only, and
/// the streams a sync of named creations carries.
extension StoreSync {
    /// Whole appends of the log after local sequence `sequence`, up to about `limit` events,
    /// leaving out purged events and the sequences in `skip` (events that came from the hub).
    /// `only`: the appends that touch these streams alone (`memery sync NAME...`).
    public func outgoing(after sequence: UInt64, limit: Int, skip: (UInt64) -> Bool = { _ in false },
                         only streams: Set<UUID>? = nil) throws -> OutgoingPage {
        try outgoing(after: sequence, limit: limit, skip: skip, only: streams, leaving: nil)
    }

    /// `leaving`: when set, damaged records are passed over and these streams left out
    /// (salvage: what is readable, without the creations damage touched).
    func outgoing(after sequence: UInt64, limit: Int, skip: (UInt64) -> Bool = { _ in false },
                  only streams: Set<UUID>? = nil, leaving: Set<UUID>?) throws -> OutgoingPage {
        var events = [SyncEvent](), append = [SyncEvent]()
        var through = sequence, batchID: UUID?, batch: UInt64 = 0, more = false
        // An append goes whole, or not at all when it touches none of `streams`.
        func finish() {
            if streams.map({ streams in append.contains { streams.contains($0.stream) } }) ?? true { events += append }
            append = []
        }
        let visit: (UInt64, (StoredEvent) throws -> Bool) throws -> Void = { from, body in
            if leaving != nil {
                try store.forEachReadableEvent(from: from, damaged: { _, _, _ in }, body)
            } else {
                try store.forEachEvent(from: from, body)
            }
        }
        try visit(sequence + 1) { stored in
            if stored.batch != batch {
                finish()
                // A page ends between appends only.
                if events.count >= limit { more = true; return false }
                batch = stored.batch
                batchID = nil
            }
            through = stored.sequence
            guard !stored.isPurged, !skip(stored.sequence), !(leaving?.contains(stored.stream) ?? false) else { return true }
            let id = batchID ?? stored.id
            batchID = id
            let payload = String(decoding: stored.payload, as: UTF8.self)
            append.append(SyncEvent(id: stored.id, batch: id, stream: stored.stream, parent: stored.parent, type: stored.type,
                                   schemaVersion: stored.schemaVersion, time: stored.timeMilliseconds, payload: payload,
                                   blobs: EventAdmission.namesPicturesItUses(stored.type) ? EventAdmission.pictures(in: stored.payload) : []))
            return true
        }
        if !more { finish() }
        var page = OutgoingPage(events: events, through: through, more: more)
        page.creations = Set(events.filter { Self.isCreationEvent($0.type) }.map(\.stream))
        return page
    }

    /// True for the events of a creation's own history (not the gallery's, garage's or templates').
    static func isCreationEvent(_ type: String) -> Bool {
        !GalleryEvent.types.contains(type) && !Garage.Event.types.contains(type) && !Templates.Event.types.contains(type)
    }

    /// The streams `memery sync NAME...` carries for these creations: each one's history
    /// and its gallery entry. Names this store does not know are looked for in `events`
    /// (a creation another machine made); `unknown` lists those found nowhere.
    public func streams(named names: [String], seenIn events: [SyncEvent] = []) throws -> (streams: Set<UUID>, unknown: [String]) {
        var streams = Set<UUID>(), unknown = [String]()
        let gallery = try galleryIndex.load()
        for name in names {
            var id = (gallery.entries + gallery.trash).first { $0.name.lowercased() == name.lowercased() }?.id
            if id == nil {
                for event in events where event.type == "GalleryEntryAdded" || event.type == "CreationRenamed" {
                    switch try? GalleryEvent.decode(type: event.type, schemaVersion: event.schemaVersion, payload: Data(event.payload.utf8)) {
                    case .added(let entry) where entry.name.lowercased() == name.lowercased(): id = entry.id
                    case .renamed(let renamed, let new) where new.lowercased() == name.lowercased(): id = renamed
                    default: break
                    }
                }
            }
            if let id { streams.formUnion([id, GalleryIndex.membershipStream(of: id)]) } else { unknown.append(name) }
        }
        return (streams, unknown)
    }

    /// The creations whose purges are among this store's events after `sequence` that the
    /// hub has not had yet: what a sync past the hub's quota sends ahead to free room.
    public func purgesNotPushed(after sequence: UInt64, skip: (UInt64) -> Bool) throws -> [UUID] {
        var creations = [UUID]()
        try store.forEachBorrowedEvent(from: sequence + 1) { stored in
            if stored.stream == WellKnownStreams.gallery, stored.type == "CreationPurged", !skip(stored.sequence),
               case .purged(let id) = try? GalleryEvent.decode(type: stored.type, schemaVersion: stored.schemaVersion, payload: Data(stored.payload)) {
                creations.append(id)
            }
            return true
        }
        return creations
    }
}
