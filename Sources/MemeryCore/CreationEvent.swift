import Foundation

/// Everything that can happen to a creation. Each case is one event type with a JSON payload
/// described by `schemas/<Type>.v<version>.schema.json`; older payload versions are upcast
/// when read (`EventUpcasting.swift`).
///
/// The cases with a whole layer or picture in them are `indirect`: an event is copied several
/// times between its decoding and its folding, and those payloads (230 bytes, against 130
/// for the largest edit) made every event that large.
public enum CreationEvent: Sendable, Equatable {
    case created(CreationCreated)
    indirect case baseImageImported(BaseImageImported)
    case canvasCreated(CanvasCreated)
    indirect case startedFromTemplate(StartedFromTemplate)
    indirect case textLayerAdded(LayerAdded)
    case textLayerEdited(TextLayerEdited)
    indirect case imageLayerAdded(LayerAdded)
    indirect case shapeLayerAdded(LayerAdded)
    indirect case drawingLayerAdded(LayerAdded)
    case strokeAdded(StrokeAdded)
    case layerChanged(LayerChanged)
    case layerRemoved(LayerRemoved)
    case layerReordered(LayerReordered)
    case canvasCropped(CanvasCropped)
    /// The canvas grew on some sides; everything on it stays where it was on the picture.
    case canvasExtended(CanvasExtended)
    case canvasRotated(CanvasRotated)
    case canvasFlipped(CanvasFlipped)
    /// The base picture turned or mirrored alone, inside the canvas.
    case baseImageMoved(BaseImageMoved)
    case filterApplied(FilterApplied)
    case filterParamsChanged(FilterParamsChanged)
    case filterRemoved(FilterRemoved)
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

    public struct CanvasCreated: Sendable, Equatable, Codable {
        public var width: Int
        public var height: Int
        public var background: Color
        public init(width: Int, height: Int, background: Color) { self.width = width; self.height = height; self.background = background }
    }

    /// A creation's canvas and base image taken from a template (its text boxes follow as
    /// TextLayerAdded events in the same batch).
    public struct StartedFromTemplate: Sendable, Equatable, Codable {
        public var template: String
        public var canvas: Canvas
        public var baseImage: BaseImage?
        public var basePlacement: Transform
        public init(template: String, canvas: Canvas, baseImage: BaseImage?, basePlacement: Transform) {
            self.template = template; self.canvas = canvas; self.baseImage = baseImage; self.basePlacement = basePlacement
        }
    }

    /// A layer on top of the others (TextLayerAdded v2, ImageLayerAdded, ShapeLayerAdded, DrawingLayerAdded).
    public struct LayerAdded: Sendable, Equatable, Codable {
        public var layer: Layer
        public init(layer: Layer) { self.layer = layer }
    }

    /// Only the fields given change. A box sets the text's size and centre.
    public struct TextLayerEdited: Sendable, Equatable, Codable {
        public var id: String
        public var text: String?
        public var box: Box?
        public var style: TextStyle?
        public init(id: String, text: String? = nil, box: Box? = nil, style: TextStyle? = nil) {
            self.id = id; self.text = text; self.box = box; self.style = style
        }
    }

    /// A stroke added to a drawing layer, in the layer's own coordinates.
    public struct StrokeAdded: Sendable, Equatable, Codable {
        public var id: String
        public var stroke: Stroke
        public init(id: String, stroke: Stroke) { self.id = id; self.stroke = stroke }
    }

    /// Only the fields given change.
    public struct LayerChanged: Sendable, Equatable, Codable {
        public var id: String
        public var transform: Transform?
        public var opacity: Double?
        public var shape: ShapeContent?
        public init(id: String, transform: Transform? = nil, opacity: Double? = nil, shape: ShapeContent? = nil) {
            self.id = id; self.transform = transform; self.opacity = opacity; self.shape = shape
        }
    }

    public struct LayerRemoved: Sendable, Equatable, Codable {
        public var id: String
        public init(id: String) { self.id = id }
    }

    /// The layer's new position, 0 being the bottom.
    public struct LayerReordered: Sendable, Equatable, Codable {
        public var id: String
        public var index: Int
        public init(id: String, index: Int) { self.id = id; self.index = index }
    }

    public struct CanvasCropped: Sendable, Equatable, Codable {
        public var x, y, width, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
    }

    /// Room added on each side (pixels, none negative; a trim is a CanvasCropped) and the
    /// colour that fills the canvas from now on: the new room and any bare part of it.
    public struct CanvasExtended: Sendable, Equatable, Codable {
        public var left, top, right, bottom: Int
        public var background: Color
        public init(left: Int, top: Int, right: Int, bottom: Int, background: Color) {
            self.left = left; self.top = top; self.right = right; self.bottom = bottom; self.background = background
        }

        // A side out of the schema's range is no event any memery wrote: refused when read,
        // so evolve's sums stay small whatever another machine sends.
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func side(_ key: CodingKeys) throws -> Int {
                let value = try c.decode(Int.self, forKey: key)
                guard CanvasMargins.range.contains(Double(value)) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "\(value) is outside 0...20000")
                }
                return value
            }
            self.init(left: try side(.left), top: try side(.top), right: try side(.right), bottom: try side(.bottom),
                      background: try c.decode(Color.self, forKey: .background))
        }
    }

    /// The canvas grows to hold the turned picture; its new size is recorded.
    public struct CanvasRotated: Sendable, Equatable, Codable {
        public var degrees: Double
        public var width: Int
        public var height: Int
        public init(degrees: Double, width: Int, height: Int) { self.degrees = degrees; self.width = width; self.height = height }
    }

    public struct CanvasFlipped: Sendable, Equatable, Codable {
        public var axis: FlipAxis
        public init(axis: FlipAxis) { self.axis = axis }
    }

    /// Where the base picture now sits on the canvas.
    public struct BaseImageMoved: Sendable, Equatable, Codable {
        public var transform: Transform
        public init(transform: Transform) { self.transform = transform }
    }

    public struct FilterApplied: Sendable, Equatable, Codable {
        public var filter: AppliedFilter
        public init(filter: AppliedFilter) { self.filter = filter }
    }

    /// The filter's whole parameter set after the change, with the version it was written for.
    public struct FilterParamsChanged: Sendable, Equatable, Codable {
        public var id: String
        public var paramVersion: Int
        public var params: [String: FilterValue]
        public init(id: String, paramVersion: Int, params: [String: FilterValue]) {
            self.id = id; self.paramVersion = paramVersion; self.params = params
        }
    }

    public struct FilterRemoved: Sendable, Equatable, Codable {
        public var id: String
        public init(id: String) { self.id = id }
    }

    public struct HeadMoved: Sendable, Equatable, Codable {
        public enum Cause: String, Sendable, Codable { case undo, redo, checkout }
        /// The edit now at the head, by its id (v1, store format 1, named it by the stream
        /// version of its last event: the migration to format 2 rewrote those).
        public var to: UUID
        public var cause: Cause
        public init(to: UUID, cause: Cause) { self.to = to; self.cause = cause }

        /// A v1 payload: the target as a stream version, as only the format-1 migration reads it.
        public struct FormatOne: Sendable, Equatable, Decodable {
            public var to: UInt64
            public var cause: Cause
            public static func decode(_ payload: Data) throws -> FormatOne {
                try PayloadJSONDecoder().decode(FormatOne.self, from: payload)
            }
        }
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
        case .canvasCreated: "CanvasCreated"
        case .startedFromTemplate: "StartedFromTemplate"
        case .textLayerAdded: "TextLayerAdded"
        case .textLayerEdited: "TextLayerEdited"
        case .imageLayerAdded: "ImageLayerAdded"
        case .shapeLayerAdded: "ShapeLayerAdded"
        case .drawingLayerAdded: "DrawingLayerAdded"
        case .strokeAdded: "StrokeAdded"
        case .layerChanged: "LayerChanged"
        case .layerRemoved: "LayerRemoved"
        case .layerReordered: "LayerReordered"
        case .canvasCropped: "CanvasCropped"
        case .canvasExtended: "CanvasExtended"
        case .canvasRotated: "CanvasRotated"
        case .canvasFlipped: "CanvasFlipped"
        case .baseImageMoved: "BaseImageMoved"
        case .filterApplied: "FilterApplied"
        case .filterParamsChanged: "FilterParamsChanged"
        case .filterRemoved: "FilterRemoved"
        case .headMoved: "HeadMoved"
        }
    }

    /// The payload version this build writes, per type. TextLayerRemoved is only read: a
    /// text layer is now removed with LayerRemoved.
    public static let currentVersions: [String: Int] = [
        "CreationCreated": 1, "BaseImageImported": 1, "CanvasCreated": 1, "StartedFromTemplate": 1,
        "TextLayerAdded": 2, "TextLayerEdited": 1, "TextLayerRemoved": 1,
        "ImageLayerAdded": 1, "ShapeLayerAdded": 1, "DrawingLayerAdded": 1, "StrokeAdded": 1,
        "LayerChanged": 1, "LayerRemoved": 1, "LayerReordered": 1,
        "CanvasCropped": 1, "CanvasExtended": 1, "CanvasRotated": 1, "CanvasFlipped": 1, "BaseImageMoved": 1, "HeadMoved": 2,
        "FilterApplied": 1, "FilterParamsChanged": 1, "FilterRemoved": 1,
    ]

    /// Types that are read but no longer written.
    public static let readOnlyTypes: Set<String> = ["TextLayerRemoved"]

    /// The version this build writes of this event's payload: `currentVersions` for its type
    /// (EventCodingTests holds the two together). A switch, not the dictionary: hashing the
    /// type's name was a tenth of making an event (callgrind, `memery-bench batched`).
    public var schemaVersion: Int {
        switch self {
        case .textLayerAdded, .headMoved: 2
        default: 1
        }
    }

    /// The payload as JSON with sorted keys, so equal events give equal bytes. The frequent
    /// small payloads are written without Codable, to the same bytes.
    public func encodedPayload() throws -> Data {
        if let payload = plainEncodedPayload() { return payload }
        return try codableEncodedPayload()
    }

    /// Every payload's bytes through Codable.
    func codableEncodedPayload() throws -> Data {
        let encoder = SortedJSONEncoder()
        switch self {
        case .created(let p): return try encoder.encode(p)
        case .baseImageImported(let p): return try encoder.encode(p)
        case .canvasCreated(let p): return try encoder.encode(p)
        case .startedFromTemplate(let p): return try encoder.encode(p)
        case .textLayerAdded(let p), .imageLayerAdded(let p), .shapeLayerAdded(let p), .drawingLayerAdded(let p):
            return try encoder.encode(p)
        case .textLayerEdited(let p): return try encoder.encode(p)
        case .strokeAdded(let p): return try encoder.encode(p)
        case .layerChanged(let p): return try encoder.encode(p)
        case .layerRemoved(let p): return try encoder.encode(p)
        case .layerReordered(let p): return try encoder.encode(p)
        case .canvasCropped(let p): return try encoder.encode(p)
        case .canvasExtended(let p): return try encoder.encode(p)
        case .canvasRotated(let p): return try encoder.encode(p)
        case .canvasFlipped(let p): return try encoder.encode(p)
        case .baseImageMoved(let p): return try encoder.encode(p)
        case .filterApplied(let p): return try encoder.encode(p)
        case .filterParamsChanged(let p): return try encoder.encode(p)
        case .filterRemoved(let p): return try encoder.encode(p)
        case .headMoved(let p): return try encoder.encode(p)
        }
    }

    /// Decodes a stored payload, upcasting older versions to the current shape. The frequent
    /// small payloads, spelled as this build writes them, are read without Codable.
    public static func decode(type: String, schemaVersion: Int, payload: Data) throws -> CreationEvent {
        if let event = plainDecode(type: type, schemaVersion: schemaVersion, payload: payload) { return event }
        return try codableDecode(type: type, schemaVersion: schemaVersion, payload: payload)
    }

    /// `decode` of a type name and payload read in place (a record borrowed from the store):
    /// a plain payload is read without a copy; any other is copied for Codable.
    public static func decode(typeUTF8 type: UnsafeRawBufferPointer, schemaVersion: Int, payload: UnsafeRawBufferPointer) throws -> CreationEvent {
        do {
            return try plainRead(type: type, schemaVersion: schemaVersion, payload: payload)
        } catch {
            return try codableDecode(type: String(decoding: type, as: UTF8.self), schemaVersion: schemaVersion, payload: Data(payload))
        }
    }

    /// Every payload's reading through Codable, which decides what each means or which error it is.
    static func codableDecode(type: String, schemaVersion: Int, payload: Data) throws -> CreationEvent {
        guard let current = currentVersions[type] else { throw EventDecodingError.unknownType(type) }
        guard schemaVersion >= 1, schemaVersion <= current else {
            throw EventDecodingError.unsupportedVersion(type: type, version: schemaVersion, newest: current)
        }
        let decoder = PayloadJSONDecoder()
        func d<T: Decodable>(_ t: T.Type) throws -> T { try decoder.decode(t, from: payload) }
        do {
            switch type {
            case "CreationCreated": return .created(try d(CreationCreated.self))
            case "BaseImageImported": return .baseImageImported(try d(BaseImageImported.self))
            case "CanvasCreated": return .canvasCreated(try d(CanvasCreated.self))
            case "StartedFromTemplate": return .startedFromTemplate(try d(StartedFromTemplate.self))
            case "TextLayerAdded":
                if schemaVersion == 1 { return .textLayerAdded(try EventUpcasting.textLayerAddedV1(payload)) }
                return .textLayerAdded(try d(LayerAdded.self))
            case "TextLayerEdited": return .textLayerEdited(try d(TextLayerEdited.self))
            case "TextLayerRemoved": return .layerRemoved(try d(LayerRemoved.self))  // v1 only, read as LayerRemoved
            case "ImageLayerAdded": return .imageLayerAdded(try d(LayerAdded.self))
            case "ShapeLayerAdded": return .shapeLayerAdded(try d(LayerAdded.self))
            case "DrawingLayerAdded": return .drawingLayerAdded(try d(LayerAdded.self))
            case "StrokeAdded": return .strokeAdded(try d(StrokeAdded.self))
            case "LayerChanged": return .layerChanged(try d(LayerChanged.self))
            case "LayerRemoved": return .layerRemoved(try d(LayerRemoved.self))
            case "LayerReordered": return .layerReordered(try d(LayerReordered.self))
            case "CanvasCropped": return .canvasCropped(try d(CanvasCropped.self))
            case "CanvasExtended": return .canvasExtended(try d(CanvasExtended.self))
            case "CanvasRotated": return .canvasRotated(try d(CanvasRotated.self))
            case "CanvasFlipped": return .canvasFlipped(try d(CanvasFlipped.self))
            case "BaseImageMoved": return .baseImageMoved(try d(BaseImageMoved.self))
            case "FilterApplied": return .filterApplied(try d(FilterApplied.self))
            case "FilterParamsChanged": return .filterParamsChanged(try d(FilterParamsChanged.self))
            case "FilterRemoved": return .filterRemoved(try d(FilterRemoved.self))
            case "HeadMoved":
                // v1 named its target by a stream version, which means nothing on another
                // machine; the migration to store format 2 rewrites every v1 move.
                guard schemaVersion >= 2 else { throw EventDecodingError.unsupportedVersion(type: type, version: 1, newest: current) }
                return .headMoved(try d(HeadMoved.self))
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
