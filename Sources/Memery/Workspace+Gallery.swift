import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

/// The gallery: names, the trash, favourites, order, and purging for good.
extension Workspace {
    /// The gallery and the version of its stream.
    func loadGallery() throws -> (gallery: Gallery, version: UInt64) {
        var gallery = Gallery()
        let stored = try store.events(in: WellKnownStreams.gallery)
        for event in stored {
            do {
                gallery.evolve(try GalleryEvent.decode(type: event.type, schemaVersion: event.schemaVersion, payload: event.payload))
            } catch let error as EventDecodingError {
                throw StoreError.damaged(sequence: event.sequence, reason: error.description)
            }
        }
        return (Gallery(gallery.all), stored.last?.version ?? 0)
    }

    /// Every creation, trash included, in the order the person keeps them.
    public func gallery() throws -> Gallery {
        try loadGallery().gallery
    }

    /// The gallery entry of a creation by name (trashed ones too).
    public func entry(named name: String) throws -> Gallery.Entry {
        guard let id = try store.owner(ofClaim: Self.nameClaim(name)), let entry = try gallery().entry(id: id) else {
            throw DomainError.noSuchCreation(name)
        }
        return entry
    }

    /// Decides a gallery change and appends it, retrying when another process changed the
    /// gallery meanwhile. Claims are taken and released for the creation `id`.
    @discardableResult
    func changeGallery(_ id: UUID, claim: [String] = [], release: [String] = [],
                       _ decide: (Gallery) throws -> [GalleryEvent]) throws -> Gallery {
        var attempt = 0
        while true {
            attempt += 1
            var (gallery, version) = try loadGallery()
            let events = try decide(gallery)
            guard !events.isEmpty else { return gallery }
            do {
                try store.append([EventStore.StreamWrite(stream: WellKnownStreams.gallery, expectedVersion: version,
                                                         events: try events.map(Self.newEvent))],
                                 claim: claim, release: release, owner: id)
                events.forEach { gallery.evolve($0) }
                return gallery
            } catch StoreError.conflict where attempt < 5 {
                continue
            }
        }
    }

    static func newEvent(_ event: GalleryEvent) throws -> NewEvent {
        NewEvent(type: event.type, schemaVersion: event.schemaVersion, payload: try event.encodedPayload())
    }

    /// Renames a creation; the new name must be free (ignoring case), the old one is released.
    public func rename(_ name: String, to newName: String) throws {
        let entry = try entry(named: name)
        do {
            try changeGallery(entry.id, claim: [Self.nameClaim(newName)], release: [Self.nameClaim(entry.name)]) {
                try $0.decideRename(entry.id, to: newName)
            }
        } catch StoreError.claimTaken {
            throw DomainError.nameTaken(newName)
        }
    }

    /// Moves a creation to the trash; it keeps its name and can be restored.
    public func trash(_ name: String) throws {
        let entry = try entry(named: name)
        try changeGallery(entry.id) { try $0.decideTrash(entry.id) }
    }

    public func restore(_ name: String) throws {
        let entry = try entry(named: name)
        try changeGallery(entry.id) { try $0.decideRestore(entry.id) }
    }

    public func setFavorite(_ name: String, _ favorite: Bool) throws {
        let entry = try entry(named: name)
        try changeGallery(entry.id) { try $0.decideFavorite(entry.id, favorite) }
    }

    /// Puts a creation at a position in the gallery (1 first, as `list` numbers them).
    public func move(_ name: String, to position: Int) throws {
        let entry = try entry(named: name)
        try changeGallery(entry.id) { try $0.decideMove(entry.id, to: position) }
    }

    /// Removes a creation for good: its events, its name and the images only it used.
    public func purge(_ name: String) throws -> PurgeReport {
        let entry = try entry(named: name)
        let (_, version) = try loadGallery()
        return try store.purge(entry.id, alsoAppend: [
            EventStore.StreamWrite(stream: WellKnownStreams.gallery, expectedVersion: version,
                                   events: [try Self.newEvent(.purged(id: entry.id))]),
        ])
    }
}
