public import Foundation
import MemeryCore
import MemeryStore

/// The gallery: names, the trash, favourites, order, and purging for good (`GalleryIndex`).
extension Workspace {
    /// Every creation, trash included, in the order the person keeps them.
    public func gallery() throws -> Gallery { try galleryIndex.load() }

    /// The gallery entry of a creation by name (trashed ones too).
    public func entry(named name: String) throws -> Gallery.Entry { try galleryIndex.entry(named: name) }

    /// Renames a creation; the new name must be free (ignoring case), the old one is released.
    @discardableResult
    public func rename(_ name: String, to newName: String) throws -> [RecordedEvent] {
        let entry = try entry(named: name)
        do {
            return try galleryIndex.change(entry.id, .rename(newName), claim: [GalleryIndex.nameClaim(newName)],
                                           release: [GalleryIndex.nameClaim(entry.name)]).recorded
        } catch StoreError.claimTaken {
            throw galleryIndex.nameTaken(newName)
        }
    }

    /// Moves a creation to the trash; it keeps its name and can be restored.
    @discardableResult
    public func trash(_ name: String) throws -> [RecordedEvent] { try galleryIndex.change(try entry(named: name).id, .trash).recorded }

    @discardableResult
    public func restore(_ name: String) throws -> [RecordedEvent] { try galleryIndex.change(try entry(named: name).id, .restore).recorded }

    @discardableResult
    public func setFavorite(_ name: String, _ favorite: Bool) throws -> [RecordedEvent] {
        try galleryIndex.change(try entry(named: name).id, .favorite(favorite)).recorded
    }

    /// Puts a creation at a position in the gallery (1 first, as `list` numbers them).
    @discardableResult
    public func move(_ name: String, to position: Int) throws -> [RecordedEvent] {
        let entry = try entry(named: name)
        return try turns.take { _ in
            // The rank between its new neighbours; a move elsewhere meanwhile only shifts it.
            guard let rank = try gallery().rank(moving: entry.id, to: position, now: GalleryIndex.nowMilliseconds) else { return [] }
            return try galleryIndex.change(entry.id, .place(rank: rank)).recorded
        }
    }

    /// Removes a creation for good: its events, its name and the images only it used. Its
    /// history and its membership go; the note of the purge stays in the gallery stream.
    public func purge(_ name: String) throws -> PurgeSummary {
        let entry = try entry(named: name)
        return PurgeSummary(try turns.take { _ in
            try store.purge([entry.id, GalleryIndex.membershipStream(of: entry.id)], alsoAppend: [
                EventStore.StreamWrite(stream: WellKnownStreams.gallery, expectedVersion: nil,
                                       events: [try EventCoding.newEvent(GalleryEvent.purged(id: entry.id))]),
            ])
        })
    }

    /// The store's global log from `sequence` on, purged events left out, each with the
    /// name of the creation it belongs to (or the well-known stream's name).
    public func log(from sequence: UInt64 = 1) throws -> [LogEntry] {
        var entries = [LogEntry]()
        try forEachLogEntry(from: sequence) { entries.append($0) }
        return entries
    }

    /// The log from `sequence` on, as it is read, without holding it all: what `memery log`
    /// prints, at any size of store. The entries are read `perRead` at a time, each
    /// batch in its own read transaction, and handed to `body` outside it: a reader paused
    /// on a pipe (`| less`) must not hold a snapshot that keeps writers from reusing pages.
    /// The log only grows, so the batches join up.
    public func forEachLogEntry(from sequence: UInt64 = 1, perRead: Int = 1024, _ body: (LogEntry) throws -> Void) throws {
        precondition(perRead > 0)
        var names = [UUID: String]()  // a creation's stream: its name; its membership: "NAME (gallery)"
        for entry in try gallery().all {
            names[entry.id] = entry.name
            names[GalleryIndex.membershipStream(of: entry.id)] = "\(entry.name) (gallery)"
        }
        var next = sequence
        var batch = [LogEntry]()
        repeat {
            batch.removeAll(keepingCapacity: true)
            try store.forEachEvent(from: next) { event in
                next = event.sequence + 1
                guard !event.isPurged else { return true }
                let stream = WellKnownStreams.name(of: event.stream) ?? names[event.stream]
                batch.append(LogEntry(sequence: event.sequence, stream: event.stream, streamName: stream, version: event.version,
                                      timeMilliseconds: event.timeMilliseconds, type: event.type, stored: event))
                return batch.count < perRead
            }
            for entry in batch { try body(entry) }
        } while batch.count == perRead
    }
}
