public import Foundation
import MemeryCore
import MemeryRender

/// A creation as `memery list`/`show --json` print it and the editor's API answers it: its
/// name, id, size and how far its history goes; whole (`detail`), also its base picture,
/// background, layers and filters. `favorite` and `trashed` where the gallery is asked.
public struct CreationAnswer: Encodable, Sendable {
    public var name: String
    public var id: String
    public var width: Int
    public var height: Int
    /// In a list, how many layers; whole, the layers themselves (`layerList`).
    public var layers: Int
    public var events: UInt64
    @Nullable public var head: UInt64?
    public var favorite: Bool?
    public var trashed: Bool?
    // Whole:
    public var baseImage: PictureAnswer?
    public var background: String?
    public var layerList: [LayerAnswer]?
    public var filters: [AppliedFilterAnswer]?

    /// A creation in a list.
    public init(summary head: CreationHead) {
        let creation = head.state
        name = creation.name; id = creation.id.uuidString.lowercased(); width = creation.width; height = creation.height
        layers = creation.layers.count; events = head.streamVersion; self.head = head.headVersion
    }

    /// A creation whole; `frames`: how many its base picture has.
    public init(detail head: CreationHead, frames: Int) {
        self.init(summary: head)
        let creation = head.state
        baseImage = creation.baseImage.map { PictureAnswer($0, frames: frames) }
        background = creation.canvas?.background.hex
        layerList = creation.layers.enumerated().map { LayerAnswer($1, position: $0 + 1) }
        filters = creation.filters.enumerated().map { AppliedFilterAnswer($1, position: $0 + 1) }
    }

    /// With the gallery's marks.
    public func marked(_ entry: Gallery.Entry, trashed showTrashed: Bool = true) -> CreationAnswer {
        var marked = self
        marked.favorite = entry.favorite
        if showTrashed { marked.trashed = entry.trashed }
        return marked
    }

    enum Keys: String, CodingKey { case name, id, width, height, layers, events, head, favorite, trashed, baseImage, background, filters }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(name, forKey: .name)
        try container.encode(id, forKey: .id)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        // Whole, `layers` is the list; in a list, the count.
        if let layerList { try container.encode(layerList, forKey: .layers) } else { try container.encode(layers, forKey: .layers) }
        try container.encode(events, forKey: .events)
        try container.encode(_head, forKey: .head)
        try container.encodeIfPresent(favorite, forKey: .favorite)
        try container.encodeIfPresent(trashed, forKey: .trashed)
        try container.encodeIfPresent(baseImage, forKey: .baseImage)
        try container.encodeIfPresent(background, forKey: .background)
        try container.encodeIfPresent(filters, forKey: .filters)
    }
}
