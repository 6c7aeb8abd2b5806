import Foundation

/// Everything that can happen to a creation. Each case is one event type with a JSON payload
/// described by `schemas/<Type>.v<version>.schema.json`.
public enum CreationEvent: Sendable, Equatable {
    case created(CreationCreated)
    case baseImageImported(BaseImageImported)
    case textLayerAdded(TextLayerAdded)
    case textLayerEdited(TextLayerEdited)
    case textLayerRemoved(TextLayerRemoved)
    /// Undo, redo and checkout: the head of the history moves; nothing is deleted.
    case headMoved(HeadMoved)

    public struct CreationCreated: Sendable, Equatable, Codable {
        public var id: UUID
        public var name: String
        public init(id: UUID, name: String) { self.id = id; self.name = name }
    }

    public struct BaseImageImported: Sendable, Equatable, Codable {
        public var image: BaseImage
        public init(image: BaseImage) { self.image = image }
    }

    public struct TextLayerAdded: Sendable, Equatable, Codable {
        public var layer: TextLayer
        public init(layer: TextLayer) { self.layer = layer }
    }

    /// Only the fields given change.
    public struct TextLayerEdited: Sendable, Equatable, Codable {
        public var id: String
        public var text: String?
        public var box: Box?
        public var style: TextStyle?
        public init(id: String, text: String? = nil, box: Box? = nil, style: TextStyle? = nil) {
            self.id = id; self.text = text; self.box = box; self.style = style
        }
    }

    public struct TextLayerRemoved: Sendable, Equatable, Codable {
        public var id: String
        public init(id: String) { self.id = id }
    }

    public struct HeadMoved: Sendable, Equatable, Codable {
        public enum Cause: String, Sendable, Codable { case undo, redo, checkout }
        /// The edit now at the head, by the stream version of its last event.
        public var to: UInt64
        public var cause: Cause
        public init(to: UInt64, cause: Cause) { self.to = to; self.cause = cause }
    }

    /// True for the events that move the history's head rather than edit the creation.
    public var isHeadMove: Bool {
        if case .headMoved = self { return true }
        return false
    }

    /// The type name stored in the envelope.
    public var type: String {
        switch self {
        case .created: "CreationCreated"
        case .baseImageImported: "BaseImageImported"
        case .textLayerAdded: "TextLayerAdded"
        case .textLayerEdited: "TextLayerEdited"
        case .textLayerRemoved: "TextLayerRemoved"
        case .headMoved: "HeadMoved"
        }
    }

    /// The payload version this build writes, per type.
    public static let currentVersions: [String: Int] = [
        "CreationCreated": 1, "BaseImageImported": 1, "TextLayerAdded": 1,
        "TextLayerEdited": 1, "TextLayerRemoved": 1, "HeadMoved": 1,
    ]

    public var schemaVersion: Int { Self.currentVersions[type] ?? 1 }

    /// The payload as JSON with sorted keys, so equal events give equal bytes.
    public func encodedPayload() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        switch self {
        case .created(let p): return try encoder.encode(p)
        case .baseImageImported(let p): return try encoder.encode(p)
        case .textLayerAdded(let p): return try encoder.encode(p)
        case .textLayerEdited(let p): return try encoder.encode(p)
        case .textLayerRemoved(let p): return try encoder.encode(p)
        case .headMoved(let p): return try encoder.encode(p)
        }
    }

    /// Decodes a stored payload, upcasting older versions to the current shape.
    public static func decode(type: String, schemaVersion: Int, payload: Data) throws -> CreationEvent {
        guard let current = currentVersions[type] else { throw EventDecodingError.unknownType(type) }
        guard schemaVersion >= 1, schemaVersion <= current else {
            throw EventDecodingError.unsupportedVersion(type: type, version: schemaVersion, newest: current)
        }
        let decoder = JSONDecoder()
        do {
            switch type {
            case "CreationCreated": return .created(try decoder.decode(CreationCreated.self, from: payload))
            case "BaseImageImported": return .baseImageImported(try decoder.decode(BaseImageImported.self, from: payload))
            case "TextLayerAdded": return .textLayerAdded(try decoder.decode(TextLayerAdded.self, from: payload))
            case "TextLayerEdited": return .textLayerEdited(try decoder.decode(TextLayerEdited.self, from: payload))
            case "TextLayerRemoved": return .textLayerRemoved(try decoder.decode(TextLayerRemoved.self, from: payload))
            case "HeadMoved": return .headMoved(try decoder.decode(HeadMoved.self, from: payload))
            default: throw EventDecodingError.unknownType(type)
            }
        } catch let error as DecodingError {
            throw EventDecodingError.malformed(type: type, detail: String(describing: error))
        }
    }
}

/// A stored payload this build cannot read.
public enum EventDecodingError: Error, Equatable, CustomStringConvertible {
    case unknownType(String)
    case unsupportedVersion(type: String, version: Int, newest: Int)
    case malformed(type: String, detail: String)

    public var description: String {
        switch self {
        case .unknownType(let type):
            return "unknown event type \(type): this store was written by a newer memery"
        case let .unsupportedVersion(type, version, newest):
            return "\(type) payload version \(version) is not readable (this memery reads 1 to \(newest))"
        case let .malformed(type, detail):
            return "a \(type) payload does not match its schema: \(detail)"
        }
    }
}
