import Foundation

/// A filter parameter's value as a creation stores it: by the parameter's string id, in a
/// form that survives a plugin reordering its parameters (a choice is stored by name).
public enum FilterValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case number(Double)
    case integer(Int64)
    case boolean(Bool)
    case color(Color)
    case point(Point)
    case choice(String)

    public var description: String {
        switch self {
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(format: "%g", n)
        case .integer(let n): String(n)
        case .boolean(let b): b ? "true" : "false"
        case .color(let c): c.hex
        case .point(let p): p.description
        case .choice(let c): c
        }
    }

    // Stored as {"number": 2.5}, {"color": "#ff0000"}, ... so the kind is never guessed.
    enum CodingKeys: String, CodingKey { case number, integer, boolean, color, point, choice }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let v = try c.decodeIfPresent(Double.self, forKey: .number) { self = .number(v) }
        else if let v = try c.decodeIfPresent(Int64.self, forKey: .integer) { self = .integer(v) }
        else if let v = try c.decodeIfPresent(Bool.self, forKey: .boolean) { self = .boolean(v) }
        else if let v = try c.decodeIfPresent(Color.self, forKey: .color) { self = .color(v) }
        else if let v = try c.decodeIfPresent(Point.self, forKey: .point) { self = .point(v) }
        else if let v = try c.decodeIfPresent(String.self, forKey: .choice) { self = .choice(v) }
        else { throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a filter value of no known kind")) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .number(let v): try c.encode(v, forKey: .number)
        case .integer(let v): try c.encode(v, forKey: .integer)
        case .boolean(let v): try c.encode(v, forKey: .boolean)
        case .color(let v): try c.encode(v, forKey: .color)
        case .point(let v): try c.encode(v, forKey: .point)
        case .choice(let v): try c.encode(v, forKey: .choice)
        }
    }
}

/// What a filter applies to.
public enum FilterTarget: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The base image alone, under every layer.
    case base
    /// One layer, as it is drawn.
    case layer(String)
    /// The whole picture, after every layer.
    case canvas

    public var description: String {
        switch self {
        case .base: "base"
        case .layer(let id): "layer \(LocalLabel.of(id))"
        case .canvas: "canvas"
        }
    }

    enum CodingKeys: String, CodingKey { case kind, layer }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "base": self = .base
        case "canvas": self = .canvas
        case "layer": self = .layer(try c.decode(String.self, forKey: .layer))
        case let other: throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown filter target \(other)")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .base: try c.encode("base", forKey: .kind)
        case .canvas: try c.encode("canvas", forKey: .kind)
        case .layer(let id): try c.encode("layer", forKey: .kind); try c.encode(id, forKey: .layer)
        }
    }
}

/// A filter in a creation: which plugin filter, on what, with which parameters. Filters on
/// the same target apply in the order they were added.
public struct AppliedFilter: Sendable, Hashable, Codable {
    /// Unique across machines, led by its label: `F1.0c9e...` (`LocalLabel`; "F1" before format 2).
    public var id: String
    /// What people see: "F1".
    public var label: String { LocalLabel.of(id) }
    /// The plugin filter's reverse-DNS id, e.g. "org.memery.sepia".
    public var filter: String
    public var target: FilterTarget
    /// The plugin's parameter version these values were written for.
    public var paramVersion: Int
    public var params: [String: FilterValue]

    public init(id: String, filter: String, target: FilterTarget, paramVersion: Int, params: [String: FilterValue]) {
        self.id = id; self.filter = filter; self.target = target; self.paramVersion = paramVersion; self.params = params
    }
}
