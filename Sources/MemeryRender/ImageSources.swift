import CPangoCairo
import Foundation

/// The pictures a composition draws, by blob hash, and how each is painted at the scale
/// it shows at.
struct ImageSources {
    var images: [String: Raster] = [:]
    /// What was done to a blob's picture before it came here (its base filters), so that
    /// copies scaled from it are kept under a name of their own.
    var forms: [String: String] = [:]
    /// The picture's own size where `images` holds a smaller copy (a base filtered at
    /// preview scale); it is painted at that size.
    var sizes: [String: (width: Int, height: Int)] = [:]
    /// Where scaled copies are kept; nil draws every picture from its full pixels.
    var cache: DecodedImageCache?

    /// Paints the blob's picture at (0, 0) in the current coordinates, at its own size there.
    /// With a cache (previews), a picture shown at under ¾ of its pixels is painted from a
    /// copy scaled down once and kept: 12 million pixels are not filtered for every preview.
    func paint(_ blob: String, on cr: OpaquePointer) {
        guard let raster = images[blob] else { return }
        let own = sizes[blob] ?? (raster.width, raster.height)
        var source = raster
        if let cache {
            var matrix = cairo_matrix_t()
            cairo_get_matrix(cr, &matrix)
            let shown = (abs(matrix.xx * matrix.yy - matrix.xy * matrix.yx)).squareRoot()
            let width = Int((Double(own.width) * shown).rounded(.up))
            if Double(width) < 0.75 * Double(raster.width), width >= 1,
               let scaled = try? cache.raster(for: .init(blob: blob, form: (forms[blob] ?? "") + " scaled:\(width)"),
                                              make: { try raster.scaled(toWidth: width) }) {
                source = scaled
            }
        }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let smaller = source.width != own.width || source.height != own.height
        if smaller {
            // A scaled copy's edge pixels are whole pixels: padded and clipped to the picture's
            // own rectangle, they stay opaque where the full picture's would.
            cairo_rectangle(cr, 0, 0, Double(own.width), Double(own.height))
            cairo_clip(cr)
        }
        cairo_scale(cr, Double(own.width) / Double(source.width), Double(own.height) / Double(source.height))
        cairo_set_source_surface(cr, source.surface, 0, 0)
        if smaller { cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD) }
        cairo_paint(cr)
    }
}
