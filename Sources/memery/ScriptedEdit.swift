import Foundation
import Memery
import MemeryCore
import MemeryStore

/// One line of `memery apply`: a JSON object whose "op" names a command and whose other
/// fields are that command's options, e.g.
///
///     {"op":"text","top":"hello","bottom":"world"}
///     {"op":"text add","text":"hi","box":"10,10,200,60","color":"#ffd400","caps":false}
///     {"op":"image add","file":"cat.png","at":"10,20","scale":0.5}    (or "garage":"cat")
///     {"op":"shape add","rect":"0,0,50,50","fill":"none","stroke":"#000000"}
///     {"op":"draw","points":"1,1 20,20","width":4,"erase":false,"layer":"L3"}
///     {"op":"layer set","id":"L1","set":{"x":40,"opacity":0.5}}       (or "set":["x=40"])
///     {"op":"layer remove","id":"L1"}   {"op":"layer move","id":"L1","to":2}  ("move":"up|down|front|back")
///     {"op":"crop","box":"0,0,100,100"}  {"op":"rotate","degrees":90}  {"op":"flip","axis":"h"}
///     {"op":"undo","steps":2}  {"op":"redo","branch":1}  {"op":"checkout","event":5}  ({"at":"10m"})
struct ScriptedEdit {
    static let ops = ["text", "text add", "image add", "shape add", "draw", "layer set", "layer remove", "layer move",
                      "crop", "rotate", "flip", "undo", "redo", "checkout"]

    let fields: [String: Any]
    let op: String

    init(line: String) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)), let fields = object as? [String: Any] else {
            throw InputError("not a JSON object")
        }
        guard let op = fields["op"] as? String else { throw InputError("no \"op\": give one of \(Self.ops.joined(separator: ", "))") }
        guard Self.ops.contains(op) else { throw InputError("unknown op \"\(op)\": use one of \(Self.ops.joined(separator: ", "))") }
        self.fields = fields
        self.op = op
    }

    // MARK: Fields

    private func string(_ key: String) throws -> String? {
        guard let value = fields[key] else { return nil }
        guard let text = value as? String else { throw InputError("\"\(key)\" must be a string") }
        return text
    }

    private func number(_ key: String) throws -> Double? {
        guard let value = fields[key] else { return nil }
        guard let number = Self.jsonNumber(value) else { throw InputError("\"\(key)\" must be a number") }
        return number.doubleValue
    }

    private func integer(_ key: String) throws -> Int? {
        guard let n = try number(key) else { return nil }
        guard n == n.rounded(), abs(n) < 1e15 else { throw InputError("\"\(key)\" must be a whole number") }
        return Int(n)
    }

    private func bool(_ key: String) throws -> Bool? {
        guard let value = fields[key] else { return nil }
        guard let number = value as? NSNumber, Self.isBoolean(number) else { throw InputError("\"\(key)\" must be true or false") }
        return number.boolValue
    }

    private func required<T>(_ value: T?, _ key: String) throws -> T {
        guard let value else { throw InputError("\"\(op)\" needs \"\(key)\"") }
        return value
    }

    private func color(_ key: String) throws -> Color? { try string(key).map(Color.init(hex:)) }

    /// Refuses fields the op does not take, so a typo is not silently ignored.
    private func only(_ keys: Set<String>) throws {
        let unknown = Set(fields.keys).subtracting(keys).subtracting(["op"])
        if let key = unknown.sorted().first { throw InputError("\"\(op)\" takes no \"\(key)\"; it takes: \(keys.sorted().joined(separator: ", "))") }
    }

    /// JSON's true and false arrive as NSNumbers too; their type code is "c" (a C char).
    static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

    static func jsonNumber(_ value: Any) -> NSNumber? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        return number
    }

    // MARK: Performing

    /// Performs the edit; returns the events stored and the layer it made or drew on, if any.
    func perform(on session: CreationSession) throws -> (events: [StoredEvent], layer: String?) {
        switch op {
        case "text":
            try only(["top", "bottom"])
            return (try session.edit(.setCaptions(top: try string("top"), bottom: try string("bottom"))), nil)
        case "text add":
            try only(["text", "box", "font", "size", "color", "outline", "outline-width", "align", "caps"])
            var align: TextStyle.Alignment?
            if let a = try string("align") {
                guard let parsed = TextStyle.Alignment(rawValue: a) else { throw InputError("\"align\" must be left, center or right") }
                align = parsed
            }
            let style = TextStyleChanges(font: try string("font"), maxSize: try number("size"), fill: try color("color"),
                                         outline: try color("outline"), outlineWidth: try number("outline-width"),
                                         align: align, uppercase: try bool("caps"))
            let events = try session.edit(.addText(role: .free, text: try required(string("text"), "text"),
                                                   box: try string("box").map(Box.init(parsing:)), style: style))
            return (events, events.isEmpty ? nil : session.state.layers.last?.id)
        case "image add":
            try only(["file", "garage", "at", "scale", "rotate", "opacity", "flip"])
            let at = try string("at").map(Point.init(parsing:))
            var flip: FlipAxis?
            if let f = try string("flip") {
                guard let parsed = FlipAxis(rawValue: f) else { throw InputError("\"flip\" must be h or v") }
                flip = parsed
            }
            let scale = try number("scale") ?? 1, rotation = try number("rotate") ?? 0, opacity = try number("opacity") ?? 1
            let before = session.head.streamVersion
            let id: String
            switch (try string("file"), try string("garage")) {
            case let (file?, nil): id = try session.addImage(imageAt: file, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip)
            case let (nil, garage?): id = try session.addImage(garageImage: garage, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip)
            default: throw InputError("\"image add\" needs either \"file\" or \"garage\"")
            }
            return (try session.workspace.store.events(in: session.id, fromVersion: before + 1), id)
        case "shape add":
            try only(["rect", "ellipse", "fill", "alpha", "stroke", "stroke-width"])
            let (kind, box): (ShapeContent.Kind, String)
            switch (try string("rect"), try string("ellipse")) {
            case let (rect?, nil): (kind, box) = (.rect, rect)
            case let (nil, ellipse?): (kind, box) = (.ellipse, ellipse)
            default: throw InputError("\"shape add\" needs either \"rect\" or \"ellipse\"")
            }
            let fillText = try string("fill") ?? "#ffffff"
            let fill = fillText.lowercased() == "none" ? nil : try Color(hex: fillText)
            let events = try session.edit(.addShape(kind, box: try Box(parsing: box), fill: fill, alpha: try number("alpha") ?? 1,
                                                    stroke: try color("stroke"), strokeWidth: try number("stroke-width") ?? 2))
            return (events, session.state.layers.last?.id)
        case "draw":
            try only(["points", "color", "width", "erase", "layer"])
            let points = try required(string("points"), "points").split(whereSeparator: \.isWhitespace).map { try Point(parsing: String($0)) }
            let erase = try bool("erase") ?? false, layer = try string("layer")
            let events = try session.edit(.draw(points: points, width: try number("width") ?? 6, color: try color("color") ?? .black,
                                                erase: erase, layer: layer))
            let state = session.state
            return (events, layer ?? (erase ? state.layers.last { $0.kind == "drawing" }?.id : state.layers.last?.id))
        case "layer set":
            try only(["id", "set"])
            let pairs: [String]
            switch fields["set"] {
            case let list as [String]: pairs = list
            case let object as [String: Any]:
                pairs = object.keys.sorted().map { key in
                    let value = object[key]!
                    if let number = value as? NSNumber {
                        return "\(key)=\(Self.isBoolean(number) ? (number.boolValue ? "true" : "false") : number.stringValue)"
                    }
                    return "\(key)=\(value)"
                }
            default: throw InputError("\"layer set\" needs \"set\": an object of KEY: VALUE or a list of \"KEY=VALUE\"")
            }
            let id = try required(string("id"), "id")
            return (try session.edit(.changeLayer(id: id, try LayerChanges(parsing: pairs))), id)
        case "layer remove":
            try only(["id"])
            return (try session.edit(.removeLayer(id: try required(string("id"), "id"))), nil)
        case "layer move":
            try only(["id", "to", "move"])
            let id = try required(string("id"), "id")
            let move: LayerMove
            switch (try integer("to"), try string("move")) {
            case let (to?, nil): move = .to(to)
            case (nil, "up"): move = .up
            case (nil, "down"): move = .down
            case (nil, "front"): move = .front
            case (nil, "back"): move = .back
            default: throw InputError("\"layer move\" needs \"to\": N or \"move\": up, down, front or back")
            }
            return (try session.edit(.moveLayer(id: id, move)), id)
        case "crop":
            try only(["box"])
            return (try session.edit(.crop(try Box(parsing: try required(string("box"), "box")))), nil)
        case "rotate":
            try only(["degrees"])
            return (try session.edit(.rotate(degrees: try required(number("degrees"), "degrees"))), nil)
        case "flip":
            try only(["axis"])
            guard let axis = FlipAxis(rawValue: try required(string("axis"), "axis")) else { throw InputError("\"axis\" must be h or v") }
            return (try session.edit(.flip(axis)), nil)
        case "undo":
            try only(["steps"])
            return (try session.undo(steps: try integer("steps") ?? 1), nil)
        case "redo":
            try only(["branch"])
            return (try session.redo(branch: try integer("branch")), nil)
        default:  // checkout
            try only(["event", "at"])
            switch (try integer("event"), try string("at")) {
            case let (event?, nil):
                guard event >= 1 else { throw InputError("\"event\" must be 1 or more") }
                return (try session.checkout(event: UInt64(event)), nil)
            case let (nil, at?): return (try session.checkout(at: try PointInTime.parse(at, now: Date()), text: at), nil)
            default: throw InputError("\"checkout\" needs either \"event\" or \"at\"")
            }
        }
    }
}
