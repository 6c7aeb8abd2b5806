import Foundation
import MemeryCore

/// An animated base image's frames, each drawn under the creation's layers and through its
/// filters, as an animated GIF or WebP.
extension Compositor {
    /// How many frames the creation's base image holds (1 for a still picture), from the
    /// stored file's header: nothing is decoded.
    public func frameCount(_ creation: Creation, blob: (String) throws -> Data) throws -> Int {
        guard let base = creation.baseImage, Animations.formats.contains(base.format) else { return 1 }
        let header = ImageHeader.read(try blob(base.blob))
        return Animations.isAnimated(header) ? header.frames : 1
    }

    /// The creation as an animation in `format` (GIF or WebP): every frame of its base image
    /// with everything on top, `width` pixels wide when smaller than the canvas, with the
    /// frames' own timing and loops. Nil when the base image is not animated. Frames are
    /// decoded, drawn and encoded one at a time.
    public func renderAnimation(_ creation: Creation, as format: ExportFormat, quality: Int = ExportFormat.defaultQuality,
                                width: Int? = nil, skipMissingFilters: Bool = false, blob: (String) throws -> Data) throws -> Data? {
        guard let base = creation.baseImage, Animations.formats.contains(base.format) else { return nil }
        let data = try blob(base.blob)
        let header = ImageHeader.read(data)
        guard Animations.isAnimated(header), let baseFormat = header.format else { return nil }
        let source = base.sourceName ?? "image \(base.blob.prefix(12))"
        try decoder.admit(header, source: source, fromOutside: false)
        let missing = missingFilters(creation)
        if !missing.isEmpty && !skipMissingFilters { throw filters.missing(missing) }
        var images = [String: Raster]()
        for layer in creation.layers {
            guard case .image(let content) = layer.content, images[content.image.blob] == nil else { continue }
            images[content.image.blob] = try decoder.decodeStored(try blob(content.image.blob), source: content.image.sourceName ?? "image \(content.image.blob.prefix(12))").0
        }
        let frames = try Animations.open(data, format: baseFormat, source: source)
        var encoder: AnimationEncoder?
        while let frame = try frames.next() {
            images[base.blob] = frame.raster
            var picture = images.count == 1 && missing.isEmpty
                ? try compose(creation, drawingOn: frame.raster)
                : try compose(creation, images: images, skipMissingFilters: skipMissingFilters)
            if let width, width < picture.width { picture = try picture.scaled(toWidth: width) }
            if encoder == nil {
                encoder = try AnimationEncoder(format, width: picture.width, height: picture.height, loops: frames.loops, quality: quality)
            }
            try encoder?.add(picture, delay: frame.delay)
        }
        return try encoder?.finish()
    }
}
