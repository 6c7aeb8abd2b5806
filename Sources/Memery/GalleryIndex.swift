import Foundation
import MemeryCore
import MemeryStore

/// The gallery as the store keeps it. Each creation's membership (its name, trash, favourite,
/// place) lives in a stream of its own, derived from the creation's id; the gallery is their
/// projection over the global log; a creation's name is a claim in the store, which keeps
/// names unique without reading the gallery.
struct GalleryIndex: Sendable {
    let store: EventStore
    let projections: LiveProjections
    let memberships: EventSourcedRepository<Membership>

    init(store: EventStore, projections: LiveProjections, turns: WriteTurns) {
        self.store = store
        self.projections = projections
        memberships = EventSourcedRepository(store: store, turns: turns, stream: Self.membershipStream,
                                             evolve: { state, event, stored in state.evolve(event, at: stored.galleryStamp) },
                                             stampsAfterLatest: true)
    }

    /// A creation's membership stream: derived from its id, so alike on every machine.
    static func membershipStream(of creation: UUID) -> UUID {
        EventIdentity.derived(from: creation, purpose: "gallery membership")
    }

    static let nameClaimPrefix = "creation-name:"
    static func nameClaim(_ name: String) -> String { nameClaimPrefix + Gallery.key(name) }

    /// Now, in whole milliseconds: a new entry's rank.
    static var nowMilliseconds: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// The gallery, as of the log's end.
    /// Opens from the gallery's snapshot (which covers the log up to a sequence) and folds
    /// the gallery events after it; the snapshot is renewed when the tail grows past
    /// `snapshotInterval` events. A snapshot is a cache: unreadable, it is ignored. A
    /// long-lived process keeps the result and follows the log (LiveProjections).
    func load() throws -> Gallery {
        var renewal: (() -> Void)?
        let folded = try projections.gallery(store) {
            let (folded, renew) = try read()
            renewal = renew
            return folded
        }
        renewal?()  // a synced write: not while the cache's lock keeps readers waiting
        return Gallery(folded.state)
    }

    /// The gallery from its snapshot and the log after it, and the renewal of the snapshot when due.
    private func read() throws -> (LiveProjections.Folded<[Gallery.Entry]>, renewal: (() -> Void)?) {
        var entries = [Gallery.Entry](), since: UInt64 = 0
        if let snapshot = try store.logSnapshot(WellKnownStreams.gallery), snapshot.format == Gallery.snapshotFormat,
           let cached = try? PayloadJSONDecoder().decode([Gallery.Entry].self, from: snapshot.data) {
            (entries, since) = (cached, snapshot.version)
        }
        var events = [(GalleryEvent, GalleryStamp?)](), seen = since, metDamage = false
        // A damaged record of one creation does not hide the others: the gallery is listed
        // without it (that creation's own reads fail, naming it), and no snapshot is kept.
        // Read in place: most of the log is other streams' events, copied for nothing.
        try store.forEachReadableBorrowedEvent(from: since + 1, damaged: { sequence, _, _ in
            metDamage = true
            seen = max(seen, sequence)
        }) { borrowed in
            if GalleryEvent.types.contains(borrowed.type) {
                let event = borrowed.stored()
                if let decoded = try? EventCoding.galleryEvent(event) { events.append((decoded, event.galleryStamp)) } else { metDamage = true }
            }
            seen = borrowed.sequence
            return true
        }
        entries = Gallery.fold(entries, events)
        let store = store
        let renewal = metDamage || seen - since < CreationRepository.snapshotInterval ? nil : { [entries, seen] in
            guard let data = try? SortedJSONEncoder().encode(entries) else { return }
            try? store.putLogSnapshot(WellKnownStreams.gallery, sequence: seen, format: Gallery.snapshotFormat, data: data)
        }
        return (.init(state: entries, version: seen), renewal)
    }

    /// The gallery folded from the log's first event, ignoring any snapshot (for checking
    /// them); with `passingDamage`, from every readable record (salvage).
    func replay(passingDamage: Bool = false) throws -> Gallery {
        var events = [(GalleryEvent, GalleryStamp?)]()
        let visit: (BorrowedEvent) throws -> Bool = { borrowed in
            guard GalleryEvent.types.contains(borrowed.type) else { return true }
            let event = borrowed.stored()
            if passingDamage {
                if let decoded = try? EventCoding.galleryEvent(event) { events.append((decoded, event.galleryStamp)) }
            } else {
                events.append((try EventCoding.galleryEvent(event), event.galleryStamp))
            }
            return true
        }
        if passingDamage { try store.forEachReadableBorrowedEvent(damaged: { _, _, _ in }, visit) } else { try store.forEachBorrowedEvent(visit) }
        return Gallery(Gallery.fold([], events))
    }

    /// One creation's gallery entry, without reading the whole gallery: from the cache a
    /// long-lived process keeps, else from the creation's own membership stream. A lookup
    /// costs the same with ten thousand creations as with one.
    func entry(id: UUID) throws -> Gallery.Entry? {
        if let cached = try projections.cachedGallery(store) { return cached.state.first { $0.id == id } }
        return try membership(id).entry
    }

    /// The gallery entry of a creation by name (trashed ones too).
    func entry(named name: String) throws -> Gallery.Entry {
        guard let id = try store.owner(ofClaim: Self.nameClaim(name)), let entry = try entry(id: id) else {
            throw DomainError.noSuchCreation(name)
        }
        return entry
    }

    /// A creation's membership folded from its stream.
    func membership(_ id: UUID) throws -> Membership { try memberships.load(id).state }

    /// Decides a change of one creation's membership and appends it to its stream, taking
    /// and releasing name claims for the creation. Returns the events stored (none when
    /// nothing changed).
    @discardableResult
    func change(_ id: UUID, _ command: Membership.Command, claim: [String] = [], release: [String] = []) throws -> [StoredEvent] {
        try memberships.decide(command, for: id, claim: claim, release: release).stored
    }

    /// The first of `base`, `base-2`, `base-3`, ... that no creation uses, asked of the
    /// names' claims rather than of the whole gallery.
    func uniqueName(from base: String) throws -> String {
        try Gallery.uniqueName(from: base) { try store.owner(ofClaim: Self.nameClaim($0)) != nil }
    }

    /// Why a name's claim was taken: by a creation in the gallery, or by one in the trash.
    func nameTaken(_ name: String) -> DomainError {
        (try? entry(named: name))?.trashed == true ? .nameTakenInTrash(name) : .nameTaken(name)
    }
}
