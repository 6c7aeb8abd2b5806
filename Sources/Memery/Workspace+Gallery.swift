import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

/// The gallery: names, the trash, favourites, order, and purging for good.
extension Workspace {
    /// The gallery and the version of its stream.
    /// Opens from the gallery's snapshot and folds the events after it, so a command costs
    /// the same with ten thousand creations as with one; the snapshot is renewed when the
    /// tail grows past `snapshotInterval`. A snapshot is a cache: unreadable, it is ignored.
    /// A long-lived process keeps the result and follows the log (LiveProjections).
    func loadGallery() throws -> (gallery: Gallery, version: UInt64) {
        var renewal: (() -> Void)?
        let folded = try projections.gallery(store) {
            let (folded, renew) = try readGallery()
            renewal = renew
            return folded
        }
        renewal?()  // a synced write: not while the cache's lock keeps readers waiting
        return (Gallery(folded.state), folded.version)
    }

    /// The gallery from its snapshot and tail, and the renewal of the snapshot when due.
    private func readGallery() throws -> (LiveProjections.Folded<[Gallery.Entry]>, renewal: (() -> Void)?) {
        var entries = [Gallery.Entry](), since: UInt64 = 0
        if let snapshot = try store.snapshot(WellKnownStreams.gallery), snapshot.format == Gallery.snapshotFormat,
           let cached = try? PayloadJSONDecoder().decode([Gallery.Entry].self, from: snapshot.data) {
            (entries, since) = (cached, snapshot.version)
        }
        let stored = try store.events(in: WellKnownStreams.gallery, fromVersion: since + 1)
        let events = try stored.map(EventCoding.galleryEvent)
        let hadSnapshot = since > 0
        entries = Gallery.fold(entries, events)
        let version = stored.last?.version ?? since
        let renewal = version - since < Self.snapshotInterval ? nil : { [entries] in
            self.writeGallerySnapshot(entries, version: version, changed: hadSnapshot ? events : nil)
        }
        return (.init(state: entries, version: version), renewal)
    }

    /// The gallery's snapshot and its rows: the rows of the creations `changed` touched (all
    /// of them when nil), and none for those purged. A cache: failing to write loses nothing.
    private func writeGallerySnapshot(_ entries: [Gallery.Entry], version: UInt64, changed: [GalleryEvent]?) {
        let encoder = SortedJSONEncoder()
        guard let data = try? encoder.encode(entries) else { return }
        let touched = changed.map { Set($0.map(\.id)) }
        let rows = entries.filter { touched?.contains($0.id) ?? true }.compactMap { entry in
            (try? encoder.encode(entry)).map { (id: entry.id, data: $0) }
        }
        let present = Set(entries.map(\.id))
        let removed = (touched ?? []).filter { !present.contains($0) }
        try? store.putSnapshot(WellKnownStreams.gallery, version: version, format: Gallery.snapshotFormat, data: data,
                               rows: rows, removedRows: Array(removed))
    }

    /// One creation's gallery entry, without reading the whole gallery: from the cache a
    /// long-lived process keeps, else from the snapshot's row for it and the events after
    /// the snapshot. A lookup costs the same with ten thousand creations as with one.
    func galleryEntry(id: UUID) throws -> Gallery.Entry? {
        if let cached = try projections.cachedGallery(store) { return cached.state.first { $0.id == id } }
        guard let point = try store.snapshotRow(WellKnownStreams.gallery, row: id), point.format == Gallery.snapshotFormat,
              point.tail.count < Self.snapshotInterval else {
            return try gallery().entry(id: id)  // no snapshot yet, or a long tail: read it all (and renew the snapshot)
        }
        var entry: Gallery.Entry?
        if let row = point.row {
            guard let decoded = try? PayloadJSONDecoder().decode(Gallery.Entry.self, from: row) else { return try gallery().entry(id: id) }
            entry = decoded
        }
        for event in point.tail { entry = Gallery.evolve(entry, of: id, try EventCoding.galleryEvent(event)) }
        return entry
    }

    /// The gallery folded from its first event, ignoring any snapshot (for checking them).
    func replayGallery() throws -> Gallery {
        let events = try store.events(in: WellKnownStreams.gallery).map {
            try GalleryEvent.decode(type: $0.type, schemaVersion: $0.schemaVersion, payload: $0.payload)
        }
        return Gallery(Gallery.fold([], events))
    }

    /// Every creation, trash included, in the order the person keeps them.
    public func gallery() throws -> Gallery {
        try loadGallery().gallery
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

    /// Decides a gallery change and appends it, retrying when another process changed the
    /// gallery meanwhile. Claims are taken and released for the creation `id`.
    /// Returns the events stored (none when nothing changed).
    @discardableResult
    func changeGallery(_ id: UUID, claim: [String] = [], release: [String] = [],
                       _ decide: (Gallery) throws -> [GalleryEvent]) throws -> [StoredEvent] {
        try writing { _ in
            let (gallery, version) = try loadGallery()
            let events = try decide(gallery)
            guard !events.isEmpty else { return [] }
            return try store.append([EventStore.StreamWrite(stream: WellKnownStreams.gallery, expectedVersion: version,
                                                            events: try events.map(Self.newEvent))],
                                    claim: claim, release: release, owner: id)
        }
    }

    static func newEvent(_ event: GalleryEvent) throws -> NewEvent {
        NewEvent(type: event.type, schemaVersion: event.schemaVersion, payload: try event.encodedPayload())
    }

    /// Renames a creation; the new name must be free (ignoring case), the old one is released.
    @discardableResult
    public func rename(_ name: String, to newName: String) throws -> [StoredEvent] {
        let entry = try entry(named: name)
        do {
            return try changeGallery(entry.id, claim: [Self.nameClaim(newName)], release: [Self.nameClaim(entry.name)]) {
                try $0.decideRename(entry.id, to: newName)
            }
        } catch StoreError.claimTaken {
            throw DomainError.nameTaken(newName)
        }
    }

    /// Moves a creation to the trash; it keeps its name and can be restored.
    @discardableResult
    public func trash(_ name: String) throws -> [StoredEvent] {
        let entry = try entry(named: name)
        return try changeGallery(entry.id) { try $0.decideTrash(entry.id) }
    }

    @discardableResult
    public func restore(_ name: String) throws -> [StoredEvent] {
        let entry = try entry(named: name)
        return try changeGallery(entry.id) { try $0.decideRestore(entry.id) }
    }

    @discardableResult
    public func setFavorite(_ name: String, _ favorite: Bool) throws -> [StoredEvent] {
        let entry = try entry(named: name)
        return try changeGallery(entry.id) { try $0.decideFavorite(entry.id, favorite) }
    }

    /// Puts a creation at a position in the gallery (1 first, as `list` numbers them).
    @discardableResult
    public func move(_ name: String, to position: Int) throws -> [StoredEvent] {
        let entry = try entry(named: name)
        return try changeGallery(entry.id) { try $0.decideMove(entry.id, to: position) }
    }

    /// Removes a creation for good: its events, its name and the images only it used.
    public func purge(_ name: String) throws -> PurgeSummary {
        let entry = try entry(named: name)
        return PurgeSummary(try writing { _ in
            let (_, version) = try loadGallery()
            return try store.purge(entry.id, alsoAppend: [
                EventStore.StreamWrite(stream: WellKnownStreams.gallery, expectedVersion: version,
                                       events: [try Self.newEvent(.purged(id: entry.id))]),
            ])
        })
    }

    /// The store's global log from `sequence` on, purged events left out, each with the
    /// name of the creation it belongs to (or the well-known stream's name).
    public func log(from sequence: UInt64 = 1) throws -> [LogEntry] {
        let gallery = try gallery()
        var entries = [LogEntry]()
        try store.forEachEvent(from: sequence) { event in
            guard !event.isPurged else { return true }
            let stream = WellKnownStreams.name(of: event.stream) ?? gallery.entry(id: event.stream)?.name
            entries.append(LogEntry(sequence: event.sequence, stream: event.stream, streamName: stream, version: event.version,
                                    timeMilliseconds: event.timeMilliseconds, type: event.type, envelope: try event.envelopeJSON()))
            return true
        }
        return entries
    }
}
