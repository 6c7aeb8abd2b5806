import Foundation

/// The small, frequent payloads (text typed, layers dragged, strokes drawn, undo and redo)
/// read by `PlainPayloadReader` without Codable. A payload it does not take (another type,
/// an older version, any spelling but the plain one) is decoded through Codable as before;
/// tests hold the two readings equal, value for value and byte for byte re-encoded.
extension CreationEvent {
    /// The event, or nil when this payload is for Codable to read.
    static func plainDecode(type: String, schemaVersion: Int, payload: Data) -> CreationEvent? {
        typealias R = PlainPayloadReader
        switch type {
        case "TextLayerEdited" where schemaVersion == 1: return R.read(payload, TextLayerEdited.plain).map(CreationEvent.textLayerEdited)
        case "LayerChanged" where schemaVersion == 1: return R.read(payload, LayerChanged.plain).map(CreationEvent.layerChanged)
        case "StrokeAdded" where schemaVersion == 1: return R.read(payload, StrokeAdded.plain).map(CreationEvent.strokeAdded)
        case "HeadMoved" where schemaVersion == 2: return R.read(payload, HeadMoved.plain).map(CreationEvent.headMoved)
        case "LayerRemoved" where schemaVersion == 1: return R.read(payload, { r throws(R.NotPlain) in LayerRemoved(id: try r.idOnly()) }).map(CreationEvent.layerRemoved)
        case "FilterRemoved" where schemaVersion == 1: return R.read(payload, { r throws(R.NotPlain) in FilterRemoved(id: try r.idOnly()) }).map(CreationEvent.filterRemoved)
        case "LayerReordered" where schemaVersion == 1: return R.read(payload, LayerReordered.plain).map(CreationEvent.layerReordered)
        case "BaseImageMoved" where schemaVersion == 1: return R.read(payload, BaseImageMoved.plain).map(CreationEvent.baseImageMoved)
        case "CanvasCropped" where schemaVersion == 1: return R.read(payload, CanvasCropped.plain).map(CreationEvent.canvasCropped)
        case "CanvasRotated" where schemaVersion == 1: return R.read(payload, CanvasRotated.plain).map(CreationEvent.canvasRotated)
        case "CanvasFlipped" where schemaVersion == 1: return R.read(payload, CanvasFlipped.plain).map(CreationEvent.canvasFlipped)
        case "CanvasCreated" where schemaVersion == 1: return R.read(payload, CanvasCreated.plain).map(CreationEvent.canvasCreated)
        case "CreationCreated" where schemaVersion == 1: return R.read(payload, CreationCreated.plain).map(CreationEvent.created)
        default: return nil
        }
    }
}

// Each reader takes the members its type's synthesized Codable writes, each once, and throws
// `NotPlain` for any other, so the Codable reading decides.

private typealias Reader = PlainPayloadReader
private typealias NotPlain = PlainPayloadReader.NotPlain

private func required<T>(_ value: T?) throws(NotPlain) -> T {
    guard let value else { throw NotPlain() }
    return value
}

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
        return try required(id)
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
        return Self(id: try required(id), text: text, box: box, style: style)
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
        return Self(id: try required(id), transform: transform, opacity: opacity, shape: shape)
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
        return Self(id: try required(id), stroke: try required(stroke))
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
        return Self(to: try required(to), cause: try required(cause))
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
        return Self(id: try required(id), index: try required(index))
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
        return Self(transform: try required(transform))
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
        return Self(x: try required(x), y: try required(y), width: try required(width), height: try required(height))
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
        return Self(degrees: try required(degrees), width: try required(width), height: try required(height))
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
        return Self(axis: try required(axis))
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
        return Self(width: try required(width), height: try required(height), background: try required(background))
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
        return Self(id: try required(id), name: try required(name))
    }
}

// MARK: The values inside them

extension Box {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Box {
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
        return Box(x: try required(x), y: try required(y), w: try required(w), h: try required(h))
    }
}

extension Point {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Point {
        var x: Double?, y: Double?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "x": try Reader.once(&x, r.double())
            case "y": try Reader.once(&y, r.double())
            default: throw NotPlain()
            }
        }
        return Point(x: try required(x), y: try required(y))
    }
}

extension Transform {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Transform {
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
        return Transform(x: try required(x), y: try required(y), scale: try required(scale), rotation: try required(rotation),
                         flipH: try required(flipH), flipV: try required(flipV))
    }
}

extension TextStyle {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> TextStyle {
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
        return TextStyle(font: try required(font), maxSize: try required(maxSize), fill: try required(fill), outline: try required(outline),
                         outlineWidth: outlineWidth, align: try required(align), uppercase: try required(uppercase))
    }
}

extension ShapeContent {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> ShapeContent {
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
        return ShapeContent(kind: try required(kind), width: try required(width), height: try required(height), fill: fill,
                            alpha: try required(alpha), stroke: stroke, strokeWidth: try required(strokeWidth))
    }
}

extension Stroke {
    fileprivate static func plain(_ r: inout Reader) throws(NotPlain) -> Stroke {
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
        return Stroke(points: try required(points), width: try required(width), color: try required(color), erase: try required(erase))
    }
}
