/// Everything a person can ask of Memery, as every front end says it: the CLI's commands
/// build one, `memery apply` reads one per JSON line, `memery serve` takes one as JSON.
/// An edit is what was asked, before files are read or filters looked up; the facade
/// resolves it into a `CreationCommand` (or a gallery, garage or template change) and
/// `decide` checks it. `schemas/edit.schema.json` is its contract; docs/apply.md lists
/// every op with an example.
public enum Edit: Sendable, Equatable {
    // MARK: The gallery, the garage and templates

    /// Starts a creation (its name is the edit's creation).
    case new(NewSource)
    case rename(to: String)
    /// Into the trash; `restore` brings it back.
    case delete
    case restore
    case favorite(Bool)
    /// To a position in the gallery, 1 first.
    case move(to: Int)
    /// Saves the creation's canvas, base image and text boxes as a template.
    case saveTemplate(name: String)
    /// Takes a template off the list; no creation is involved.
    case removeTemplate(name: String)
    /// Imports a picture into the garage; no creation is involved.
    case garageAdd(file: String, name: String?, tags: [String])
    /// The same with a picture's bytes already in hand (downloaded from a link).
    case garageAddPicture(PictureBytes, name: String?, tags: [String])
    /// The same from a link, which the front end downloads first (`resolvingLinks`).
    case garageAddLink(url: String, name: String?, tags: [String])
    case garageRemove(image: String)
    /// Adds and removes tags of a garage image.
    case garageTag(image: String, add: [String], remove: [String])

    // MARK: A creation

    /// Sets or replaces the captions; nil leaves one alone, "" removes it; the style changes
    /// apply to each caption set.
    case captions(top: String?, bottom: String?, style: TextStyleChanges = TextStyleChanges())
    /// A free text box; a nil box is a wide box across the middle.
    case addText(text: String, box: Box?, style: TextStyleChanges)
    /// A sticker or photo; `at` is its top-left corner (default: centred).
    case addImage(ImageSource, at: Point?, scale: Double, rotation: Double, opacity: Double, flip: FlipAxis?)
    case addShape(ShapeContent.Kind, box: Box, fill: Color?, alpha: Double, stroke: Color?, strokeWidth: Double)
    case draw(points: [Point], width: Double, color: Color, erase: Bool, layer: String?)
    /// `KEY=VALUE` changes, the keys `LayerChanges.keys` lists.
    case setLayer(id: String, settings: [Setting])
    case removeLayer(id: String)
    case moveLayer(id: String, LayerMove)
    case crop(Box)
    /// Room on each side; the canvas takes a colour, shown in the room and wherever nothing
    /// covers it (nil: the canvas's own, or white behind a photo).
    case extendCanvas(CanvasMargins, background: Color?)
    /// Grows or trims the canvas to hold the picture and layers (not the captions), with a
    /// margin around them.
    case fitCanvas(margin: Int, background: Color?)
    /// Clockwise; the canvas grows to hold it (a picture or layer turns in place).
    case rotate(degrees: Double, TurnTarget = .canvas)
    case flip(FlipAxis, TurnTarget = .canvas)
    /// A filter on the base image, a layer, or the whole canvas; unnamed parameters keep
    /// their defaults.
    case applyFilter(filter: String, settings: [Setting], layer: String?, canvas: Bool)
    /// New settings for the filter at a position (1 first, as `show` lists them).
    case setFilter(position: Int, settings: [Setting])
    case removeFilter(position: Int)
    case undo(steps: Int)
    /// Along the newest branch, or branch K (1 the oldest).
    case redo(branch: Int?)
    case checkout(CheckoutTarget)

    /// The link this edit takes a picture from, if it does.
    public var link: String? {
        switch self {
        case .new(.link(let url)), .addImage(.link(let url), _, _, _, _, _), .garageAddLink(let url, _, _): url
        default: nil
        }
    }

    /// The edit with its link's picture in hand: `fetch` downloads it (each front end with
    /// its own limits and rules on addresses).
    public func resolvingLinks(_ fetch: (String) async throws -> PictureBytes) async rethrows -> Edit {
        switch self {
        case .new(.link(let url)): .new(.picture(try await fetch(url)))
        case let .addImage(.link(url), at, scale, rotation, opacity, flip):
            .addImage(.picture(try await fetch(url)), at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip)
        case let .garageAddLink(url, name, tags): .garageAddPicture(try await fetch(url), name: name, tags: tags)
        default: self
        }
    }

    /// Where a new creation's picture comes from.
    public enum NewSource: Sendable, Equatable {
        case image(file: String)
        /// A picture's bytes already in hand (downloaded from a link).
        case picture(PictureBytes)
        /// A link, which the front end downloads first (`resolvingLinks`).
        case link(String)
        case canvas(width: Int, height: Int, background: Color)
        case garage(String)
        case template(String)
    }

    /// Where an added picture comes from.
    public enum ImageSource: Sendable, Equatable {
        case file(String)
        /// A picture's bytes already in hand (downloaded from a link).
        case picture(PictureBytes)
        /// A link, which the front end downloads first (`resolvingLinks`).
        case link(String)
        case garage(String)
        /// One to eight emoji, drawn by the engine's emoji font into a picture stored with
        /// the creation, like any sticker.
        case emoji(String)
        /// One of the stickers that ship with Memery, by name (`memery image stickers`).
        case sticker(String)
    }

    public enum CheckoutTarget: Sendable, Equatable {
        /// The state right after this event (its number, as `history` shows it).
        case event(UInt64)
        /// As it was at a time: "10m", "2h", "3d", "1w" ago or an ISO-8601 instant.
        case time(String)
    }

    /// One `KEY=VALUE` setting of a layer or a filter. In JSON an object of settings keeps
    /// its values' types; a setting's text is what the layer or filter parses.
    public struct Setting: Sendable, Hashable, CustomStringConvertible {
        public var key: String
        public var value: Value

        public enum Value: Sendable, Hashable {
            case text(String)
            case number(Double)
            case bool(Bool)
        }

        public init(key: String, value: Value) { self.key = key; self.value = value }

        /// Reads `KEY=VALUE`; the value stays text.
        public init(parsing pair: String) throws {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw DomainError.invalidSetting(DomainError.shortened(pair), reason: "settings are written as KEY=VALUE, e.g. opacity=0.5")
            }
            key = String(pair[..<equals])
            value = .text(String(pair[pair.index(after: equals)...]))
        }

        public var valueText: String {
            switch value {
            case .text(let text): text
            case .number(let number): DomainError.number(number)
            case .bool(let bool): bool ? "true" : "false"
            }
        }

        public var description: String { "\(key)=\(valueText)" }
    }

    /// Whether the edit is about one creation (every op but the garage's).
    public var needsCreation: Bool {
        switch self {
        case .garageAdd, .garageAddPicture, .garageAddLink, .garageRemove, .garageTag, .removeTemplate: false
        default: true
        }
    }

    /// The op's name, as JSON and the CLI spell it.
    public var op: String {
        switch self {
        case .new: "new"
        case .rename: "rename"
        case .delete: "delete"
        case .restore: "restore"
        case .favorite(let on): on ? "favorite" : "unfavorite"
        case .move: "move"
        case .saveTemplate: "template save"
        case .removeTemplate: "template remove"
        case .garageAdd, .garageAddPicture, .garageAddLink: "garage add"
        case .garageRemove: "garage remove"
        case .garageTag: "garage tag"
        case .captions: "text"
        case .addText: "text add"
        case .addImage: "image add"
        case .addShape: "shape add"
        case .draw: "draw"
        case .setLayer: "layer set"
        case .removeLayer: "layer remove"
        case .moveLayer: "layer move"
        case .crop: "crop"
        case .extendCanvas: "canvas extend"
        case .fitCanvas: "canvas fit"
        case .rotate: "rotate"
        case .flip: "flip"
        case .applyFilter: "filter apply"
        case .setFilter: "filter set"
        case .removeFilter: "filter remove"
        case .undo: "undo"
        case .redo: "redo"
        case .checkout: "checkout"
        }
    }

    /// Every op, in the order docs/apply.md lists them.
    public static let ops = [
        "new", "rename", "delete", "restore", "favorite", "unfavorite", "move", "template save", "template remove", "garage add", "garage remove", "garage tag",
        "text", "text add", "image add", "shape add", "draw", "layer set", "layer remove", "layer move",
        "crop", "canvas extend", "canvas fit", "rotate", "flip", "filter apply", "filter set", "filter remove", "undo", "redo", "checkout",
    ]
}

/// An edit and the creation it is for, as one line of `memery apply` or one request of
/// `memery serve` carries them: `{"creation": "drake", "op": "text", "top": "hi"}`.
public struct AddressedEdit: Sendable, Equatable {
    /// The creation's name; nil when the context gives it (or the op needs none).
    public var creation: String?
    public var edit: Edit

    public init(creation: String?, edit: Edit) { self.creation = creation; self.edit = edit }
}
