public import Foundation
import MemeryCore
import MemeryStore
import MemeryLocks

/// What a long-lived process (a server, a stream of edits) keeps between requests: the
/// gallery, the garage, the templates and the heads of recently used creations, each with
/// the version of its stream. Before answering, the cache follows the global log from the
/// last sequence it saw, folding what was appended since, by this process or another. A
/// projection it cannot follow (a move of a creation's head, a purge, a gap) is dropped and
/// opens again from its snapshot; a move this process made itself hands over the head it
/// led to (`keepMoved`). Nothing here is the truth: a cold cache only costs a read.
final class LiveProjections: Sendable {
    struct Folded<State: Sendable>: Sendable {
        var state: State
        var version: UInt64
    }

    private struct Cache: Sendable {
        /// The last global sequence folded in (0: nothing yet).
        var seen: UInt64 = 0
        var gallery: Folded<[Gallery.Entry]>?
        var garage: Folded<Garage>?
        var templates: Folded<Templates>?
        var heads: [UUID: CreationHead] = [:]

        mutating func clear(at sequence: UInt64) { self = Cache(seen: sequence) }
        var holdsNothing: Bool { gallery == nil && garage == nil && templates == nil && heads.isEmpty }
    }

    private let cache = Locked(Cache())
    /// How many heads are kept; past it the cache starts afresh.
    static let headLimit = 256
    /// How far behind the cache may fall before reading from snapshots is cheaper than following.
    static let followLimit: UInt64 = 10_000

    // MARK: Reading through the cache

    func gallery(_ store: EventStore, load: () throws -> Folded<[Gallery.Entry]>) throws -> Folded<[Gallery.Entry]> {
        try cached(store, \.gallery, load)
    }

    /// The gallery if this process holds it (brought up to date), without loading it.
    func cachedGallery(_ store: EventStore) throws -> Folded<[Gallery.Entry]>? {
        try cache.withLock { cache in
            try follow(store, &cache)
            return cache.gallery
        }
    }

    func garage(_ store: EventStore, load: () throws -> Folded<Garage>) throws -> Folded<Garage> {
        try cached(store, \.garage, load)
    }

    func templates(_ store: EventStore, load: () throws -> Folded<Templates>) throws -> Folded<Templates> {
        try cached(store, \.templates, load)
    }

    func head(_ id: UUID, _ store: EventStore, load: () throws -> CreationHead) throws -> CreationHead {
        let (found, seen) = try cache.withLock { cache in
            try follow(store, &cache)
            return (cache.heads[id], cache.seen)
        }
        if let found { return found }
        let head = try load()
        keep(seen: seen) { cache in
            if cache.heads.count >= Self.headLimit { cache.heads.removeAll(keepingCapacity: true) }
            cache.heads[id] = head
        }
        return head
    }

    /// Keeps the head a move of this process's own (undo, redo, checkout) led to, whose
    /// append ended at `sequence`: following the log drops a moved head, and opening it
    /// again from the history index (at 2,000 layers, decoding a 624 KiB checkpoint and
    /// renewing the snapshot) would redo what the move has just done. Kept only when
    /// nothing was appended after the move; else the next read opens it as before.
    func keepMoved(_ head: CreationHead, through sequence: UInt64, _ store: EventStore) {
        cache.withLock { cache in
            guard (try? store.lastSequence()) == sequence else { return }
            // A cache that holds nothing (a one-shot command's) need not read the log first.
            if cache.holdsNothing { cache.clear(at: sequence) } else if (try? follow(store, &cache)) == nil { return }
            guard cache.seen == sequence else { return }
            if cache.heads.count >= Self.headLimit { cache.heads.removeAll(keepingCapacity: true) }
            cache.heads[head.state.id] = head
        }
    }

    private func cached<State>(_ store: EventStore, _ path: WritableKeyPath<Cache, Folded<State>?>,
                               _ load: () throws -> Folded<State>) throws -> Folded<State> {
        let (found, seen) = try cache.withLock { cache in
            try follow(store, &cache)
            return (cache[keyPath: path], cache.seen)
        }
        if let found { return found }
        let folded = try load()
        keep(seen: seen) { $0[keyPath: path] = folded }
        return folded
    }

    /// Keeps what was loaded outside the lock (a snapshot and its tail, a gallery of
    /// thousands: one slow load must not hold up every other request) only if the cache has
    /// not followed the log meanwhile. What was loaded is at least as new as `seen`; had the
    /// cache moved past events it was missing, they would never be folded into it. Events
    /// newer than the load but already in it are caught by the version checks in `follow`,
    /// which drop the projection.
    private func keep(seen: UInt64, _ store: (inout Cache) -> Void) {
        cache.withLock { cache in
            if cache.seen == seen { store(&cache) }
        }
    }

    // MARK: Following the log

    /// Folds the global log since the last sequence seen into every cached projection.
    private func follow(_ store: EventStore, _ cache: inout Cache) throws {
        let last = try store.lastSequence()
        guard last != cache.seen else { return }
        // A cache that holds nothing (a new process's first read, a one-shot command's) has
        // nothing to fold: it read every record of a 5,000-event store for nothing, a fifth
        // of a new process's `history`.
        guard last > cache.seen, last - cache.seen <= Self.followLimit, !cache.holdsNothing else { return cache.clear(at: last) }
        var pending = [StoredEvent]()  // one creation's batch, applied whole
        func flush() {
            guard let first = pending.first else { return }
            defer { pending.removeAll(keepingCapacity: true) }
            // Taken out while it is folded: left in the cache as well, its layers would be copied.
            guard var head = cache.heads.removeValue(forKey: first.stream) else { return }
            guard first.version == head.streamVersion + 1, let events = try? pending.map(EventCoding.domainEvent),
                  let envelope = EventCoding.envelope(pending[...]), head.apply(events, envelope) else {
                return  // a head move, a gap or an unreadable event: open it afresh
            }
            cache.heads[first.stream] = head
        }
        // A damaged record is passed over (its creation's own reads fail, naming it); what it
        // may have changed is dropped from the cache, to be read again.
        var damagedStreams = [UUID?]()
        // Read in place: only the events of what the cache holds are copied.
        try store.forEachReadableBorrowedEvent(from: cache.seen + 1, damaged: { _, stream, _ in damagedStreams.append(stream) }) { event in
            if let first = pending.first, first.batch != event.batch || first.stream != event.stream { flush() }
            if GalleryEvent.types.contains(event.type) {
                // Gallery events come from every creation's membership stream: the gallery
                // follows the log, and its version is the last sequence it covers.
                if let gallery = cache.gallery, event.sequence > gallery.version {
                    let stored = event.stored()
                    cache.gallery = (try? EventCoding.galleryEvent(stored)).map {
                        var next = Gallery(gallery.state)
                        next.evolve($0, at: stored.galleryStamp)
                        return Folded(state: next.all, version: event.sequence)
                    }
                }
                if event.type == "CreationPurged" { cache.heads.removeAll() }  // rare: its head must not outlive it
                return event.sequence < last
            }
            switch event.stream {
            case WellKnownStreams.garage:
                if cache.garage != nil { Self.fold(event.stored(), into: &cache.garage, Garage.Event.decode) { $0.evolve($1) } }
            case WellKnownStreams.templates:
                if cache.templates != nil { Self.fold(event.stored(), into: &cache.templates, Templates.Event.decode) { $0.evolve($1) } }
            default:
                if event.isPurged { cache.heads[event.stream] = nil } else if cache.heads[event.stream] != nil { pending.append(event.stored()) }
            }
            return event.sequence < last
        }
        flush()
        for stream in damagedStreams {
            if let stream, cache.heads[stream] != nil { cache.heads[stream] = nil } else { cache.gallery = nil; cache.garage = nil; cache.templates = nil }
        }
        cache.seen = last
    }

    /// Folds one event of a well-known stream into its cached state, or drops the state
    /// when the event does not follow it or cannot be read.
    private static func fold<State, Event>(_ event: StoredEvent, into folded: inout Folded<State>?,
                                           _ decode: (String, Int, Data) throws -> Event, _ evolve: (State, Event) -> State) {
        guard let current = folded else { return }
        guard event.version == current.version + 1, !event.isPurged,
              let decoded = try? decode(event.type, event.schemaVersion, event.payload) else {
            folded = nil
            return
        }
        folded = Folded(state: evolve(current.state, decoded), version: event.version)
    }
}
