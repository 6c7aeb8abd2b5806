import Foundation

/// A creation's state (a checkpoint of the history index, a snapshot of its head) and a
/// whole layer, read by `PlainPayloadReader` and written by `PlainPayloadWriter` without
/// Codable. A state of 2,000 layers is about 600 KiB of JSON, and a new process's first undo,
/// redo or checkout on it decoded one through Codable. As for the events: any other spelling
/// is not plain, and the caller reads it through `PayloadJSONDecoder`, which decides what it
/// means or names the error; writing gives `SortedJSONEncoder`'s bytes (tests hold them equal).
extension Creation {
    /// A state as `encoded` JSON wrote it: read plainly when it can be, else by Codable,
    /// which decides what it means or names the error.
    public static func decoded(_ data: Data) throws -> Creation {
        try plainDecode(data) ?? PayloadJSONDecoder().decode(Creation.self, from: data)
    }

    /// The state, or nil when these bytes are for Codable to read.
    static func plainDecode(_ data: Data) -> Creation? { PlainPayloadReader.read(data, plain) }

    /// The state as JSON with sorted keys: `SortedJSONEncoder`'s bytes.
    public func encoded() throws -> Data {
        try PlainPayloadWriter.write(plainWrite) ?? SortedJSONEncoder().encode(self)
    }

    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> Creation {
        var id: UUID?, name: String?, canvas: Canvas?, baseImage: BaseImage?, basePlacement: Transform?, layers: [Layer]?
        var version: UInt64?, nextLayerNumber: Int?, filters: [AppliedFilter]?, nextFilterNumber: Int?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "id": try Reader.once(&id, r.uuid())
            case "name": try Reader.once(&name, r.string())
            case "canvas": try Reader.once(&canvas, Canvas.plain(&r))
            case "baseImage": try Reader.once(&baseImage, BaseImage.plain(&r))
            case "basePlacement": try Reader.once(&basePlacement, Transform.plain(&r))
            case "layers": try Reader.once(&layers, r.array(Layer.plain))
            case "version": try Reader.once(&version, r.uint64())
            case "nextLayerNumber": try Reader.once(&nextLayerNumber, r.int())
            case "filters": try Reader.once(&filters, r.decoded([AppliedFilter].self))  // parameters of every kind: rare, and few
            case "nextFilterNumber": try Reader.once(&nextFilterNumber, r.int())
            default: throw NotPlain()
            }
        }
        var state = Creation(id: try Reader.required(id))
        state.name = try Reader.required(name)
        state.canvas = canvas
        state.baseImage = baseImage
        state.basePlacement = try Reader.required(basePlacement)
        state.layers = try Reader.required(layers)
        state.version = try Reader.required(version)
        state.nextLayerNumber = try Reader.required(nextLayerNumber)
        state.filters = try Reader.required(filters)
        state.nextFilterNumber = try Reader.required(nextFilterNumber)
        return state
    }
}

extension CreationHead {
    /// The snapshot, or nil when these bytes are for Codable to read.
    static func plainDecode(_ data: Data) -> CreationHead? {
        PlainPayloadReader.read(data) { r throws(NotPlain) in
            var state: Creation?, streamVersion: UInt64?, headVersion: UInt64?, headEdit: UUID?, latest: HistoryOrder?
            try r.object { r, key throws(NotPlain) in
                switch key {
                case "state": try Reader.once(&state, Creation.plain(&r))
                case "streamVersion": try Reader.once(&streamVersion, r.uint64())
                case "headVersion": try Reader.once(&headVersion, r.uint64())
                case "headEdit": try Reader.once(&headEdit, r.uuid())
                case "latest": try Reader.once(&latest, HistoryOrder.plain(&r))
                default: throw NotPlain()
                }
            }
            return CreationHead(state: try Reader.required(state), streamVersion: try Reader.required(streamVersion),
                                headVersion: headVersion, headEdit: headEdit, latest: latest)
        }
    }
}

extension CreationEvent.LayerAdded {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> Self {
        var layer: Layer?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "layer": try Reader.once(&layer, Layer.plain(&r))
            default: throw NotPlain()
            }
        }
        return Self(layer: try Reader.required(layer))
    }
}

extension Layer {
    /// Codable reads the content the kind names and passes over the other kinds' members;
    /// this reader takes a layer with the one content member only.
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> Layer {
        var id: String?, kind: String?, transform: Transform?, opacity: Double?
        var text: TextContent?, image: ImageContent?, shape: ShapeContent?, drawing: DrawingContent?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "id": try Reader.once(&id, r.string())
            case "kind": try Reader.once(&kind, r.string())
            case "transform": try Reader.once(&transform, Transform.plain(&r))
            case "opacity": try Reader.once(&opacity, r.double())
            case "text": try Reader.once(&text, TextContent.plain(&r))
            case "image": try Reader.once(&image, ImageContent.plain(&r))
            case "shape": try Reader.once(&shape, ShapeContent.plain(&r))
            case "drawing": try Reader.once(&drawing, DrawingContent.plain(&r))
            default: throw NotPlain()
            }
        }
        let contents = (text != nil ? 1 : 0) + (image != nil ? 1 : 0) + (shape != nil ? 1 : 0) + (drawing != nil ? 1 : 0)
        guard contents == 1 else { throw NotPlain() }
        let content: Content
        switch try Reader.required(kind) {
        case "text": content = .text(try Reader.required(text))
        case "image": content = .image(try Reader.required(image))
        case "shape": content = .shape(try Reader.required(shape))
        case "drawing": content = .drawing(try Reader.required(drawing))
        default: throw NotPlain()
        }
        return Layer(id: try Reader.required(id), content: content, transform: try Reader.required(transform),
                     opacity: try Reader.required(opacity))
    }
}

extension TextContent {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> TextContent {
        var role: Role?, text: String?, width: Double?, height: Double?, style: TextStyle?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "role": try Reader.once(&role, r.named(Role.self))
            case "text": try Reader.once(&text, r.string())
            case "width": try Reader.once(&width, r.double())
            case "height": try Reader.once(&height, r.double())
            case "style": try Reader.once(&style, TextStyle.plain(&r))
            default: throw NotPlain()
            }
        }
        return TextContent(role: try Reader.required(role), text: try Reader.required(text), width: try Reader.required(width),
                           height: try Reader.required(height), style: try Reader.required(style))
    }
}

extension ImageContent {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> ImageContent {
        var image: BaseImage?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "image": try Reader.once(&image, BaseImage.plain(&r))
            default: throw NotPlain()
            }
        }
        return ImageContent(image: try Reader.required(image))
    }
}

extension DrawingContent {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> DrawingContent {
        var width: Double?, height: Double?, strokes: [Stroke]?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "width": try Reader.once(&width, r.double())
            case "height": try Reader.once(&height, r.double())
            case "strokes": try Reader.once(&strokes, r.array(Stroke.plain))
            default: throw NotPlain()
            }
        }
        return DrawingContent(width: try Reader.required(width), height: try Reader.required(height), strokes: try Reader.required(strokes))
    }
}

extension BaseImage {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> BaseImage {
        var blob: String?, width: Int?, height: Int?, format: String?, sourceName: String?, origin: PictureOrigin?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "blob": try Reader.once(&blob, r.string())
            case "width": try Reader.once(&width, r.int())
            case "height": try Reader.once(&height, r.int())
            case "format": try Reader.once(&format, r.string())
            case "sourceName": try Reader.once(&sourceName, r.string())
            case "origin": try Reader.once(&origin, r.decoded(PictureOrigin.self))  // a picture from the web: rare
            default: throw NotPlain()
            }
        }
        return BaseImage(blob: try Reader.required(blob), width: try Reader.required(width), height: try Reader.required(height),
                         format: try Reader.required(format), sourceName: sourceName, origin: origin)
    }
}

extension Canvas {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> Canvas {
        var width: Int?, height: Int?, background: Color?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "width": try Reader.once(&width, r.int())
            case "height": try Reader.once(&height, r.int())
            case "background": try Reader.once(&background, r.color())
            default: throw NotPlain()
            }
        }
        return Canvas(width: try Reader.required(width), height: try Reader.required(height), background: try Reader.required(background))
    }
}

extension HistoryOrder {
    static func plain(_ r: inout PlainPayloadReader) throws(PlainPayloadReader.NotPlain) -> HistoryOrder {
        var time: Int64?, id: UUID?
        try r.object { r, key throws(NotPlain) in
            switch key {
            case "time": try Reader.once(&time, r.int64())
            case "id": try Reader.once(&id, r.uuid())
            default: throw NotPlain()
            }
        }
        return HistoryOrder(time: try Reader.required(time), id: try Reader.required(id))
    }
}

// MARK: Writing

// Each writer writes the members its type's Codable writes (an optional only when present),
// in the order SortedJSONEncoder sorts their names by their bytes.

extension Creation {
    func plainWrite(_ w: inout PlainPayloadWriter) throws(PlainPayloadWriter.NotSpelled) {
        try w.object { w throws(NotSpelled) in
            if let baseImage { w.key("baseImage"); try baseImage.plainWrite(&w) }
            w.key("basePlacement"); try basePlacement.plainWrite(&w)
            if let canvas { w.key("canvas"); try w.object { w in w.key("background"); w.color(canvas.background); w.key("height"); w.int(canvas.height); w.key("width"); w.int(canvas.width) } }
            w.key("filters"); try w.encoded(filters)
            w.key("id"); w.uuid(id)
            w.key("layers"); try w.array(layers) { w, layer throws(NotSpelled) in try layer.plainWrite(&w) }
            w.key("name"); w.string(name)
            w.key("nextFilterNumber"); w.int(nextFilterNumber)
            w.key("nextLayerNumber"); w.int(nextLayerNumber)
            w.key("version"); w.integer(version)
        }
    }
}

extension CreationHead {
    func plainWrite(_ w: inout PlainPayloadWriter) throws(PlainPayloadWriter.NotSpelled) {
        try w.object { w throws(NotSpelled) in
            if let headEdit { w.key("headEdit"); w.uuid(headEdit) }
            if let headVersion { w.key("headVersion"); w.integer(headVersion) }
            if let latest { w.key("latest"); try w.object { w in w.key("id"); w.uuid(latest.id); w.key("time"); w.integer(latest.time) } }
            w.key("state"); try state.plainWrite(&w)
            w.key("streamVersion"); w.integer(streamVersion)
        }
    }
}

extension Layer {
    func plainWrite(_ w: inout PlainPayloadWriter) throws(PlainPayloadWriter.NotSpelled) {
        try w.object { w throws(NotSpelled) in
            // The content's member sorts among the others by its name.
            if case .drawing(let drawing) = content {
                w.key("drawing")
                try w.object { w throws(NotSpelled) in
                    w.key("height"); try w.double(drawing.height)
                    w.key("strokes"); try w.array(drawing.strokes) { w, stroke throws(NotSpelled) in try stroke.plainWrite(&w) }
                    w.key("width"); try w.double(drawing.width)
                }
            }
            w.key("id"); w.string(id)
            if case .image(let image) = content { w.key("image"); try w.object { w throws(NotSpelled) in w.key("image"); try image.image.plainWrite(&w) } }
            w.key("kind"); w.string(kind)
            w.key("opacity"); try w.double(opacity)
            if case .shape(let shape) = content { w.key("shape"); try shape.plainWrite(&w) }
            if case .text(let text) = content {
                w.key("text")
                try w.object { w throws(NotSpelled) in
                    w.key("height"); try w.double(text.height)
                    w.key("role"); w.string(text.role.rawValue)
                    w.key("style"); try text.style.plainWrite(&w)
                    w.key("text"); w.string(text.text)
                    w.key("width"); try w.double(text.width)
                }
            }
            w.key("transform"); try transform.plainWrite(&w)
        }
    }
}

extension BaseImage {
    func plainWrite(_ w: inout PlainPayloadWriter) throws(PlainPayloadWriter.NotSpelled) {
        try w.object { w throws(NotSpelled) in
            w.key("blob"); w.string(blob)
            w.key("format"); w.string(format)
            w.key("height"); w.int(height)
            if let origin { w.key("origin"); try w.encoded(origin) }
            if let sourceName { w.key("sourceName"); w.string(sourceName) }
            w.key("width"); w.int(width)
        }
    }
}

private typealias Reader = PlainPayloadReader
private typealias NotPlain = PlainPayloadReader.NotPlain
private typealias Writer = PlainPayloadWriter
private typealias NotSpelled = PlainPayloadWriter.NotSpelled
