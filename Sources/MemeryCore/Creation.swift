import Foundation

/// The canvas a creation is drawn on.
public struct Canvas: Sendable, Hashable, Codable {
    public var width: Int
    public var height: Int
    /// Shown where nothing covers the canvas (transparent for a photo's canvas).
    public var background: Color

    public init(width: Int, height: Int, background: Color) {
        self.width = width; self.height = height; self.background = background
    }

    public static let sizeRange: ClosedRange<Double> = 1...20_000
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)
}

/// A creation as the events built it: the state `decide` reads and `evolve` writes.
public struct Creation: Sendable, Equatable, Codable {
    public var id: UUID
    public var name: String
    public var canvas: Canvas?
    public var baseImage: BaseImage?
    /// Where the base image sits: it moves with crops, rotations and flips of the canvas.
    public var basePlacement: Transform
    /// Bottom to top.
    public var layers: [Layer]
    /// How many edit events built this state (on its branch of the history).
    public var version: UInt64
    /// Layer labels are never reused along one branch of the history (`LocalLabel`).
    public var nextLayerNumber: Int
    /// Filters on the base, layers and canvas, in the order they were added.
    public var filters: [AppliedFilter] = []
    public var nextFilterNumber = 1

    public init(id: UUID) {
        self.id = id
        name = ""
        canvas = nil
        baseImage = nil
        basePlacement = Transform(x: 0, y: 0)
        layers = []
        version = 0
        nextLayerNumber = 1
    }

    public var exists: Bool { version > 0 }
    public var hasCanvas: Bool { canvas != nil }
    public var width: Int { canvas?.width ?? 0 }
    public var height: Int { canvas?.height ?? 0 }

    /// A layer by its id or its label (`L3`).
    public func layer(_ reference: String) -> Layer? { layerIndex(reference).map { layers[$0] } }
    public func filters(on target: FilterTarget) -> [AppliedFilter] { filters.filter { $0.target == target } }
    /// Where a layer is in the stack, by its id or its label (`L3`). Ids are unique, so the
    /// search runs from the top, where the layers edited most (the newest) are: folding
    /// caption edits over 2,000 layers was mostly this search.
    public func layerIndex(_ reference: String) -> Int? {
        // By index, not `lastIndex(where:)`: that copied each whole layer it passed, and a
        // replay asks this once per edit.
        var index = layers.endIndex
        while index > layers.startIndex {
            index -= 1
            if layers[index].id == reference { return index }
        }
        return layers.indices.first { LocalLabel.is(reference, labelOf: layers[$0].id) }
    }
    public var textLayers: [Layer] { layers.filter { $0.text != nil } }
    public func caption(_ role: TextContent.Role) -> Layer? { layers.first { $0.text?.role == role } }

    /// The topmost layer drawn at a canvas point, as a tap selects it.
    public func topmostLayer(at point: Point) -> Layer? {
        layers.last { $0.opacity > 0 && $0.contains(point) }
    }

    /// Folds edit events into a state.
    public static func replay(id: UUID, _ events: some Sequence<CreationEvent>) -> Creation {
        Creation(id: id).evolve(events)
    }
}
