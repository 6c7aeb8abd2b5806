import Foundation

/// One creation's place in the gallery — its name, the trash, the favourite mark and its
/// rank — decided and folded from the creation's own membership stream. Each creation
/// decides about itself: making, renaming or trashing one never reads the whole gallery nor
/// waits on another. Names stay unique through the store's claims, taken in the same
/// transaction as the event that names.
public struct Membership: Decider, Equatable {
    public let creation: UUID
    /// Nil before the creation joined the gallery (and after it was purged).
    public private(set) var entry: Gallery.Entry?

    public enum Command: Sendable, Equatable {
        case add(name: String, rank: String)
        case rename(String)
        case trash
        case restore
        case favorite(Bool)
        /// A rank the gallery chose (`Gallery.rank(moving:to:now:)`).
        case place(rank: String)
    }

    public init(creation: UUID, entry: Gallery.Entry? = nil) {
        self.creation = creation
        self.entry = entry
    }

    public static func initialState(of stream: UUID) -> Membership { Membership(creation: stream) }

    public func decide(_ command: Command) throws -> [GalleryEvent] {
        if case let .add(name, rank) = command {
            if let entry { throw DomainError.nameTaken(entry.name) }
            if let reason = Gallery.problem(withName: name) { throw DomainError.invalidName(name, reason: reason) }
            return [.added(.init(id: creation, name: name, rank: rank))]
        }
        guard let entry else { throw DomainError.noSuchCreation(creation.uuidString) }
        switch command {
        case .add: return []
        case .rename(let name):
            if let reason = Gallery.problem(withName: name) { throw DomainError.invalidName(name, reason: reason) }
            return entry.name == name ? [] : [.renamed(id: creation, name: name)]
        case .trash:
            guard !entry.trashed else { throw DomainError.alreadyTrashed(entry.name) }
            return [.trashed(id: creation)]
        case .restore:
            guard entry.trashed else { throw DomainError.notTrashed(entry.name) }
            return [.restored(id: creation)]
        case .favorite(let favorite):
            return entry.favorite == favorite ? [] : [.favorite(id: creation, favorite: favorite)]
        case .place(let rank):
            guard !entry.trashed else { throw DomainError.inTrash(entry.name) }
            return entry.rank == rank ? [] : [.placed(id: creation, rank: rank)]
        }
    }

    public func evolve(_ event: GalleryEvent) -> Membership { evolve(event, at: nil) }

    /// The state after `event`, stamped when folded from the store: a change older than the
    /// one its field shows is ignored (two machines end alike whatever order they got them in).
    public func evolve(_ event: GalleryEvent, at stamp: GalleryStamp?) -> Membership {
        guard event.id == creation else { return self }
        var next = self
        switch event {
        case .added(let added): if entry == nil { next.entry = Gallery.Entry.added(added, at: stamp) }
        case .purged: next.entry = nil
        default: next.entry?.apply(event, at: stamp)
        }
        return next
    }
}
