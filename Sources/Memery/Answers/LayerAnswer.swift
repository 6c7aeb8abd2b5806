import MemeryCore

/// A layer as answers show it: where it is, how it is placed, and what it holds (text and its
/// style, a picture, a shape, or how many strokes a drawing has). `position` counts from 1,
/// bottom first, as `layer` commands take it.
public struct LayerAnswer: Encodable, Sendable {
    public struct Frame: Encodable, Sendable { public var x, y, w, h: Double }
    public struct Placement: Encodable, Sendable {
        public var x, y, scale, rotation: Double
        public var flipH, flipV: Bool
    }
    public struct Style: Encodable, Sendable {
        public var font: String
        public var maxSize: Double
        public var fill: String
        public var outline: String
        @Nullable public var outlineWidth: Double?
        public var align: String
        public var uppercase: Bool
    }
    public struct Shape: Encodable, Sendable {
        public var kind: String
        public var width, height: Double
        @Nullable public var fill: String?
        public var alpha: Double
        @Nullable public var stroke: String?
        public var strokeWidth: Double
    }

    public var id: String
    public var label: String
    public var kind: String
    public var position: Int
    public var opacity: Double
    public var box: Frame
    public var transform: Placement
    // Text:
    public var role: String?
    public var text: String?
    public var style: Style?
    // A picture:
    public var image: PictureAnswer?
    public var shape: Shape?
    // A drawing: its strokes, and how many of them erase.
    public var strokes: Int?
    public var erasures: Int?

    public init(_ layer: Layer, position: Int) {
        id = layer.id; label = layer.label; kind = layer.kind; self.position = position; opacity = layer.opacity
        box = Frame(x: layer.box.x, y: layer.box.y, w: layer.box.w, h: layer.box.h)
        let t = layer.transform
        transform = Placement(x: t.x, y: t.y, scale: t.scale, rotation: t.rotation, flipH: t.flipH, flipV: t.flipV)
        switch layer.content {
        case .text(let content):
            let s = content.style
            role = content.role.rawValue
            text = content.text
            style = Style(font: s.font, maxSize: s.maxSize, fill: s.fill.hex, outline: s.outline.hex, outlineWidth: s.outlineWidth,
                          align: s.align.rawValue, uppercase: s.uppercase)
        case .image(let content):
            image = PictureAnswer(content.image)
        case .shape(let s):
            shape = Shape(kind: s.kind.rawValue, width: s.width, height: s.height, fill: s.fill?.hex, alpha: s.alpha,
                          stroke: s.stroke?.hex, strokeWidth: s.strokeWidth)
        case .drawing(let drawing):
            strokes = drawing.strokes.count
            erasures = drawing.strokes.filter(\.erase).count
        }
    }
}
