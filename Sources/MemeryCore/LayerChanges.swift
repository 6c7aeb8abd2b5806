/// Changes to one layer, as `memery layer set NAME ID KEY=VALUE...` gives them. Each key
/// applies to the kinds it names; a key a layer's kind does not have is refused by decide.
public struct LayerChanges: Sendable, Equatable {
    /// A colour, or none at all.
    public enum Paint: Sendable, Equatable { case none, color(Color) }

    // Any layer.
    public var x, y, scale, rotation, opacity: Double?
    public var flipH, flipV: Bool?
    // Text.
    public var text: String?
    public var box: Box?
    public var style = TextStyleChanges()
    // Shapes.
    public var fill: Paint?
    public var alpha: Double?
    public var stroke: Paint?
    public var strokeWidth: Double?
    public var width, height: Double?

    public init() {}

    public var isEmpty: Bool { self == LayerChanges() }
    var touchesText: Bool { text != nil || box != nil || !style.isEmpty }
    var touchesShape: Bool { fill != nil || alpha != nil || stroke != nil || strokeWidth != nil || width != nil || height != nil }
    var touchesTransform: Bool { x != nil || y != nil || scale != nil || rotation != nil || flipH != nil || flipV != nil }

    /// The keys `KEY=VALUE` may use, with what each takes.
    public static let keys: [(key: String, takes: String)] = [
        ("x", "the centre's x in pixels"), ("y", "the centre's y in pixels"), ("scale", "a factor, 0.01 to 100"),
        ("rotation", "degrees, clockwise"), ("opacity", "0 to 1"), ("flip", "none, h, v or hv"),
        ("text", "the words (text layers)"), ("box", "X,Y,W,H (text layers)"), ("font", "a font family (text)"),
        ("size", "the largest size in pixels (text)"), ("color", "#RRGGBB or a CSS name (text)"), ("outline", "a colour (text)"),
        ("outline-width", "pixels (text)"), ("align", "left, center or right (text)"), ("caps", "true or false (text)"),
        ("fill", "a colour or none (shapes)"), ("alpha", "0 to 1 (shapes)"), ("stroke", "a colour or none (shapes)"),
        ("stroke-width", "pixels (shapes)"), ("w", "width in pixels (shapes)"), ("h", "height in pixels (shapes)"),
    ]

    /// Parses `KEY=VALUE` pairs.
    public init(parsing pairs: [String]) throws {
        self.init()
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "=") else { throw DomainError.invalidSetting(pair, reason: "write it as KEY=VALUE") }
            let key = String(pair[..<equals]).lowercased(), value = String(pair[pair.index(after: equals)...])
            func number() throws -> Double {
                guard let n = Double(value), n.isFinite else { throw DomainError.invalidSetting(pair, reason: "\(key) takes a number") }
                return n
            }
            func paint() throws -> Paint { value.lowercased() == "none" ? .none : .color(try Color(parsing: value)) }
            switch key {
            case "x": x = try number()
            case "y": y = try number()
            case "scale": scale = try number()
            case "rotation", "rotate": rotation = try number()
            case "opacity": opacity = try number()
            case "flip":
                switch value.lowercased() {
                case "none": flipH = false; flipV = false
                case "h": flipH = true; flipV = false
                case "v": flipH = false; flipV = true
                case "hv", "vh": flipH = true; flipV = true
                default: throw DomainError.invalidSetting(pair, reason: "flip takes none, h, v or hv")
                }
            case "text": text = value
            case "box": box = try Box(parsing: value)
            case "font": style.font = value
            case "size": style.maxSize = try number()
            case "color", "colour": style.fill = try Color(parsing: value)
            case "outline": style.outline = try Color(parsing: value)
            case "outline-width": style.outlineWidth = try number()
            case "align":
                guard let align = TextStyle.Alignment(rawValue: value.lowercased()) else {
                    throw DomainError.invalidSetting(pair, reason: "align takes left, center or right")
                }
                style.align = align
            case "caps":
                switch value.lowercased() {
                case "true", "yes", "on", "1": style.uppercase = true
                case "false", "no", "off", "0": style.uppercase = false
                default: throw DomainError.invalidSetting(pair, reason: "caps takes true or false")
                }
            case "fill": fill = try paint()
            case "alpha": alpha = try number()
            case "stroke": stroke = try paint()
            case "stroke-width": strokeWidth = try number()
            case "w", "width": width = try number()
            case "h", "height": height = try number()
            default:
                throw DomainError.invalidSetting(pair, reason: "unknown key \(key); keys: " + Self.keys.map(\.key).joined(separator: ", "))
            }
        }
    }
}
