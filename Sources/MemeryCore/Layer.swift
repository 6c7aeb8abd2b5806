import Foundation

/// One layer of a creation: content in its own coordinates ([0, w] x [0, h]) placed on the
/// canvas by a transform, drawn with an opacity.
public struct Layer: Sendable, Hashable {
    /// What people see and type: "L3" (`LocalLabel`).
    public var label: String { LocalLabel.of(id) }
    /// Each kind's fields are boxed: a layer is then 72 bytes, and copying a creation's
    /// layers (a checkpoint, a head kept by two holders) retains one box per layer instead of
    /// copying every field of every text's style. Text boxes its own fields (`TextContent`),
    /// so that an edit of a layer's words changes them in place (`editText`); the other
    /// kinds are boxed by `indirect`, which makes a new box for every change.
    public enum Content: Sendable, Hashable {
        case text(TextContent)
        indirect case image(ImageContent)
        indirect case shape(ShapeContent)
        indirect case drawing(DrawingContent)
    }

    public var id: String
    public var content: Content
    public var transform: Transform
    /// 0 (invisible) to 1 (opaque).
    public var opacity: Double

    public init(id: String, content: Content, transform: Transform, opacity: Double = 1) {
        self.id = id; self.content = content; self.transform = transform; self.opacity = opacity
    }

    public static let opacityRange: ClosedRange<Double> = 0...1

    public var kind: String {
        switch content {
        case .text: "text"
        case .image: "image"
        case .shape: "shape"
        case .drawing: "drawing"
        }
    }

    /// The content's own size in pixels, before scaling.
    public var size: (w: Double, h: Double) {
        switch content {
        case .text(let t): (t.width, t.height)
        case .image(let i): (Double(i.width), Double(i.height))
        case .shape(let s): (s.width, s.height)
        case .drawing(let d): (d.width, d.height)
        }
    }

    public var text: TextContent? {
        if case .text(let t) = content { return t }
        return nil
    }

    /// Changes a text layer's content in place, and says whether this is a text layer (any
    /// other is left alone). Taken out of `content`, the text would share its fields with the
    /// layer, and its first change would copy them: with the box `indirect` made anew, about
    /// 450 of the 1,240 instructions a caption edit's fold took (callgrind).
    @discardableResult
    mutating func editText(_ change: (inout TextContent) -> Void) -> Bool {
        guard case .text(var text) = content else { return false }
        content = .text(.vacated)  // the layer lets go of the fields: `text` holds the only reference
        change(&text)
        content = .text(text)
        return true
    }

    /// The unrotated box this layer covers on the canvas (exact when it is not rotated).
    public var box: Box {
        let (w, h) = size
        let sw = w * transform.scale, sh = h * transform.scale
        return Box(x: transform.x - sw / 2, y: transform.y - sh / 2, w: sw, h: sh)
    }

    /// Whether a canvas point falls on this layer (its shape, for ellipses; near a stroke, for drawings).
    public func contains(_ point: Point) -> Bool {
        let (w, h) = size
        let local = transform.localPoint(point, size: (w, h))
        guard local.x >= 0, local.y >= 0, local.x <= w, local.y <= h else { return false }
        switch content {
        case .shape(let shape) where shape.kind == .ellipse:
            let dx = (local.x - w / 2) / (w / 2), dy = (local.y - h / 2) / (h / 2)
            return dx * dx + dy * dy <= 1
        case .drawing(let drawing):
            return drawing.strokes.contains { !$0.erase && $0.passes(near: local) }
        default:
            return true
        }
    }
}

/// Words in a box: a top or bottom caption, or a free text box.
///
/// Its fields live in one box that copies share until one of them changes (copy on write),
/// so a layer holds one reference and `Layer.editText` changes a caption in place.
public struct TextContent: Sendable, Hashable, Codable {
    public enum Role: String, Sendable, Codable, CaseIterable { case top, bottom, free }
    /// The longest text a layer takes, in characters: a page of words, far past any meme, and
    /// short enough to lay out at once (400,000 characters took minutes). Checked when an edit
    /// is decided; histories replay as they were.
    public static let maxCharacters = 2_000

    /// Changed only through `unique`, when no other copy refers to it: so sharing it
    /// between threads is safe, as a struct's fields would be.
    private final class Fields: @unchecked Sendable {
        var role: Role, text: String, width: Double, height: Double, style: TextStyle
        init(role: Role, text: String, width: Double, height: Double, style: TextStyle) {
            self.role = role; self.text = text; self.width = width; self.height = height; self.style = style
        }
    }
    private var fields: Fields
    private var unique: Fields {
        mutating get {
            if !isKnownUniquelyReferenced(&fields) {
                fields = Fields(role: fields.role, text: fields.text, width: fields.width, height: fields.height, style: fields.style)
            }
            return fields
        }
    }

    public var role: Role { get { fields.role } set { unique.role = newValue } }
    public var text: String { get { fields.text } set { unique.text = newValue } }
    /// The box the text is fitted into, in pixels.
    public var width: Double { get { fields.width } set { unique.width = newValue } }
    public var height: Double { get { fields.height } set { unique.height = newValue } }
    public var style: TextStyle { get { fields.style } set { unique.style = newValue } }

    public init(role: Role, text: String, width: Double, height: Double, style: TextStyle) {
        fields = Fields(role: role, text: text, width: width, height: height, style: style)
    }

    /// What a layer holds while `Layer.editText` changes its text.
    static let vacated = TextContent(role: .free, text: "", width: 0, height: 0, style: TextStyle(maxSize: 0))

    // Equality, hashing and coding as Swift would synthesize them for the five fields.
    public static func == (a: TextContent, b: TextContent) -> Bool {
        a.role == b.role && a.text == b.text && a.width == b.width && a.height == b.height && a.style == b.style
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(role); hasher.combine(text); hasher.combine(width); hasher.combine(height); hasher.combine(style)
    }

    private enum CodingKeys: String, CodingKey { case role, text, width, height, style }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(role: try c.decode(Role.self, forKey: .role), text: try c.decode(String.self, forKey: .text),
                  width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height),
                  style: try c.decode(TextStyle.self, forKey: .style))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(role, forKey: .role)
        try c.encode(text, forKey: .text)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(style, forKey: .style)
    }

    /// The default box for a caption: the full width less a margin, a quarter of the height,
    /// against the top or bottom edge.
    public static func captionBox(_ role: Role, width: Int, height: Int) -> Box {
        let w = Double(width), h = Double(height)
        let marginX = (w * 0.03).rounded(), marginY = (h * 0.02).rounded()
        let boxHeight = (h * 0.25).rounded()
        switch role {
        case .top: return Box(x: marginX, y: marginY, w: w - 2 * marginX, h: boxHeight)
        case .bottom: return Box(x: marginX, y: h - marginY - boxHeight, w: w - 2 * marginX, h: boxHeight)
        case .free: return Box(x: (w * 0.1).rounded(), y: (h * 0.375).rounded(), w: (w * 0.8).rounded(), h: boxHeight)
        }
    }
}

/// A sticker or photo: an image blob drawn at its own size.
public struct ImageContent: Sendable, Hashable, Codable {
    public var image: BaseImage
    public var width: Int { image.width }
    public var height: Int { image.height }
    public init(image: BaseImage) { self.image = image }
}

/// A rectangle or ellipse filling its box.
public struct ShapeContent: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable { case rect, ellipse }
    public var kind: Kind
    public var width: Double
    public var height: Double
    /// nil: no fill.
    public var fill: Color?
    /// The fill's opacity, 0 to 1, on top of the colour's own alpha.
    public var alpha: Double
    /// nil: no outline.
    public var stroke: Color?
    public var strokeWidth: Double

    public init(kind: Kind, width: Double, height: Double, fill: Color? = .white, alpha: Double = 1,
                stroke: Color? = nil, strokeWidth: Double = 0) {
        self.kind = kind; self.width = width; self.height = height; self.fill = fill
        self.alpha = alpha; self.stroke = stroke; self.strokeWidth = strokeWidth
    }

    public static let strokeWidthRange: ClosedRange<Double> = 0...1000
}

/// Freehand strokes; eraser strokes clear what earlier strokes of the same layer drew.
public struct DrawingContent: Sendable, Hashable, Codable {
    public var width: Double
    public var height: Double
    public var strokes: [Stroke]
    public init(width: Double, height: Double, strokes: [Stroke]) {
        self.width = width; self.height = height; self.strokes = strokes
    }
}

public struct Stroke: Sendable, Hashable, Codable {
    /// In the drawing's own coordinates.
    public var points: [Point]
    public var width: Double
    public var color: Color
    public var erase: Bool

    public init(points: [Point], width: Double, color: Color, erase: Bool = false) {
        self.points = points; self.width = width; self.color = color; self.erase = erase
    }

    public static let widthRange: ClosedRange<Double> = 0.5...1000
    public static let maxPoints = 100_000

    func passes(near point: Point) -> Bool {
        let reach = max(width / 2, 2)
        if points.count == 1 { return hypot(points[0].x - point.x, points[0].y - point.y) <= reach }
        for (a, b) in zip(points, points.dropFirst()) {
            let dx = b.x - a.x, dy = b.y - a.y
            let length2 = dx * dx + dy * dy
            let t = length2 == 0 ? 0 : max(0, min(1, ((point.x - a.x) * dx + (point.y - a.y) * dy) / length2))
            if hypot(a.x + t * dx - point.x, a.y + t * dy - point.y) <= reach { return true }
        }
        return false
    }
}

extension Layer: Codable {
    enum CodingKeys: String, CodingKey { case id, kind, transform, opacity, text, image, shape, drawing }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        transform = try c.decode(Transform.self, forKey: .transform)
        opacity = try c.decode(Double.self, forKey: .opacity)
        switch try c.decode(String.self, forKey: .kind) {
        case "text": content = .text(try c.decode(TextContent.self, forKey: .text))
        case "image": content = .image(try c.decode(ImageContent.self, forKey: .image))
        case "shape": content = .shape(try c.decode(ShapeContent.self, forKey: .shape))
        case "drawing": content = .drawing(try c.decode(DrawingContent.self, forKey: .drawing))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown layer kind \(other)")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode(transform, forKey: .transform)
        try c.encode(opacity, forKey: .opacity)
        switch content {
        case .text(let t): try c.encode(t, forKey: .text)
        case .image(let i): try c.encode(i, forKey: .image)
        case .shape(let s): try c.encode(s, forKey: .shape)
        case .drawing(let d): try c.encode(d, forKey: .drawing)
        }
    }
}
