/// Why `decide` refused a command. Each message names the value and what is allowed.
public enum DomainError: Error, Equatable, CustomStringConvertible {
    case nameTaken(String)
    /// The name belongs to a creation in the trash.
    case nameTakenInTrash(String)
    case invalidName(String, reason: String)
    case outOfRange(field: String, value: Double, range: ClosedRange<Double>)
    case invalidColor(String)
    case invalidBox(String)
    case boxOutsideCanvas(Box, width: Int, height: Int)
    /// A picture added as a layer that would be more than 4 times the canvas: `fits` is the
    /// scale at which it fits in the canvas.
    case pictureTooBig(name: String, width: Int, height: Int, scale: Double, canvasWidth: Int, canvasHeight: Int, fits: Double)
    case emptyText
    case textTooLong(characters: Int, max: Int)
    case noSuchLayer(String)
    case noSuchCreation(String)
    case creationExists
    case creationNotStarted
    case baseImageAlreadySet
    case nothingToChange
    case nothingToUndo
    case nothingToRedo
    case noSuchEvent(UInt64, last: UInt64)
    case notYetCreated(at: String)
    /// An event that `memery history` does not show as an edit: a move of the head.
    case notAnEdit(UInt64, what: String)
    case invalidTime(String)
    case invalidPoint(String)
    case invalidSetting(String, reason: String)
    case wrongLayerKind(id: String, kind: String, wanted: String)
    case cropOutsideCanvas(Box, width: Int, height: Int)
    case noCanvas
    case noDrawingLayer
    case tooManyPoints(Int, max: Int)
    case alreadyTrashed(String)
    case notTrashed(String)
    case inTrash(String)
    case noSuchGarageImage(String)
    case alreadyInGarage(String)
    case garageNameTaken(String)
    case invalidTag(String, reason: String)
    case noSuchTemplate(String)
    case templateNameTaken(String)
    case noBaseImage
    case noFilters
    /// An edit (a JSON line, a request) that cannot be read.
    case invalidEdit(String)
    case invalidCanvasSize(String)
    /// A canvas grown past the pixel limit of a picture, or past a side's limit.
    case canvasTooLarge(width: Int, height: Int, maxPixels: Int, maxSide: Int)
    /// A blank canvas asked for past the pixel limit of a picture.
    case newCanvasTooLarge(width: Int, height: Int, maxPixels: Int)
    /// Fit to content on a canvas with nothing on it but captions.
    case nothingToFit
    /// An emoji sticker asked for with something that is not one to eight emoji.
    case notAnEmoji(String)
    case noSuchSticker(String, known: [String])

    public var description: String {
        switch self {
        case .nameTaken(let name):
            return "a creation named \"\(DomainError.shortened(name))\" already exists"
        case .nameTakenInTrash(let name):
            return "a creation named \"\(DomainError.shortened(name))\" is in the trash: restore it, or purge it to use the name again"
        case let .invalidName(name, reason):
            return "the name \(PrintableText.quoted(DomainError.shortened(name))) cannot be used: \(reason)"
        case let .outOfRange(field, value, range):
            return "\(field) must be between \(Self.number(range.lowerBound)) and \(Self.number(range.upperBound)), got \(Self.number(value))"
        case .invalidColor(let text):
            return "\"\(text)\" is not a colour: use #RRGGBB, #RRGGBBAA or a CSS name, e.g. #ffffff or rebeccapurple"
        case .invalidBox(let text):
            return "\"\(text)\" is not a box: use X,Y,W,H in canvas pixels, e.g. 10,10,200,80"
        case let .boxOutsideCanvas(box, width, height):
            return "box \(box) does not overlap the \(width)x\(height) canvas"
        case let .pictureTooBig(name, width, height, scale, canvasWidth, canvasHeight, fits):
            let at = scale == 1 ? "" : " at scale \(Self.number(scale))"
            return "\(name) (\(width)x\(height)\(at)) would be more than 4 times the \(canvasWidth)x\(canvasHeight) canvas: add it smaller (scale \(Self.number(fits)) fits it in the canvas)"
        case .emptyText:
            return "the text is empty or only spaces: give the words to show"
        case let .textTooLong(characters, max):
            return "the text is \(characters) characters long; a layer takes at most \(max): split it over several text boxes"
        case .noSuchLayer(let id):
            return "no layer \"\(id)\" in this creation"
        case .noSuchCreation(let name):
            return "no creation named \"\(DomainError.shortened(name))\""
        case .creationExists:
            return "this creation already exists"
        case .creationNotStarted:
            return "this creation does not exist yet"
        case .baseImageAlreadySet:
            return "this creation already has a base image"
        case .nothingToChange:
            return "nothing to change: give at least one new value"
        case .nothingToUndo:
            return "nothing to undo: this is the creation as it was first made"
        case .nothingToRedo:
            return "nothing to redo: no edit was undone from here"
        case let .noSuchEvent(number, last):
            return "there is no event \(number): this creation has events 1 to \(last)"
        case .notYetCreated(let when):
            return "the creation did not exist yet at \(when)"
        case let .notAnEdit(number, what):
            return "v\(number) is \(what), not an edit: check out one of the versions `memery history` lists"
        case .invalidPoint(let text):
            return "\"\(text)\" is not a point: use X,Y in canvas pixels, e.g. 120,80"
        case let .invalidSetting(pair, reason):
            return "cannot use \"\(pair)\": \(reason)"
        case let .wrongLayerKind(id, kind, wanted):
            let article = kind.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            return "layer \(LocalLabel.of(id)) is \(article) \(kind) layer, not \(wanted)"
        case let .cropOutsideCanvas(box, width, height):
            return "crop \(box) must lie inside the \(width)x\(height) canvas and be at least 1x1"
        case .noCanvas:
            return "this creation has no canvas yet"
        case .noDrawingLayer:
            return "there is no drawing layer to erase on: draw first, or give --layer ID"
        case let .tooManyPoints(count, max):
            return "a stroke may have 1 to \(max) points, got \(count)"
        case .alreadyTrashed(let name):
            return "\"\(name)\" is already in the trash"
        case .notTrashed(let name):
            return "\"\(name)\" is not in the trash"
        case .inTrash(let name):
            return "\"\(name)\" is in the trash"
        case .noSuchGarageImage(let reference):
            return "no image \"\(DomainError.shortened(reference))\" in the garage"
        case .alreadyInGarage(let name):
            return "this image is already in the garage as \"\(name)\""
        case .garageNameTaken(let name):
            return "the garage already has an image named \"\(name)\""
        case let .invalidTag(tag, reason):
            return "the tag \(PrintableText.quoted(DomainError.shortened(tag))) cannot be used: \(reason)"
        case .noSuchTemplate(let name):
            return "no template named \"\(DomainError.shortened(name))\""
        case .templateNameTaken(let name):
            return "a template named \"\(name)\" already exists"
        case .noBaseImage:
            return "this creation has no base image (it started on a blank canvas): filter the canvas instead"
        case .noFilters:
            return "this creation has no filters"
        case .invalidEdit(let reason):
            return reason
        case .invalidCanvasSize(let text):
            return "\"\(text)\" is not a canvas size: use WxH, e.g. 800x600"
        case let .canvasTooLarge(width, height, maxPixels, maxSide):
            let megapixels = (Double(width) * Double(height) / 100_000).rounded() / 10
            return "the canvas would be \(width)x\(height) (\(Self.number(megapixels)) megapixels), over the limit of \(maxPixels / 1_000_000) megapixels and \(maxSide) pixels a side: add less room"
        case .notAnEmoji(let text):
            return "\"\(text)\" is not an emoji: give one to eight emoji, e.g. 😂 or 👍🏽, and nothing else"
        case let .noSuchSticker(name, known) where known.isEmpty:
            return "no bundled sticker \"\(DomainError.shortened(name))\": this memery was installed without its stickers (Memery_Memery.resources beside the binary)"
        case let .noSuchSticker(name, known):
            return "no bundled sticker \"\(DomainError.shortened(name))\": there are \(known.joined(separator: ", "))"
        case let .newCanvasTooLarge(width, height, maxPixels):
            let megapixels = (Double(width) * Double(height) / 100_000).rounded() / 10
            return "a \(width)x\(height) canvas is \(Self.number(megapixels)) megapixels, over the limit of \(maxPixels / 1_000_000) megapixels a picture may have: choose a smaller size"
        case .nothingToFit:
            return "nothing to fit the canvas to: it holds no picture or layers besides its captions"
        case .invalidTime(let text):
            return "\"\(text)\" is not a time: use 10m, 2h, 3d (ago), or a date and time like 2026-11-21T10:00:00Z, 2026-11-21 10:00 (local time) or 2026-11-21"
        }
    }

    /// A value a person gave, short enough to echo in a message.
    public static func shortened(_ text: String, limit: Int = 60) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "… (\(text.count) characters)"
    }

    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
