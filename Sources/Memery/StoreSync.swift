public import Foundation
import MemeryCore
import MemeryStore

/// The store's side of sync, handed out by `Workspace.sync`: its log read as events that
/// travel (StoreSync+Outgoing.swift), and events from another store written as their
/// writers made them (StoreSync+Incoming.swift). The hub client drives it; nothing here
/// speaks HTTP.
public struct StoreSync: Sendable {
    let store: EventStore
    let turns: WriteTurns
    let galleryIndex: GalleryIndex
    let creations: CreationRepository

    /// The bytes of a picture the store holds (checked against its hash), or nil.
    public func picture(_ hash: String) throws -> Data? { try store.blob(hash) }

    /// True when the store holds the picture.
    public func hasPicture(_ hash: String) throws -> Bool { try store.blob(hash) != nil }

    /// True when the store holds events of creation `id`'s own history.
    public func hasHistory(_ id: UUID) throws -> Bool { try store.version(of: id) > 0 }

    /// The name of the creation a stream belongs to (its history or its gallery entry), when
    /// this store knows it: what sync says about events it set aside.
    public func creationName(ofStream stream: UUID) throws -> String? {
        if let entry = try galleryIndex.entry(id: stream) { return entry.name }
        return try galleryIndex.load().entries.first { GalleryIndex.membershipStream(of: $0.id) == stream }?.name
    }
}
