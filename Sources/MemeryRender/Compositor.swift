import CPangoCairo
import Foundation
import MemeryCore

/// Draws a creation: the background, the base image, then each layer bottom to top, each
/// placed by its transform and drawn with its opacity.
public struct Compositor: Sendable {
    public var decoder: ImageDecoder
    public var filters: FilterHost
    /// Decoded pictures kept between renders: nothing unless a long-lived process gives it a
    /// budget (`memery serve`).
    public let cache: DecodedImageCache
    /// Helpers kept running between runs of isolated filters: none unless a long-lived
    /// process asks (`memery serve`); its own, never another compositor's (on a hub, another
    /// person's).
    public let warmPlugins: WarmHelpers

    public init(decoder: ImageDecoder = .fromEnvironment(), filters: FilterHost = .shared, cache: DecodedImageCache = DecodedImageCache(),
                warmPlugins: WarmHelpers = WarmHelpers(.plugins)) {
        self.decoder = decoder
        self.filters = filters
        self.cache = cache
        self.warmPlugins = warmPlugins
    }

    /// Renders `creation`, `width` pixels wide when that is smaller than its canvas; `blob`
    /// returns the bytes stored under a hash. Each image is decoded once, however many layers
    /// show it, and kept in the cache for the next render.
    ///
    /// A preview is composed at its own size: text and shapes are drawn there, and the
    /// pictures are drawn from copies scaled down once and kept, so that an edit's new
    /// preview of a 12-megapixel photo does not touch 12 million pixels. Filters run at the
    /// preview's size too, on the scaled picture, with their sizes in pixels scaled by as
    /// much (`FilterHost.parameters(_:for:atScale:)`): a 5 px blur of a 6000 px photo is a
    /// 1 px blur of its 1200 px preview. Only the export runs them on every pixel.
    public func render(_ creation: Creation, width: Int? = nil, skipMissingFilters: Bool = false,
                       blob: (String) throws -> Data) throws -> Raster {
        var images = [String: Raster]()
        var needed = creation.layers.compactMap { layer -> BaseImage? in
            if case .image(let content) = layer.content { return content.image }
            return nil
        }
        if let base = creation.baseImage { needed.insert(base, at: 0) }
        for image in needed where images[image.blob] == nil {
            images[image.blob] = try cache.raster(for: .init(blob: image.blob)) {
                try decoder.decodeStored(try blob(image.blob), source: image.sourceName ?? "image \(image.blob.prefix(12))").0
            }
        }
        guard let width, let canvas = creation.canvas, width < canvas.width else {
            return try compose(creation, images: images, skipMissingFilters: skipMissingFilters, keeping: true)
        }
        return try compose(creation, images: images, skipMissingFilters: skipMissingFilters, keeping: true, width: width)
    }

    /// The filters `creation` uses that no installed plugin provides.
    public func missingFilters(_ creation: Creation) -> [String] {
        Array(Set(creation.filters.map(\.filter).filter { filters.filter($0) == nil })).sorted()
    }

    /// Draws `creation`'s layers straight onto `base`, its decoded base image, when that gives
    /// what `compose` would: the picture fills the canvas unmoved, nothing is filtered and no
    /// background shows. That saves a canvas-sized copy and a pass over it (a quick meme of a
    /// 12-megapixel photo: 48 MB). The caller gives `base` up; otherwise this is `compose`.
    public func compose(_ creation: Creation, drawingOn base: Raster) throws -> Raster {
        guard drawsStraightOn(creation, width: base.width, height: base.height), let canvas = creation.canvas else {
            return try compose(creation, images: creation.baseImage.map { [$0.blob: base] } ?? [:])
        }
        let legible = MemeText.legibleSize(canvasHeight: canvas.height)
        base.draw { cr in
            for layer in creation.layers { draw(layer, on: cr, images: ImageSources(), legible: legible) }
        }
        return base
    }

    /// Whether `compose(_:drawingOn:)` draws the layers straight onto a decoded base picture
    /// of this size: it fills the canvas unmoved, nothing is filtered, no background shows,
    /// and no layer shows another picture.
    func drawsStraightOn(_ creation: Creation, width: Int, height: Int) -> Bool {
        guard let canvas = creation.canvas, creation.baseImage != nil else { return false }
        return canvas.width == width && canvas.height == height && canvas.background.alpha == 0
            && creation.filters.isEmpty && creation.layers.allSatisfy({ $0.kind != "image" })
            && creation.basePlacement == Transform(x: Double(width) / 2, y: Double(height) / 2)
    }

    /// The canvas rows `layer` can draw on: for text, its ink and outline; for the others,
    /// every row (they are not bounded as closely).
    func rows(touchedBy layer: Layer, canvasWidth: Int, canvasHeight: Int) -> Range<Int> {
        guard case .text(let text) = layer.content, layer.opacity > 0 else {
            return layer.opacity > 0 ? 0..<canvasHeight : 0..<0
        }
        guard let scratch = try? Raster(width: 1, height: 1) else { return 0..<canvasHeight }
        return scratch.draw { cr -> Range<Int> in
            transform(cr, layer.transform, size: layer.size)
            let legible = MemeText.legibleSize(canvasHeight: canvasHeight) / layer.transform.scale
            guard let ink = MemeText.inkBox(text, on: cr, legible: legible) else { return 0..<0 }
            var top = Double.infinity, bottom = -Double.infinity
            for (x, y) in [(ink.x, ink.y), (ink.x + ink.w, ink.y), (ink.x, ink.y + ink.h), (ink.x + ink.w, ink.y + ink.h)] {
                var (deviceX, deviceY) = (x, y)
                cairo_user_to_device(cr, &deviceX, &deviceY)
                top = min(top, deviceY)
                bottom = max(bottom, deviceY)
            }
            // Clamped before whole rows are taken: a layer placed 1e300 pixels away touches none.
            guard top.isFinite, bottom.isFinite else { return 0..<canvasHeight }
            let (upper, lower) = (max(top, -1), min(bottom, Double(canvasHeight) + 1))
            guard upper < lower else { return 0..<0 }
            let first = max(0, Int(upper.rounded(.down)) - 1), last = min(canvasHeight, Int(lower.rounded(.up)) + 1)
            return first < last ? first..<last : 0..<0
        }
    }

    /// Draws `creation` with already decoded images, keyed by blob hash. Filters apply to the
    /// base image, to each layer as drawn, and to the whole picture, in the order added.
    public func compose(_ creation: Creation, images: [String: Raster], skipMissingFilters: Bool = false) throws -> Raster {
        try compose(creation, images: images, skipMissingFilters: skipMissingFilters, keeping: false)
    }

    /// `compose`, `width` pixels wide when given, its filters run at that scale (see
    /// `render`). `keeping`: `images` are the blobs' own pictures,
    /// so what is made from them (the filtered base, scaled copies) may be kept in the cache;
    /// not when an animation's frames stand in for its base.
    func compose(_ creation: Creation, images: [String: Raster], skipMissingFilters: Bool, keeping: Bool,
                 width: Int? = nil) throws -> Raster {
        guard let canvas = creation.canvas else {
            throw RenderError.corrupt(source: "creation \"\(creation.name)\"", format: nil, reason: "it has no canvas")
        }
        let missing = missingFilters(creation)
        if !missing.isEmpty && !skipMissingFilters { throw filters.missing(missing) }
        let size = width.map { Raster.size(of: (canvas.width, canvas.height), scaledToWidth: $0) } ?? (width: canvas.width, height: canvas.height)
        let (scaleX, scaleY) = (Double(size.width) / Double(canvas.width), Double(size.height) / Double(canvas.height))
        // `scale`: how many of the picture's pixels each of `raster`'s stands for, inverted.
        func filtered(_ raster: Raster, _ target: FilterTarget, scale: Double) throws -> Raster {
            try creation.filters(on: target).reduce(raster) { image, applied in
                guard filters.filter(applied.filter) != nil else { return image }
                let params = try filters.current(applied.params, version: applied.paramVersion, for: applied.filter)
                return try filters.apply(applied.filter, params: filters.parameters(params, for: applied.filter, atScale: scale), to: image, warm: warmPlugins)
            }
        }
        let legible = MemeText.legibleSize(canvasHeight: canvas.height)
        var sources = ImageSources(images: images, cache: keeping && width != nil ? cache : nil)
        if let base = creation.baseImage, let raster = images[base.blob] {
            let baseFilters = creation.filters(on: .base)
            if !baseFilters.isEmpty {
                // At preview scale the base is scaled first and filtered there: its pixels
                // are as many as the preview shows, not the photo's millions.
                // The scaled copy is kept on its own too: a slider moved makes new settings, not
                // a new copy of 48 million pixels.
                // Shown smaller than ¾ of its pixels (the canvas's scale times the base's own),
                // it is scaled; otherwise it is filtered whole, with its settings as they are,
                // and kept under the same name as the export's.
                let shown = scaleX * creation.basePlacement.scale
                let previewWidth = shown < 0.75 ? Swift.max(1, Int((Double(raster.width) * shown).rounded(.up))) : nil
                let baseScale = previewWidth.map { Double($0) / Double(raster.width) } ?? 1
                let form = try Self.signature(of: baseFilters) + (previewWidth.map { " at:\($0)" } ?? "")
                let unfiltered = { () throws -> Raster in
                    guard let previewWidth else { return raster }
                    let scale = { try raster.scaled(toWidth: previewWidth) }
                    return keeping ? try cache.raster(for: .init(blob: base.blob, form: " scaled:\(previewWidth)"), make: scale) : try scale()
                }
                let make = { () throws -> Raster in try filtered(try unfiltered(), .base, scale: baseScale) }
                sources.images[base.blob] = keeping ? try cache.raster(for: .init(blob: base.blob, form: form), make: make) : try make()
                sources.forms[base.blob] = form
                sources.sizes[base.blob] = (raster.width, raster.height)
            }
        }
        // Layers with filters are drawn alone first (at the picture's size), so their
        // filters see only them.
        var layerImages = [String: Raster]()
        for layer in creation.layers where !creation.filters(on: .layer(layer.id)).isEmpty {
            let alone = try Raster(width: size.width, height: size.height)
            alone.draw { cr in
                cairo_scale(cr, scaleX, scaleY)
                draw(layer, on: cr, images: sources, legible: legible, keepingText: keeping ? cache : nil)
            }
            layerImages[layer.id] = try filtered(alone, .layer(layer.id), scale: scaleX)
        }
        let picture = try Raster(width: size.width, height: size.height)
        picture.draw { cr in
            cairo_scale(cr, scaleX, scaleY)
            if canvas.background.alpha > 0 {
                MemeText.setSource(cr, canvas.background)
                cairo_paint(cr)
            }
            if let base = creation.baseImage {
                placed(cr, creation.basePlacement, size: (Double(base.width), Double(base.height)), opacity: 1) {
                    sources.paint(base.blob, on: cr)
                }
            }
            for layer in creation.layers {
                if let image = layerImages[layer.id] {
                    cairo_save(cr)
                    cairo_identity_matrix(cr)  // drawn at the picture's own size already
                    cairo_set_source_surface(cr, image.surface, 0, 0)
                    cairo_paint(cr)
                    cairo_restore(cr)
                } else {
                    draw(layer, on: cr, images: sources, legible: legible, keepingText: keeping ? cache : nil)
                }
            }
        }
        return try filtered(picture, .canvas, scale: scaleX)
    }

    /// What a chain of filters does, as a cache key: each filter with its parameters, not the
    /// ids they were applied under (a preview mints a new one every time).
    static func signature(of filters: [AppliedFilter]) throws -> String {
        struct Step: Encodable { var filter: String; var paramVersion: Int; var params: [String: FilterValue] }
        let steps = filters.map { Step(filter: $0.filter, paramVersion: $0.paramVersion, params: $0.params) }
        return "filters:" + String(decoding: try SortedJSONEncoder().encode(steps), as: UTF8.self)
    }

    /// `legible`: the smallest text size worth setting on this canvas. `keepingText`: where
    /// a text layer's pixels are kept for the next render (`TextLayerPixels`), if anywhere.
    func draw(_ layer: Layer, on cr: OpaquePointer, images: ImageSources, legible: Double, keepingText: DecodedImageCache? = nil) {
        let isolated = { if case .drawing = layer.content { return true } else { return false } }()
        placed(cr, layer.transform, size: layer.size, opacity: layer.opacity, isolated: isolated) {
            switch layer.content {
            case .text(let text):
                TextLayerPixels.draw(text, on: cr, legible: legible / layer.transform.scale, keepingIn: keepingText)
            case .image(let content):
                images.paint(content.image.blob, on: cr)
            case .shape(let shape):
                Shapes.draw(shape, on: cr)
            case .drawing(let drawing):
                Shapes.draw(drawing, on: cr)
            }
        }
    }

    /// From the canvas's coordinates to the content's: (0, 0) to (w, h), placed by `transform`.
    private func transform(_ cr: OpaquePointer, _ transform: Transform, size: (w: Double, h: Double)) {
        cairo_translate(cr, transform.x, transform.y)
        cairo_rotate(cr, transform.rotation * .pi / 180)
        cairo_scale(cr, transform.scale * (transform.flipH ? -1 : 1), transform.scale * (transform.flipV ? -1 : 1))
        cairo_translate(cr, -size.w / 2, -size.h / 2)
    }

    /// Runs `body` in the content's own coordinates: (0, 0) to (w, h), placed by `transform`.
    /// Below full opacity, or when `isolated` (drawings, whose eraser may only clear the
    /// layer's own strokes), the content is drawn into a group first.
    private func placed(_ cr: OpaquePointer, _ transform: Transform, size: (w: Double, h: Double), opacity: Double,
                        isolated: Bool = false, _ body: () -> Void) {
        guard opacity > 0 else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        // Each layer starts with no path: the point a caption's text leaves would otherwise
        // be joined by a line to an ellipse's arc (the path is not part of Cairo's saved state).
        cairo_new_path(cr)
        self.transform(cr, transform, size: size)
        let grouped = opacity < 1 || isolated
        if grouped { cairo_push_group(cr) }
        body()
        if grouped {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, opacity)
        }
    }
}
