public import Foundation
import MemeryCore
import MemeryRender

/// A creation in a list, as `memery list --json` prints it and the editor's API answers
/// it: its name, id, size, how many layers and how far its history goes.
public struct CreationSummary: Encodable, Sendable, GalleryMarked {
    public var name: String
    public var id: String
    public var width: Int
    public var height: Int
    public var layers: Int
    public var events: UInt64
    @Nullable public var head: UInt64?
    public var favorite: Bool?
    public var trashed: Bool?

    public init(_ head: CreationHead) {
        let creation = head.state
        name = creation.name; id = creation.id.uuidString.lowercased(); width = creation.width; height = creation.height
        layers = creation.layers.count; events = head.streamVersion; self.head = head.headVersion
    }
}

/// A creation whole, as `memery show --json` prints it and the editor's API answers it: the
/// summary's fields with the layers themselves, the base picture, background and filters.
public struct CreationDetail: Encodable, Sendable, GalleryMarked {
    public var name: String
    public var id: String
    public var width: Int
    public var height: Int
    public var layers: [LayerAnswer]
    public var events: UInt64
    @Nullable public var head: UInt64?
    public var favorite: Bool?
    public var trashed: Bool?
    public var baseImage: PictureAnswer?
    public var background: String?
    public var filters: [AppliedFilterAnswer]
    /// Whether an undo and a redo would move the head (the editor greys its buttons); where asked.
    public var canUndo: Bool?
    public var canRedo: Bool?

    /// `frames`: how many its base picture has.
    public init(_ head: CreationHead, frames: Int) {
        let creation = head.state
        name = creation.name; id = creation.id.uuidString.lowercased(); width = creation.width; height = creation.height
        events = head.streamVersion; self.head = head.headVersion
        baseImage = creation.baseImage.map { PictureAnswer($0, frames: frames) }
        background = creation.canvas?.background.hex
        layers = creation.layers.enumerated().map { LayerAnswer($1, position: $0 + 1) }
        filters = creation.filters.enumerated().map { AppliedFilterAnswer($1, position: $0 + 1) }
    }

    /// With what undo and redo would do.
    public func moving(_ moves: HeadMoves) -> Self {
        var moving = self
        (moving.canUndo, moving.canRedo) = (moves.undo, moves.redo)
        return moving
    }
}

/// An answer that carries the gallery's marks where the gallery is asked.
public protocol GalleryMarked {
    var favorite: Bool? { get set }
    var trashed: Bool? { get set }
}

extension GalleryMarked {
    /// With the gallery's marks; `trashed` only where a list may hold trashed creations.
    public func marked(_ entry: Gallery.Entry, trashed showTrashed: Bool = true) -> Self {
        var marked = self
        marked.favorite = entry.favorite
        if showTrashed { marked.trashed = entry.trashed }
        return marked
    }
}
