public import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

/// The gallery: names, the trash, favourites, order, and purging for good. Each creation's
/// membership lives in a stream of its own; the gallery is their projection over the log.
extension Workspace {
    /// A creation's membership stream: derived from its id, so alike on every machine.
    static func membershipStream(of creation: UUID) -> UUID {
        EventIdentity.derived(from: creation, purpose: "gallery membership")
    }

    /// The gallery, as of the log's end.
    /// Opens from the gallery's snapshot (which covers the log up to a sequence) and folds
    /// the gallery events after it; the snapshot is renewed when the tail grows past
    /// `snapshotInterval` events. A snapshot is a cache: unreadable, it is ignored. A
    /// long-lived process keeps the result and follows the log (LiveProjections).
    func loadGallery() throws -> Gallery {
        var renewal: (() -> Void)?
        let folded = try projections.gallery(store) {
            let (folded, renew) = try readGallery()
            renewal = renew
            return folded
        }
        renewal?()  // a synced write: not while the cache's lock keeps readers waiting
        return Gallery(folded.state)
    }

    /// The gallery from its snapshot and the log after it, and the renewal of the snapshot when due.
    private func readGallery() throws -> (LiveProjections.Folded<[Gallery.Entry]>, renewal: (() -> Void)?) {
        var entries = [Gallery.Entry](), since: UInt64 = 0
        if let snapshot = try store.logSnapshot(WellKnownStreams.gallery), snapshot.format == Gallery.snapshotFormat,
           let cached = try? PayloadJSONDecoder().decode([Gallery.Entry].self, from: snapshot.data) {
            (entries, since) = (cached, snapshot.version)
        }
        var events = [(GalleryEvent, GalleryStamp?)](), seen = since, metDamage = false
        // A damaged record of one creation does not hide the others: the gallery is listed
        // without it (that creation's own reads fail, naming it), and no snapshot is kept.
        try store.forEachReadableEvent(from: since + 1, damaged: { sequence, _, _ in
            metDamage = true
            seen = max(seen, sequence)
        }) { event in
            if GalleryEvent.types.contains(event.type) {
                if let decoded = try? EventCoding.galleryEvent(event) { events.append((decoded, event.galleryStamp)) } else { metDamage = true }
            }
            seen = event.sequence
            return true
        }
        entries = Gallery.fold(entries, events)
        let renewal = metDamage || seen - since < Self.snapshotInterval ? nil : { [entries, seen] in
            guard let data = try? SortedJSONEncoder().encode(entries) else { return }
            try? self.store.putLogSnapshot(WellKnownStreams.gallery, sequence: seen, format: Gallery.snapshotFormat, data: data)
        }
        return (.init(state: entries, version: seen), renewal)
    }

    /// One creation's gallery entry, without reading the whole gallery: from the cache a
    /// long-lived process keeps, else from the creation's own membership stream. A lookup
    /// costs the same with ten thousand creations as with one.
    func galleryEntry(id: UUID) throws -> Gallery.Entry? {
        if let cached = try projections.cachedGallery(store) { return cached.state.first { $0.id == id } }
        return try loadMembership(id).state.entry
    }

    /// A creation's membership folded from its stream, and the stream's version.
    func loadMembership(_ id: UUID) throws -> (state: Membership, version: UInt64) {
        let stored = try store.events(in: Self.membershipStream(of: id))
        var membership = Membership(creation: id)
        for event in stored { membership = membership.evolve(try EventCoding.galleryEvent(event), at: event.galleryStamp) }
        return (membership, stored.last?.version ?? 0)
    }

    /// The gallery folded from the log's first event, ignoring any snapshot (for checking them).
    func replayGallery() throws -> Gallery {
        var events = [(GalleryEvent, GalleryStamp?)]()
        try store.forEachEvent { event in
            if GalleryEvent.types.contains(event.type) { events.append((try EventCoding.galleryEvent(event), event.galleryStamp)) }
            return true
        }
        return Gallery(Gallery.fold([], events))
    }

    /// Every creation, trash included, in the order the person keeps them.
    public func gallery() throws -> Gallery {
        try loadGallery()
    }

    /// The first of `base`, `base-2`, `base-3`, ... that no creation uses, asked of the
    /// names' claims rather than of the whole gallery.
    func uniqueName(from base: String) throws -> String {
        try Gallery.uniqueName(from: base) { try store.owner(ofClaim: Self.nameClaim($0)) != nil }
    }

    /// The gallery entry of a creation by name (trashed ones too).
    public func entry(named name: String) throws -> Gallery.Entry {
        guard let id = try store.owner(ofClaim: Self.nameClaim(name)), let entry = try galleryEntry(id: id) else {
            throw DomainError.noSuchCreation(name)
        }
        return entry
    }

    /// Decides a change of one creation's membership and appends it to its stream (through
    /// the one decider path), taking and releasing name claims for the creation.
    /// Returns the events stored (none when nothing changed).
    @discardableResult
    func changeMembership(_ id: UUID, _ command: Membership.Command, claim: [String] = [], release: [String] = []) throws -> [StoredEvent] {
        let stream = Self.membershipStream(of: id)
        return try decide(command, on: stream, load: { try loadMembership(id) }, encode: Self.newEvent,
                          claim: claim, release: release, owner: id, now: { try self.membershipNow(stream) }).stored
    }

    /// A change's time: now, or just after the entry's last change if the clock says
    /// otherwise (it went back), so that on every machine the later change of a field wins.
    func membershipNow(_ stream: UUID) throws -> Date {
        // The latest time of any (pulled events are in the hub's order, not time's).
        let last = try store.events(in: stream).map(\.timeMilliseconds).max() ?? 0
        let now = Date()
        // In whole milliseconds, as the store keeps it.
        return Int64((now.timeIntervalSince1970 * 1000).rounded()) > last ? now : Date(timeIntervalSince1970: Double(last + 1) / 1000)
    }

    static func newEvent(_ event: GalleryEvent) throws -> NewEvent { try EventCoding.newEvent(event) }

    static var nowMilliseconds: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Renames a creation; the new name must be free (ignoring case), the old one is released.
    @discardableResult
    public func rename(_ name: String, to newName: String) throws -> [RecordedEvent] {
        let entry = try entry(named: name)
        do {
            return try changeMembership(entry.id, .rename(newName), claim: [Self.nameClaim(newName)], release: [Self.nameClaim(entry.name)]).recorded
        } catch StoreError.claimTaken {
            throw try nameTaken(newName)
        }
    }

    /// Moves a creation to the trash; it keeps its name and can be restored.
    @discardableResult
    public func trash(_ name: String) throws -> [RecordedEvent] {
        let entry = try entry(named: name)
        return try changeMembership(entry.id, .trash).recorded
    }

    @discardableResult
    public func restore(_ name: String) throws -> [RecordedEvent] {
        let entry = try entry(named: name)
        return try changeMembership(entry.id, .restore).recorded
    }

    @discardableResult
    public func setFavorite(_ name: String, _ favorite: Bool) throws -> [RecordedEvent] {
        let entry = try entry(named: name)
        return try changeMembership(entry.id, .favorite(favorite)).recorded
    }

    /// Puts a creation at a position in the gallery (1 first, as `list` numbers them).
    @discardableResult
    public func move(_ name: String, to position: Int) throws -> [RecordedEvent] {
        let entry = try entry(named: name)
        return try writing { _ in
            // The rank between its new neighbours; a move elsewhere meanwhile only shifts it.
            guard let rank = try gallery().rank(moving: entry.id, to: position, now: Self.nowMilliseconds) else { return [] }
            return try changeMembership(entry.id, .place(rank: rank)).recorded
        }
    }

    /// Removes a creation for good: its events, its name and the images only it used.
    public func purge(_ name: String) throws -> PurgeSummary {
        let entry = try entry(named: name)
        // Its history and its membership go; the note of the purge stays in the gallery stream.
        return PurgeSummary(try writing { _ in
            try store.purge([entry.id, Self.membershipStream(of: entry.id)], alsoAppend: [
                EventStore.StreamWrite(stream: WellKnownStreams.gallery, expectedVersion: nil,
                                       events: [try Self.newEvent(.purged(id: entry.id))]),
            ])
        })
    }

    /// The store's global log from `sequence` on, purged events left out, each with the
    /// name of the creation it belongs to (or the well-known stream's name).
    public func log(from sequence: UInt64 = 1) throws -> [LogEntry] {
        var names = [UUID: String]()  // a creation's stream: its name; its membership: "NAME (gallery)"
        for entry in try gallery().all {
            names[entry.id] = entry.name
            names[Self.membershipStream(of: entry.id)] = "\(entry.name) (gallery)"
        }
        var entries = [LogEntry]()
        try store.forEachEvent(from: sequence) { event in
            guard !event.isPurged else { return true }
            let stream = WellKnownStreams.name(of: event.stream) ?? names[event.stream]
            entries.append(LogEntry(sequence: event.sequence, stream: event.stream, streamName: stream, version: event.version,
                                    timeMilliseconds: event.timeMilliseconds, type: event.type, envelope: try event.envelopeJSON()))
            return true
        }
        return entries
    }
}
