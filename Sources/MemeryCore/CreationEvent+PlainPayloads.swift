import Foundation

/// The small, frequent payloads (text typed, layers dragged, strokes drawn, undo and redo)
/// read by `PlainPayloadReader` without Codable. A payload it does not take (another type,
/// an older version, any spelling but the plain one) is decoded through Codable as before;
/// tests hold the two readings equal, value for value and byte for byte re-encoded.
extension CreationEvent {
    /// The event, or nil when this payload is for Codable to read.
    static func plainDecode(type: String, schemaVersion: Int, payload: Data) -> CreationEvent? {
        var type = type
        return type.withUTF8 { type in
            payload.withUnsafeBytes { plainDecode(type: UnsafeRawBufferPointer(type), schemaVersion: schemaVersion, payload: $0) }
        }
    }

    /// `plainDecode` of bytes read in place. The type name's bytes
    /// are matched as they are: no plain type is spelled other than in ASCII, where bytes
    /// equal means `String`s equal.
    static func plainDecode(type: UnsafeRawBufferPointer, schemaVersion: Int, payload: UnsafeRawBufferPointer) -> CreationEvent? {
        try? plainRead(type: type, schemaVersion: schemaVersion, payload: payload)
    }

    /// `plainDecode`, throwing where it gives nil (why: `PlainPayloadReader.whole`).
    static func plainRead(type: UnsafeRawBufferPointer, schemaVersion: Int, payload: UnsafeRawBufferPointer) throws(PlainPayloadReader.NotPlain) -> CreationEvent {
        typealias R = PlainPayloadReader
        switch R.Key(bytes: type) {
        case "TextLayerAdded" where schemaVersion == 2: return .textLayerAdded(try R.whole(payload, LayerAdded.plain))
        case "ImageLayerAdded" where schemaVersion == 1: return .imageLayerAdded(try R.whole(payload, LayerAdded.plain))
        case "ShapeLayerAdded" where schemaVersion == 1: return .shapeLayerAdded(try R.whole(payload, LayerAdded.plain))
        case "DrawingLayerAdded" where schemaVersion == 1: return .drawingLayerAdded(try R.whole(payload, LayerAdded.plain))
        case "TextLayerEdited" where schemaVersion == 1: return .textLayerEdited(try R.whole(payload, TextLayerEdited.plain))
        case "LayerChanged" where schemaVersion == 1: return .layerChanged(try R.whole(payload, LayerChanged.plain))
        case "StrokeAdded" where schemaVersion == 1: return .strokeAdded(try R.whole(payload, StrokeAdded.plain))
        case "HeadMoved" where schemaVersion == 2: return .headMoved(try R.whole(payload, HeadMoved.plain))
        case "LayerRemoved" where schemaVersion == 1: return .layerRemoved(try R.whole(payload, { r throws(R.NotPlain) in LayerRemoved(id: try r.idOnly()) }))
        case "FilterRemoved" where schemaVersion == 1: return .filterRemoved(try R.whole(payload, { r throws(R.NotPlain) in FilterRemoved(id: try r.idOnly()) }))
        case "LayerReordered" where schemaVersion == 1: return .layerReordered(try R.whole(payload, LayerReordered.plain))
        case "BaseImageMoved" where schemaVersion == 1: return .baseImageMoved(try R.whole(payload, BaseImageMoved.plain))
        case "CanvasCropped" where schemaVersion == 1: return .canvasCropped(try R.whole(payload, CanvasCropped.plain))
        case "CanvasRotated" where schemaVersion == 1: return .canvasRotated(try R.whole(payload, CanvasRotated.plain))
        case "CanvasFlipped" where schemaVersion == 1: return .canvasFlipped(try R.whole(payload, CanvasFlipped.plain))
        case "CanvasCreated" where schemaVersion == 1: return .canvasCreated(try R.whole(payload, CanvasCreated.plain))
        case "CreationCreated" where schemaVersion == 1: return .created(try R.whole(payload, CreationCreated.plain))
        default: throw R.NotPlain()
        }
    }
}

// Each reader takes the members its type's synthesized Codable writes, each once, and throws
// `NotPlain` for any other, so the Codable reading decides.

private typealias Reader = PlainPayloadReader
private typealias NotPlain = PlainPayloadReader.NotPlain

extension PlainPayloadReader {
    /// `{"id": ...}`, the whole of several payloads.
    fileprivate mutating func idOnly() throws(NotPlain) -> String {
        var id: String?
        try object { r, key throws(NotPlain) in
            switch key {
            case "id": try Reader.once(&id, r.string())
            default: throw NotPlain()
            }
        }
        return try Reader.required(id)
    }
}

extension CreationEvent.TextLayerEdited {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Self {
        var id: String?, text: String?, box: Box?, style: TextStyle?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "id": try Reader.once(&id, r.string())
            case "text": try Reader.once(&text, r.string())
            case "box": try Reader.once(&box, Box.plain(&r))
            case "style": try Reader.once(&style, TextStyle.plain(&r))
            default: throw NotPlain()
            }
        }
        return Self(id: try Reader.required(id), text: text, box: box, style: style)
    }
}

extension CreationEvent.LayerChanged {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Self {
        var id: String?, transform: Transform?, opacity: Double?, shape: ShapeContent?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "id": try Reader.once(&id, r.string())
            case "transform": try Reader.once(&transform, Transform.plain(&r))
            case "opacity": try Reader.once(&opacity, r.double())
            case "shape": try Reader.once(&shape, ShapeContent.plain(&r))
            default: throw NotPlain()
            }
        }
        return Self(id: try Reader.required(id), transform: transform, opacity: opacity, shape: shape)
    }
}

extension CreationEvent.StrokeAdded {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Self {
        var id: String?, stroke: Stroke?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "id": try Reader.once(&id, r.string())
            case "stroke": try Reader.once(&stroke, Stroke.plain(&r))
            default: throw NotPlain()
            }
        }
        return Self(id: try Reader.required(id), stroke: try Reader.required(stroke))
    }
}

extension CreationEvent.HeadMoved {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Self {
        var to: UUID?, cause: Cause?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "to": try Reader.once(&to, r.uuid())
            case "cause": try Reader.once(&cause, r.named(Cause.self))
            default: throw NotPlain()
            }
        }
        return Self(to: try Reader.required(to), cause: try Reader.required(cause))
    }
}

extension CreationEvent.LayerReordered {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Self {
        var id: String?, index: Int?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "id": try Reader.once(&id, r.string())
            case "index": try Reader.once(&index, r.int())
            default: throw NotPlain()
            }
        }
        return Self(id: try Reader.required(id), index: try Reader.required(index))
    }
}

extension CreationEvent.BaseImageMoved {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Self {
        var transform: Transform?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "transform": try Reader.once(&transform, Transform.plain(&r))
            default: throw NotPlain()
            }
        }
        return Self(transform: try Reader.required(transform))
    }
}

extension CreationEvent.CanvasCropped {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Self {
        var x: Int?, y: Int?, width: Int?, height: Int?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "x": try Reader.once(&x, r.int())
            case "y": try Reader.once(&y, r.int())
            case "width": try Reader.once(&width, r.int())
            case "height": try Reader.once(&height, r.int())
            default: throw NotPlain()
            }
        }
        return Self(x: try Reader.required(x), y: try Reader.required(y), width: try Reader.required(width), height: try Reader.required(height))
    }
}

extension CreationEvent.CanvasRotated {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Self {
        var degrees: Double?, width: Int?, height: Int?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "degrees": try Reader.once(&degrees, r.double())
            case "width": try Reader.once(&width, r.int())
            case "height": try Reader.once(&height, r.int())
            default: throw NotPlain()
            }
        }
        return Self(degrees: try Reader.required(degrees), width: try Reader.required(width), height: try Reader.required(height))
    }
}

extension CreationEvent.CanvasFlipped {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Self {
        var axis: FlipAxis?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "axis": try Reader.once(&axis, r.named(FlipAxis.self))
            default: throw NotPlain()
            }
        }
        return Self(axis: try Reader.required(axis))
    }
}

extension CreationEvent.CanvasCreated {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Self {
        var width: Int?, height: Int?, background: Color?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "width": try Reader.once(&width, r.int())
            case "height": try Reader.once(&height, r.int())
            case "background": try Reader.once(&background, r.color())
            default: throw NotPlain()
            }
        }
        return Self(width: try Reader.required(width), height: try Reader.required(height), background: try Reader.required(background))
    }
}

extension CreationEvent.CreationCreated {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Self {
        var id: UUID?, name: String?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "id": try Reader.once(&id, r.uuid())
            case "name": try Reader.once(&name, r.string())
            default: throw NotPlain()
            }
        }
        return Self(id: try Reader.required(id), name: try Reader.required(name))
    }
}

// MARK: The values inside them

extension Box {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> Box {
        var x: Double?, y: Double?, w: Double?, h: Double?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "x": try Reader.once(&x, r.double())
            case "y": try Reader.once(&y, r.double())
            case "w": try Reader.once(&w, r.double())
            case "h": try Reader.once(&h, r.double())
            default: throw NotPlain()
            }
        }
        return Box(x: try Reader.required(x), y: try Reader.required(y), w: try Reader.required(w), h: try Reader.required(h))
    }
}

extension Point {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> Point {
        var x: Double?, y: Double?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "x": try Reader.once(&x, r.double())
            case "y": try Reader.once(&y, r.double())
            default: throw NotPlain()
            }
        }
        return Point(x: try Reader.required(x), y: try Reader.required(y))
    }
}

extension Transform {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> Transform {
        var x: Double?, y: Double?, scale: Double?, rotation: Double?, flipH: Bool?, flipV: Bool?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "x": try Reader.once(&x, r.double())
            case "y": try Reader.once(&y, r.double())
            case "scale": try Reader.once(&scale, r.double())
            case "rotation": try Reader.once(&rotation, r.double())
            case "flipH": try Reader.once(&flipH, r.bool())
            case "flipV": try Reader.once(&flipV, r.bool())
            default: throw NotPlain()
            }
        }
        return Transform(x: try Reader.required(x), y: try Reader.required(y), scale: try Reader.required(scale), rotation: try Reader.required(rotation),
                         flipH: try Reader.required(flipH), flipV: try Reader.required(flipV))
    }
}

extension TextStyle {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> TextStyle {
        var font: String?, maxSize: Double?, fill: Color?, outline: Color?, outlineWidth: Double?, align: Alignment?, uppercase: Bool?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "font": try Reader.once(&font, r.string())
            case "maxSize": try Reader.once(&maxSize, r.double())
            case "fill": try Reader.once(&fill, r.color())
            case "outline": try Reader.once(&outline, r.color())
            case "outlineWidth": try Reader.once(&outlineWidth, r.double())
            case "align": try Reader.once(&align, r.named(Alignment.self))
            case "uppercase": try Reader.once(&uppercase, r.bool())
            default: throw NotPlain()
            }
        }
        return TextStyle(font: try Reader.required(font), maxSize: try Reader.required(maxSize), fill: try Reader.required(fill), outline: try Reader.required(outline),
                         outlineWidth: outlineWidth, align: try Reader.required(align), uppercase: try Reader.required(uppercase))
    }
}

extension ShapeContent {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> ShapeContent {
        var kind: Kind?, width: Double?, height: Double?, fill: Color?, alpha: Double?, stroke: Color?, strokeWidth: Double?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "kind": try Reader.once(&kind, r.named(Kind.self))
            case "width": try Reader.once(&width, r.double())
            case "height": try Reader.once(&height, r.double())
            case "fill": try Reader.once(&fill, r.color())
            case "alpha": try Reader.once(&alpha, r.double())
            case "stroke": try Reader.once(&stroke, r.color())
            case "strokeWidth": try Reader.once(&strokeWidth, r.double())
            default: throw NotPlain()
            }
        }
        return ShapeContent(kind: try Reader.required(kind), width: try Reader.required(width), height: try Reader.required(height), fill: fill,
                            alpha: try Reader.required(alpha), stroke: stroke, strokeWidth: try Reader.required(strokeWidth))
    }
}

extension Stroke {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> Stroke {
        var points: [Point]?, width: Double?, color: Color?, erase: Bool?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "points": try Reader.once(&points, r.array(Point.plain))
            case "width": try Reader.once(&width, r.double())
            case "color": try Reader.once(&color, r.color())
            case "erase": try Reader.once(&erase, r.bool())
            default: throw NotPlain()
            }
        }
        return Stroke(points: try Reader.required(points), width: try Reader.required(width), color: try Reader.required(color), erase: try Reader.required(erase))
    }
}

// MARK: Writing

// Each writer writes the members its type's synthesized Codable writes (an optional only
// when present), in the order SortedJSONEncoder sorts their names (by their bytes, so
// "flipH" before "flipV" and "stroke" before "strokeWidth"). Tests hold the bytes equal.

private typealias Writer = PlainPayloadWriter
private typealias NotSpelled = PlainPayloadWriter.NotSpelled

extension CreationEvent {
    /// The payload's bytes as `SortedJSONEncoder` writes them, or nil when this event is for
    /// it to write (another type, or a value JSON cannot spell, whose error it names).
    func plainEncodedPayload() -> Data? {
        switch self {
        case .textLayerEdited(let p): Writer.write(p.plainWrite)
        case .layerChanged(let p): Writer.write(p.plainWrite)
        case .strokeAdded(let p): Writer.write(p.plainWrite)
        case .headMoved(let p): Writer.write { w throws(NotSpelled) in try w.object { w in w.key("cause"); w.string(p.cause.rawValue); w.key("to"); w.uuid(p.to) } }
        case .layerRemoved(let p): Writer.write { w throws(NotSpelled) in try w.object { w in w.key("id"); w.string(p.id) } }
        case .filterRemoved(let p): Writer.write { w throws(NotSpelled) in try w.object { w in w.key("id"); w.string(p.id) } }
        case .layerReordered(let p): Writer.write { w throws(NotSpelled) in try w.object { w in w.key("id"); w.string(p.id); w.key("index"); w.int(p.index) } }
        case .baseImageMoved(let p): Writer.write { w throws(NotSpelled) in try w.object { w throws(NotSpelled) in w.key("transform"); try p.transform.plainWrite(&w) } }
        case .canvasCropped(let p):
            Writer.write { w throws(NotSpelled) in try w.object { w in w.key("height"); w.int(p.height); w.key("width"); w.int(p.width); w.key("x"); w.int(p.x); w.key("y"); w.int(p.y) } }
        case .canvasRotated(let p):
            Writer.write { w throws(NotSpelled) in
                try w.object { w throws(NotSpelled) in w.key("degrees"); try w.double(p.degrees); w.key("height"); w.int(p.height); w.key("width"); w.int(p.width) }
            }
        case .canvasFlipped(let p): Writer.write { w throws(NotSpelled) in try w.object { w in w.key("axis"); w.string(p.axis.rawValue) } }
        case .canvasCreated(let p):
            Writer.write { w throws(NotSpelled) in try w.object { w in w.key("background"); w.color(p.background); w.key("height"); w.int(p.height); w.key("width"); w.int(p.width) } }
        case .created(let p): Writer.write { w throws(NotSpelled) in try w.object { w in w.key("id"); w.uuid(p.id); w.key("name"); w.string(p.name) } }
        case .textLayerAdded(let p), .imageLayerAdded(let p), .shapeLayerAdded(let p), .drawingLayerAdded(let p):
            Writer.write { w throws(NotSpelled) in try w.object { w throws(NotSpelled) in w.key("layer"); try p.layer.plainWrite(&w) } }
        default: nil
        }
    }
}

extension CreationEvent.TextLayerEdited {
    fileprivate func plainWrite(_ w: inout Writer) throws(NotSpelled) {
        try w.object { w throws(NotSpelled) in
            if let box { w.key("box"); try box.plainWrite(&w) }
            w.key("id"); w.string(id)
            if let style { w.key("style"); try style.plainWrite(&w) }
            if let text { w.key("text"); w.string(text) }
        }
    }
}

extension CreationEvent.LayerChanged {
    fileprivate func plainWrite(_ w: inout Writer) throws(NotSpelled) {
        try w.object { w throws(NotSpelled) in
            w.key("id"); w.string(id)
            if let opacity { w.key("opacity"); try w.double(opacity) }
            if let shape { w.key("shape"); try shape.plainWrite(&w) }
            if let transform { w.key("transform"); try transform.plainWrite(&w) }
        }
    }
}

extension CreationEvent.StrokeAdded {
    fileprivate func plainWrite(_ w: inout Writer) throws(NotSpelled) {
        try w.object { w throws(NotSpelled) in
            w.key("id"); w.string(id)
            w.key("stroke"); try stroke.plainWrite(&w)
        }
    }
}

extension Box {
    func plainWrite(_ w: inout PlainPayloadWriter) throws(PlainPayloadWriter.NotSpelled) {
        try w.object { w throws(NotSpelled) in
            w.key("h"); try w.double(h)
            w.key("w"); try w.double(self.w)
            w.key("x"); try w.double(x)
            w.key("y"); try w.double(y)
        }
    }
}

extension Point {
    func plainWrite(_ w: inout PlainPayloadWriter) throws(PlainPayloadWriter.NotSpelled) {
        try w.object { w throws(NotSpelled) in
            w.key("x"); try w.double(x)
            w.key("y"); try w.double(y)
        }
    }
}

extension Transform {
    func plainWrite(_ w: inout PlainPayloadWriter) throws(PlainPayloadWriter.NotSpelled) {
        try w.object { w throws(NotSpelled) in
            w.key("flipH"); w.bool(flipH)
            w.key("flipV"); w.bool(flipV)
            w.key("rotation"); try w.double(rotation)
            w.key("scale"); try w.double(scale)
            w.key("x"); try w.double(x)
            w.key("y"); try w.double(y)
        }
    }
}

extension TextStyle {
    func plainWrite(_ w: inout PlainPayloadWriter) throws(PlainPayloadWriter.NotSpelled) {
        try w.object { w throws(NotSpelled) in
            w.key("align"); w.string(align.rawValue)
            w.key("fill"); w.color(fill)
            w.key("font"); w.string(font)
            w.key("maxSize"); try w.double(maxSize)
            w.key("outline"); w.color(outline)
            if let outlineWidth { w.key("outlineWidth"); try w.double(outlineWidth) }
            w.key("uppercase"); w.bool(uppercase)
        }
    }
}

extension ShapeContent {
    func plainWrite(_ w: inout PlainPayloadWriter) throws(PlainPayloadWriter.NotSpelled) {
        try w.object { w throws(NotSpelled) in
            w.key("alpha"); try w.double(alpha)
            if let fill { w.key("fill"); w.color(fill) }
            w.key("height"); try w.double(height)
            w.key("kind"); w.string(kind.rawValue)
            if let stroke { w.key("stroke"); w.color(stroke) }
            w.key("strokeWidth"); try w.double(strokeWidth)
            w.key("width"); try w.double(width)
        }
    }
}

extension Stroke {
    func plainWrite(_ w: inout PlainPayloadWriter) throws(PlainPayloadWriter.NotSpelled) {
        try w.object { w throws(NotSpelled) in
            w.key("color"); w.color(color)
            w.key("erase"); w.bool(erase)
            w.key("points"); try w.array(points) { w, point throws(NotSpelled) in try point.plainWrite(&w) }
            w.key("width"); try w.double(width)
        }
    }
}
