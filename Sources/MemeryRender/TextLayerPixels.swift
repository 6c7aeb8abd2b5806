import CPangoCairo
import Foundation
import MemeryCore

/// A text layer drawn through pixels of its own: set by Pango and outlined by Cairo into a
/// surface as big as its ink, on the picture's own pixel grid, then painted on. A long-lived
/// process keeps those pixels (`DecodedImageCache`), so an edit's new preview does not set
/// and stroke again the captions the edit left alone: stroking the outline is most of what
/// drawing a caption costs (two captions on a 600x400 preview: 2.9 ms of 3.3, Cairo's stroker).
///
/// Text is drawn this way whether its pixels are kept or not, so a picture comes out the
/// same bytes from a warm cache, a cold one, or none (a one-shot command keeps nothing);
/// only when there is no memory for a layer's own pixels is it drawn straight on. Its own
/// pixels cost memory while drawn: the box of its ink on the picture (a caption across a
/// 12-megapixel photo, about 10 MB).
/// Drawing the outline and the fill on a clear surface and painting that is the same
/// picture as drawing them straight on, since painting over is associative; only the
/// rounding of the last bit of a channel may differ.
enum TextLayerPixels {
    /// What the pixels depend on: the layer, the smallest size worth setting, where the
    /// layer's coordinates sit on the device's pixels (Cairo's matrix, whole) and the pixels
    /// that may be drawn on (the clip, in device pixels).
    struct Placement: Hashable, Sendable {
        var layer: TextContent
        var legible: Double
        var matrix: [Double]
        var clip: [Double]
    }

    /// Draws `layer` on `cr` in the layer's coordinates, as `MemeText.draw` would, with its
    /// pixels from `cache` when kept there, and kept there when made.
    static func draw(_ layer: TextContent, on cr: OpaquePointer, legible: Double, keepingIn cache: DecodedImageCache?) {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        var clip = (x1: 0.0, y1: 0.0, x2: 0.0, y2: 0.0)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_clip_extents(cr, &clip.x1, &clip.y1, &clip.x2, &clip.y2)
        cairo_restore(cr)
        let placement = Placement(layer: layer, legible: legible, matrix: [matrix.xx, matrix.yx, matrix.xy, matrix.yy, matrix.x0, matrix.y0],
                                  clip: [clip.x1, clip.y1, clip.x2, clip.y2])
        let placed: DecodedImageCache.Placed?
        do {
            let make = { try set(layer, matrix: matrix, clip: clip, legible: legible) }
            if let cache { placed = try cache.placed(for: .init(text: placement), make: make) } else { placed = try make() }
        } catch {
            // No memory for the layer's own pixels: drawn straight on, as before them.
            MemeText.draw(layer, on: cr, legible: legible)
            return
        }
        guard let placed else { return }
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, placed.raster.surface, Double(placed.x), Double(placed.y))
        cairo_paint(cr)
        cairo_restore(cr)
        withExtendedLifetime(placed.raster) {}
    }

    /// The layer's pixels and where they go in device pixels; nil when it draws nothing
    /// inside the clip.
    private static func set(_ layer: TextContent, matrix: cairo_matrix_t, clip: (x1: Double, y1: Double, x2: Double, y2: Double),
                            legible: Double) throws -> DecodedImageCache.Placed? {
        let scratch = try Raster(width: 1, height: 1)
        return try scratch.draw { scratchContext -> DecodedImageCache.Placed? in
            var matrix = matrix
            cairo_set_matrix(scratchContext, &matrix)
            guard let laid = MemeText.laidOut(layer, on: scratchContext, legible: legible) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(laid.layout)) }
            // The ink box's corners on the device, rounded out to whole pixels.
            var left = Double.infinity, top = Double.infinity, right = -Double.infinity, bottom = -Double.infinity
            let ink = laid.ink
            for (x, y) in [(ink.x, ink.y), (ink.x + ink.w, ink.y), (ink.x, ink.y + ink.h), (ink.x + ink.w, ink.y + ink.h)] {
                var (deviceX, deviceY) = (x, y)
                cairo_matrix_transform_point(&matrix, &deviceX, &deviceY)
                left = min(left, deviceX)
                right = max(right, deviceX)
                top = min(top, deviceY)
                bottom = max(bottom, deviceY)
            }
            // Clamped to the clip before whole pixels are taken: a layer placed 1e300 pixels
            // away (an event from elsewhere is not bounded by the editor's checks) draws nothing.
            guard [left, right, top, bottom].allSatisfy(\.isFinite) else { return nil }
            let (low, high) = (max(left, clip.x1), min(right, clip.x2))
            let (upper, lower) = (max(top, clip.y1), min(bottom, clip.y2))
            guard low < high, upper < lower else { return nil }
            let x0 = Int(low.rounded(.down)), x1 = Int(high.rounded(.up))
            let y0 = Int(upper.rounded(.down)), y1 = Int(lower.rounded(.up))
            let raster = try Raster(width: x1 - x0, height: y1 - y0)
            raster.draw { cr in
                var shifted = matrix
                shifted.x0 -= Double(x0)
                shifted.y0 -= Double(y0)
                cairo_set_matrix(cr, &shifted)
                MemeText.draw(laid, style: layer.style, on: cr)
            }
            cairo_surface_flush(raster.surface)
            return DecodedImageCache.Placed(raster: raster, x: x0, y: y0)
        }
    }
}
