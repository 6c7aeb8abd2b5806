/// What a person asks of a creation. `decide` turns a command into events or refuses it.
public enum CreationCommand: Sendable, Equatable {
    case create(name: String)
    case importBaseImage(BaseImage)
    /// A blank canvas instead of a base image, of at most `maxPixels` (the limit on imports).
    case createCanvas(width: Int, height: Int, background: Color, maxPixels: Int = Canvas.defaultMaxPixels)
    /// The canvas, base image and text boxes of a template.
    case startFromTemplate(Templates.Template)
    /// Adds a text layer; a nil box takes the role's default box.
    case addText(role: TextContent.Role, text: String, box: Box?, style: TextStyleChanges)
    case editText(id: String, text: String?, box: Box?, style: TextStyleChanges)
    /// Sets or replaces the top and bottom captions; nil leaves one alone, "" removes it. The
    /// style changes apply to each caption set.
    case setCaptions(top: String?, bottom: String?, style: TextStyleChanges = TextStyleChanges())
    /// A sticker or photo; `at` is its top-left corner before rotation (default: centred).
    case addImage(BaseImage, at: Point?, scale: Double, rotation: Double, opacity: Double, flip: FlipAxis?)
    case addShape(ShapeContent.Kind, box: Box, fill: Color?, alpha: Double, stroke: Color?, strokeWidth: Double)
    /// A stroke in canvas coordinates: onto drawing layer `layer`, or a new drawing layer.
    /// An eraser stroke with no layer erases on the topmost drawing layer.
    case draw(points: [Point], width: Double, color: Color, erase: Bool, layer: String?)
    case changeLayer(id: String, LayerChanges)
    case removeLayer(id: String)
    case moveLayer(id: String, LayerMove)
    case crop(Box)
    /// Room on each sides in a colour (nil: `Canvas.extensionBackground`), up to `maxPixels`.
    case extendCanvas(CanvasMargins, background: Color?, maxPixels: Int)
    /// Grows or trims the canvas to its content with a margin around it.
    case fitCanvasToContent(margin: Int, background: Color?, maxPixels: Int)
    case rotate(degrees: Double, TurnTarget = .canvas)
    case flip(FlipAxis, TurnTarget = .canvas)
    /// Adds a filter; the parameters were checked against the plugin's declaration by the host.
    case applyFilter(filter: String, target: FilterTarget, paramVersion: Int, params: [String: FilterValue])
    /// Replaces the parameters of the filter at a position (1 first, as `show` lists them).
    case setFilterParams(position: Int, paramVersion: Int, params: [String: FilterValue])
    case removeFilter(position: Int)
}

/// Where a layer goes in the stack.
public enum LayerMove: Sendable, Equatable {
    case up, down, front, back
    /// A position as `memery layer list` numbers them: 1 is the bottom.
    case to(Int)
}

/// Changes to a style: each value given replaces the one in the style.
public struct TextStyleChanges: Sendable, Equatable {
    public var font: String?
    public var maxSize: Double?
    public var fill: Color?
    public var outline: Color?
    public var outlineWidth: Double?
    public var align: TextStyle.Alignment?
    public var uppercase: Bool?

    public init(font: String? = nil, maxSize: Double? = nil, fill: Color? = nil, outline: Color? = nil,
                outlineWidth: Double? = nil, align: TextStyle.Alignment? = nil, uppercase: Bool? = nil) {
        self.font = font; self.maxSize = maxSize; self.fill = fill; self.outline = outline
        self.outlineWidth = outlineWidth; self.align = align; self.uppercase = uppercase
    }

    public var isEmpty: Bool { self == TextStyleChanges() }

    public func applied(to style: TextStyle) -> TextStyle {
        var s = style
        if let font { s.font = font }
        if let maxSize { s.maxSize = maxSize }
        if let fill { s.fill = fill }
        if let outline { s.outline = outline }
        if let outlineWidth { s.outlineWidth = outlineWidth }
        if let align { s.align = align }
        if let uppercase { s.uppercase = uppercase }
        return s
    }
}
