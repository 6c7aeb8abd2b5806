import Foundation

/// Edits as JSON objects: `{"op": "text add", "text": "hi", "box": [10, 10, 200, 60]}`.
/// Boxes and points may also be written as the CLI writes them ("10,10,200,60"), or as
/// objects ({"x":…}); settings as an object or a list of "KEY=VALUE". A field the op does
/// not take is refused, so a typo is never silently ignored. Encoding writes the canonical
/// form: boxes and points as objects, settings as an object (a list when a key repeats).
extension AddressedEdit: Codable {
    public init(from decoder: Decoder) throws {
        let fields = try EditFields(decoder)
        creation = try fields.string("creation")
        edit = try Edit(fields)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: EditFields.Key.self)
        try container.encodeIfPresent(creation, forKey: .init("creation"))
        try edit.encodeFields(into: &container)
    }

    /// Reads one JSON line. Errors say what is wrong with the line in a person's words.
    public static func decode(jsonLine line: String) throws -> AddressedEdit {
        do {
            return try JSONDecoder().decode(AddressedEdit.self, from: Data(line.utf8))
        } catch let error as DomainError {
            throw error
        } catch {
            throw DomainError.invalidEdit("not a JSON object: \(EditFields.describe(error))")
        }
    }
}

extension Edit: Codable {
    /// The fields of a text style, in "text" and "text add".
    static let styleKeys: Set = ["font", "size", "color", "outline", "outline-width", "align", "caps"]

    public init(from decoder: Decoder) throws {
        self = try Edit(try EditFields(decoder))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: EditFields.Key.self)
        try encodeFields(into: &container)
    }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    init(_ f: EditFields) throws {
        let op = f.op
        switch op {
        case "new":
            try f.only(["image", "url", "canvas", "background", "garage", "template"])
            switch (try f.string("image"), try f.string("canvas"), try f.string("garage"), try f.string("template"), try f.string("url")) {
            case let (file?, nil, nil, nil, nil): self = .new(.image(file: file))
            case let (nil, size?, nil, nil, nil):
                let (width, height) = try CanvasSize(parsing: size).pair
                self = .new(.canvas(width: width, height: height, background: try f.color("background") ?? .white))
            case let (nil, nil, garage?, nil, nil): self = .new(.garage(garage))
            case let (nil, nil, nil, template?, nil): self = .new(.template(template))
            case let (nil, nil, nil, nil, url?): self = .new(.link(url))
            default: throw f.problem("needs one of \"image\", \"url\", \"canvas\", \"garage\" or \"template\"")
            }
        case "rename":
            try f.only(["to"])
            self = .rename(to: try f.required(f.string("to"), "to"))
        case "delete": try f.only([]); self = .delete
        case "restore": try f.only([]); self = .restore
        case "favorite": try f.only([]); self = .favorite(true)
        case "unfavorite": try f.only([]); self = .favorite(false)
        case "move":
            try f.only(["to"])
            self = .move(to: try f.required(f.integer("to"), "to"))
        case "template save":
            try f.only(["template"])
            self = .saveTemplate(name: try f.required(f.string("template"), "template"))
        case "template remove":
            try f.only(["template"])
            self = .removeTemplate(name: try f.required(f.string("template"), "template"))
        case "garage add":
            try f.only(["file", "url", "name", "tags"])
            let name = try f.string("name"), tags = try f.strings("tags") ?? []
            switch (try f.string("file"), try f.string("url")) {
            case let (file?, nil): self = .garageAdd(file: file, name: name, tags: tags)
            case let (nil, url?): self = .garageAddLink(url: url, name: name, tags: tags)
            default: throw f.problem("needs one of \"file\" or \"url\"")
            }
        case "garage remove":
            try f.only(["image"])
            self = .garageRemove(image: try f.required(f.string("image"), "image"))
        case "garage tag":
            try f.only(["image", "add", "remove"])
            let add = try f.strings("add") ?? [], remove = try f.strings("remove") ?? []
            guard !add.isEmpty || !remove.isEmpty else { throw f.problem("needs \"add\", \"remove\" or both") }
            self = .garageTag(image: try f.required(f.string("image"), "image"), add: add, remove: remove)
        case "text":
            try f.only(Self.styleKeys.union(["top", "bottom"]))
            let top = try f.string("top"), bottom = try f.string("bottom")
            guard top != nil || bottom != nil else { throw f.problem("needs \"top\", \"bottom\" or both") }
            self = .captions(top: top, bottom: bottom, style: try f.style())
        case "text add":
            try f.only(Self.styleKeys.union(["text", "box"]))
            self = .addText(text: try f.required(f.string("text"), "text"), box: try f.box("box"), style: try f.style())
        case "image add":
            try f.only(["file", "url", "garage", "emoji", "sticker", "at", "scale", "rotate", "opacity", "flip"])
            let source: ImageSource
            switch (try f.string("file"), try f.string("garage"), try f.string("emoji"), try f.string("sticker"), try f.string("url")) {
            case let (file?, nil, nil, nil, nil): source = .file(file)
            case let (nil, garage?, nil, nil, nil): source = .garage(garage)
            case let (nil, nil, emoji?, nil, nil): source = .emoji(emoji)
            case let (nil, nil, nil, sticker?, nil): source = .sticker(sticker)
            case let (nil, nil, nil, nil, url?): source = .link(url)
            default: throw f.problem("needs one of \"file\", \"url\", \"garage\", \"emoji\" or \"sticker\"")
            }
            self = .addImage(source, at: try f.point("at"), scale: try f.number("scale") ?? 1, rotation: try f.number("rotate") ?? 0,
                             opacity: try f.number("opacity") ?? 1, flip: try f.flip("flip"))
        case "shape add":
            try f.only(["rect", "ellipse", "fill", "alpha", "stroke", "stroke-width"])
            let kind: ShapeContent.Kind, box: Box
            switch (try f.box("rect"), try f.box("ellipse")) {
            case let (rect?, nil): (kind, box) = (.rect, rect)
            case let (nil, ellipse?): (kind, box) = (.ellipse, ellipse)
            default: throw f.problem("needs either \"rect\" or \"ellipse\"")
            }
            let fill = try f.string("fill").map { $0.lowercased() == "none" ? nil : try Color(parsing: $0) } ?? .white
            self = .addShape(kind, box: box, fill: fill, alpha: try f.number("alpha") ?? 1, stroke: try f.color("stroke"),
                             strokeWidth: try f.number("stroke-width") ?? 2)
        case "draw":
            try f.only(["points", "color", "width", "erase", "layer"])
            self = .draw(points: try f.required(f.points("points"), "points"), width: try f.number("width") ?? 6,
                         color: try f.color("color") ?? .black, erase: try f.bool("erase") ?? false, layer: try f.string("layer"))
        case "layer set":
            try f.only(["id", "set"])
            self = .setLayer(id: try f.required(f.string("id"), "id"), settings: try f.required(f.settings("set"), "set"))
        case "layer remove":
            try f.only(["id"])
            self = .removeLayer(id: try f.required(f.string("id"), "id"))
        case "layer move":
            try f.only(["id", "to", "move"])
            let id = try f.required(f.string("id"), "id")
            switch (try f.integer("to"), try f.string("move")) {
            case let (to?, nil): self = .moveLayer(id: id, .to(to))
            case (nil, "up"): self = .moveLayer(id: id, .up)
            case (nil, "down"): self = .moveLayer(id: id, .down)
            case (nil, "front"): self = .moveLayer(id: id, .front)
            case (nil, "back"): self = .moveLayer(id: id, .back)
            default: throw f.problem("needs \"to\": N or \"move\": up, down, front or back")
            }
        case "crop":
            try f.only(["box"])
            self = .crop(try f.required(f.box("box"), "box"))
        case "canvas extend":
            try f.only(["left", "top", "right", "bottom", "background"])
            let margins = CanvasMargins(left: try f.integer("left") ?? 0, top: try f.integer("top") ?? 0,
                                        right: try f.integer("right") ?? 0, bottom: try f.integer("bottom") ?? 0)
            let background = try f.color("background")
            guard !margins.isZero || background != nil else {
                throw f.problem("needs room on a side: \"left\", \"top\", \"right\" or \"bottom\" in pixels, e.g. \"bottom\": 600")
            }
            self = .extendCanvas(margins, background: background)
        case "canvas fit":
            try f.only(["margin", "background"])
            self = .fitCanvas(margin: try f.integer("margin") ?? 0, background: try f.color("background"))
        case "rotate":
            try f.only(["degrees", "picture", "layer"])
            self = .rotate(degrees: try f.required(f.number("degrees"), "degrees"), try f.turnTarget())
        case "flip":
            try f.only(["axis", "picture", "layer"])
            self = .flip(try f.required(f.flip("axis"), "axis"), try f.turnTarget())
        case "filter apply":
            try f.only(["filter", "params", "layer", "canvas"])
            self = .applyFilter(filter: try f.required(f.string("filter"), "filter"), settings: try f.settings("params") ?? [],
                                layer: try f.string("layer"), canvas: try f.bool("canvas") ?? false)
        case "filter set":
            try f.only(["position", "params"])
            self = .setFilter(position: try f.required(f.integer("position"), "position"),
                              settings: try f.required(f.settings("params"), "params"))
        case "filter remove":
            try f.only(["position"])
            self = .removeFilter(position: try f.required(f.integer("position"), "position"))
        case "undo":
            try f.only(["steps"])
            self = .undo(steps: try f.integer("steps") ?? 1)
        case "redo":
            try f.only(["branch"])
            self = .redo(branch: try f.integer("branch"))
        case "checkout":
            try f.only(["event", "at"])
            switch (try f.integer("event"), try f.string("at")) {
            case let (event?, nil):
                guard event >= 1 else { throw f.problem("\"event\" must be 1 or more, got \(event)") }
                self = .checkout(.event(UInt64(event)))
            case let (nil, at?): self = .checkout(.time(at))
            default: throw f.problem("needs either \"event\" or \"at\"")
            }
        default:
            throw DomainError.invalidEdit("unknown op \"\(DomainError.shortened(op))\": use one of \(Edit.ops.joined(separator: ", "))")
        }
    }

    func encodeFields(into c: inout KeyedEncodingContainer<EditFields.Key>) throws {
        func put<T: Encodable>(_ key: String, _ value: T?) throws { try c.encodeIfPresent(value, forKey: .init(key)) }
        func settings(_ key: String, _ list: [Setting]) throws {
            guard Set(list.map(\.key)).count == list.count else { return try put(key, list.map(\.description)) }
            var object = c.nestedContainer(keyedBy: EditFields.Key.self, forKey: .init(key))
            for setting in list {
                switch setting.value {
                case .text(let text): try object.encode(text, forKey: .init(setting.key))
                case .number(let number): try object.encode(number, forKey: .init(setting.key))
                case .bool(let bool): try object.encode(bool, forKey: .init(setting.key))
                }
            }
        }
        func putStyle(_ style: TextStyleChanges) throws {
            try put("font", style.font); try put("size", style.maxSize)
            try put("color", style.fill); try put("outline", style.outline); try put("outline-width", style.outlineWidth)
            try put("align", style.align?.rawValue); try put("caps", style.uppercase)
        }
        func turnTarget(_ target: TurnTarget) throws {
            switch target {
            case .canvas: break
            case .picture: try put("picture", true)
            case .layer(let id): try put("layer", id)
            }
        }
        try put("op", op)
        switch self {
        case .new(let source):
            switch source {
            case .image(let file): try put("image", file)
            case .picture(let picture): try put("url", picture.origin?.url ?? picture.name)
            case .link(let url): try put("url", url)
            case let .canvas(width, height, background): try put("canvas", "\(width)x\(height)"); try put("background", background)
            case .garage(let reference): try put("garage", reference)
            case .template(let name): try put("template", name)
            }
        case .rename(let to): try put("to", to)
        case .delete, .restore, .favorite: break
        case .move(let to): try put("to", to)
        case .saveTemplate(let name), .removeTemplate(let name): try put("template", name)
        case let .garageAdd(file, name, tags): try put("file", file); try put("name", name); try put("tags", tags)
        case let .garageAddPicture(picture, name, tags): try put("url", picture.origin?.url ?? picture.name); try put("name", name); try put("tags", tags)
        case let .garageAddLink(url, name, tags): try put("url", url); try put("name", name); try put("tags", tags)
        case .garageRemove(let image): try put("image", image)
        case let .garageTag(image, add, remove): try put("image", image); try put("add", add); try put("remove", remove)
        case let .captions(top, bottom, style): try put("top", top); try put("bottom", bottom); try putStyle(style)
        case let .addText(text, box, style): try put("text", text); try put("box", box); try putStyle(style)
        case let .addImage(source, at, scale, rotation, opacity, flip):
            switch source {
            case .file(let file): try put("file", file)
            case .picture(let picture): try put("url", picture.origin?.url ?? picture.name)
            case .link(let url): try put("url", url)
            case .garage(let reference): try put("garage", reference)
            case .emoji(let emoji): try put("emoji", emoji)
            case .sticker(let name): try put("sticker", name)
            }
            try put("at", at); try put("scale", scale); try put("rotate", rotation); try put("opacity", opacity)
            try put("flip", flip?.rawValue)
        case let .addShape(kind, box, fill, alpha, stroke, strokeWidth):
            try put(kind == .rect ? "rect" : "ellipse", box)
            try put("fill", fill?.hex ?? "none"); try put("alpha", alpha); try put("stroke", stroke); try put("stroke-width", strokeWidth)
        case let .draw(points, width, color, erase, layer):
            try put("points", points); try put("width", width); try put("color", color); try put("erase", erase); try put("layer", layer)
        case let .setLayer(id, list): try put("id", id); try settings("set", list)
        case .removeLayer(let id): try put("id", id)
        case let .moveLayer(id, move):
            try put("id", id)
            switch move {
            case .to(let position): try put("to", position)
            case .up: try put("move", "up")
            case .down: try put("move", "down")
            case .front: try put("move", "front")
            case .back: try put("move", "back")
            }
        case .crop(let box): try put("box", box)
        case let .extendCanvas(margins, background):
            for (key, value) in [("left", margins.left), ("top", margins.top), ("right", margins.right), ("bottom", margins.bottom)] where value != 0 {
                try put(key, value)
            }
            try put("background", background)
        case let .fitCanvas(margin, background):
            try put("margin", margin); try put("background", background)
        case let .rotate(degrees, target): try put("degrees", degrees); try turnTarget(target)
        case let .flip(axis, target): try put("axis", axis.rawValue); try turnTarget(target)
        case let .applyFilter(filter, list, layer, canvas):
            try put("filter", filter); try settings("params", list); try put("layer", layer)
            if canvas { try put("canvas", true) }
        case let .setFilter(position, list): try put("position", position); try settings("params", list)
        case .removeFilter(let position): try put("position", position)
        case .undo(let steps): try put("steps", steps)
        case .redo(let branch): try put("branch", branch)
        case .checkout(.event(let event)): try put("event", event)
        case .checkout(.time(let text)): try put("at", text)
        }
    }
}

/// The fields of one JSON edit, read by name with the op's own error messages.
struct EditFields {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    let container: KeyedDecodingContainer<Key>
    let op: String

    init(_ decoder: Decoder) throws {
        do {
            container = try decoder.container(keyedBy: Key.self)
        } catch {
            throw DomainError.invalidEdit("an edit is a JSON object with an \"op\"")
        }
        guard container.contains(Key("op")) else {
            throw DomainError.invalidEdit("no \"op\": give one of \(Edit.ops.joined(separator: ", "))")
        }
        guard let op = try? container.decode(String.self, forKey: Key("op")) else {
            throw DomainError.invalidEdit("\"op\" must be a string: one of \(Edit.ops.joined(separator: ", "))")
        }
        self.op = op
    }

    func problem(_ text: String) -> DomainError { .invalidEdit("\"\(op)\" \(text)") }

    /// Refuses fields the op does not take.
    func only(_ keys: Set<String>) throws {
        let allowed = keys.union(["op", "creation"])
        if let unknown = container.allKeys.map(\.stringValue).filter({ !allowed.contains($0) }).sorted().first {
            let takes = keys.isEmpty ? "no fields" : keys.sorted().joined(separator: ", ")
            throw DomainError.invalidEdit("\"\(op)\" takes no \"\(DomainError.shortened(unknown))\"; it takes: \(takes)")
        }
    }

    func required<T>(_ value: T?, _ key: String) throws -> T {
        guard let value else { throw problem("needs \"\(key)\"") }
        return value
    }

    private func present(_ key: String) -> Key? {
        let k = Key(key)
        guard container.contains(k), (try? container.decodeNil(forKey: k)) != true else { return nil }
        return k
    }

    private func decode<T: Decodable>(_ type: T.Type, _ key: String, _ what: String) throws -> T? {
        guard let k = present(key) else { return nil }
        guard let value = try? container.decode(type, forKey: k) else { throw problem("needs \"\(key)\" as \(what)") }
        return value
    }

    func string(_ key: String) throws -> String? { try decode(String.self, key, "a string") }

    func strings(_ key: String) throws -> [String]? { try decode([String].self, key, "a list of strings") }

    func bool(_ key: String) throws -> Bool? { try decode(Bool.self, key, "true or false") }

    func number(_ key: String) throws -> Double? {
        guard let value = try decode(Double.self, key, "a number") else { return nil }
        guard value.isFinite else { throw problem("needs \"\(key)\" as a finite number") }
        return value
    }

    func integer(_ key: String) throws -> Int? {
        guard let value = try number(key) else { return nil }
        guard value == value.rounded(), abs(value) < 1e15 else {
            throw problem("needs \"\(key)\" as a whole number, got \(DomainError.number(value))")
        }
        return Int(value)
    }

    func color(_ key: String) throws -> Color? { try string(key).map(Color.init(parsing:)) }

    /// A text style's fields, as "text" and "text add" take them.
    func style() throws -> TextStyleChanges {
        var align: TextStyle.Alignment?
        if let text = try string("align") {
            guard let parsed = TextStyle.Alignment(rawValue: text) else { throw problem("\"align\" must be left, center or right") }
            align = parsed
        }
        return TextStyleChanges(font: try string("font"), maxSize: try number("size"), fill: try color("color"),
                                outline: try color("outline"), outlineWidth: try number("outline-width"),
                                align: align, uppercase: try bool("caps"))
    }

    /// `"picture": true` or `"layer": ID`; neither is the whole canvas.
    func turnTarget() throws -> TurnTarget {
        switch (try bool("picture") ?? false, try string("layer")) {
        case (false, nil): return .canvas
        case (true, nil): return .picture
        case (false, let id?): return .layer(id)
        case (true, _?): throw problem("takes \"picture\" or \"layer\", not both")
        }
    }

    func flip(_ key: String) throws -> FlipAxis? {
        guard let text = try string(key) else { return nil }
        guard let axis = FlipAxis(rawValue: text) else { throw problem("needs \"\(key)\" as h or v") }
        return axis
    }

    /// "X,Y,W,H", [x, y, w, h] or {"x", "y", "w", "h"}.
    func box(_ key: String) throws -> Box? {
        guard let k = present(key) else { return nil }
        if let text = try? container.decode(String.self, forKey: k) { return try Box(parsing: text) }
        if let list = try? container.decode([Double].self, forKey: k), list.count == 4, list.allSatisfy(\.isFinite) {
            return Box(x: list[0], y: list[1], w: list[2], h: list[3])
        }
        if let box = try? container.decode(Box.self, forKey: k), [box.x, box.y, box.w, box.h].allSatisfy(\.isFinite) { return box }
        throw problem("needs \"\(key)\" as \"X,Y,W,H\", [x, y, w, h] or {\"x\", \"y\", \"w\", \"h\"}")
    }

    /// "X,Y", [x, y] or {"x", "y"}.
    func point(_ key: String) throws -> Point? {
        guard let k = present(key) else { return nil }
        if let text = try? container.decode(String.self, forKey: k) { return try Point(parsing: text) }
        if let list = try? container.decode([Double].self, forKey: k), list.count == 2 { return try Self.point(list) }
        if let point = try? container.decode(Point.self, forKey: k) { return try Self.point([point.x, point.y]) }
        throw problem("needs \"\(key)\" as \"X,Y\", [x, y] or {\"x\", \"y\"}")
    }

    private static func point(_ list: [Double]) throws -> Point {
        guard list.count == 2, list.allSatisfy(\.isFinite) else {
            throw DomainError.invalidPoint(list.map { String($0) }.joined(separator: ","))
        }
        return Point(x: list[0], y: list[1])
    }

    /// "X,Y X,Y …", [[x, y], …] or [{"x", "y"}, …].
    func points(_ key: String) throws -> [Point]? {
        guard let k = present(key) else { return nil }
        if let text = try? container.decode(String.self, forKey: k) {
            return try text.split(whereSeparator: \.isWhitespace).map { try Point(parsing: String($0)) }
        }
        if let lists = try? container.decode([[Double]].self, forKey: k), lists.allSatisfy({ $0.count == 2 }) {
            return try lists.map(Self.point)
        }
        if let points = try? container.decode([Point].self, forKey: k) { return try points.map { try Self.point([$0.x, $0.y]) } }
        throw problem("needs \"\(key)\" as \"X,Y X,Y …\" or a list of [x, y]")
    }

    /// {"KEY": value, …} or ["KEY=VALUE", …].
    func settings(_ key: String) throws -> [Edit.Setting]? {
        guard let k = present(key) else { return nil }
        if let pairs = try? container.decode([String].self, forKey: k) {
            // In key order, as an object's are; a key given twice keeps its order (the last wins).
            return try pairs.map(Edit.Setting.init(parsing:)).enumerated()
                .sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element)
        }
        if let object = try? container.nestedContainer(keyedBy: Key.self, forKey: k) {
            return try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map { name in
                if let bool = try? object.decode(Bool.self, forKey: name) { return .init(key: name.stringValue, value: .bool(bool)) }
                if let number = try? object.decode(Double.self, forKey: name) {
                    guard number.isFinite else { throw problem("needs \"\(key)\".\"\(name.stringValue)\" as a finite number") }
                    return .init(key: name.stringValue, value: .number(number))
                }
                if let text = try? object.decode(String.self, forKey: name) { return .init(key: name.stringValue, value: .text(text)) }
                throw problem("needs \"\(key)\".\"\(name.stringValue)\" as a string, number or true/false")
            }
        }
        throw problem("needs \"\(key)\" as an object of settings or a list of \"KEY=VALUE\"")
    }

    /// A decoding error in a person's words.
    static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        switch error {
        case .dataCorrupted(let context): return (context.underlyingError as NSError?)?.localizedDescription ?? context.debugDescription
        case .keyNotFound(let key, _): return "\"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return context.debugDescription
        @unknown default: return String(describing: error)
        }
    }
}

/// A canvas size written `WxH`, e.g. 800x600.
public struct CanvasSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(parsing text: String) throws {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1] else {
            throw DomainError.invalidCanvasSize(DomainError.shortened(text))
        }
        width = w; height = h
    }

    var pair: (Int, Int) { (width, height) }
}
