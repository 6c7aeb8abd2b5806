import CPangoCairo
import Foundation
import MemeryCore

/// Draws a creation: the base image, then each layer bottom to top.
public struct Compositor: Sendable {
    public var decoder: ImageDecoder

    public init(decoder: ImageDecoder = .fromEnvironment()) {
        self.decoder = decoder
    }

    /// Renders `creation`; `blob` returns the bytes stored under a hash.
    public func render(_ creation: Creation, blob: (String) throws -> Data) throws -> Raster {
        guard let base = creation.baseImage else {
            throw RenderError.corrupt(source: "creation \"\(creation.name)\"", format: nil, reason: "it has no base image")
        }
        let (image, _) = try decoder.decode(try blob(base.blob), source: base.sourceName ?? "the base image")
        return try compose(base: image, layers: creation.textLayers)
    }

    /// Draws text layers over a decoded base image.
    public func compose(base: Raster, layers: [TextLayer]) throws -> Raster {
        let canvas = try Raster(width: base.width, height: base.height)
        canvas.draw { cr in
            cairo_set_source_surface(cr, base.surface, 0, 0)
            cairo_paint(cr)
            for layer in layers {
                MemeText.draw(layer, on: cr)
            }
        }
        return canvas
    }
}
