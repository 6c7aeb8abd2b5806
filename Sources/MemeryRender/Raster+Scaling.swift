import CPangoCairo

extension Raster {
    /// A copy scaled to `width` pixels wide (the height keeps the aspect, at least 1 pixel),
    /// filtered as Cairo does best: previews in the browser, thumbnails in a gallery.
    public func scaled(toWidth width: Int) throws -> Raster {
        guard width > 0 else { throw RenderError.outOfMemory(width: width, height: height) }
        let height = Self.size(of: (self.width, self.height), scaledToWidth: width).height
        let scaled = try Raster(width: width, height: height)
        scaled.draw { cr in
            cairo_scale(cr, Double(width) / Double(self.width), Double(height) / Double(self.height))
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            // The filter reaches past the edges: padding, not transparency, keeps them opaque.
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_paint(cr)
        }
        return scaled
    }

    /// The size of a picture of `size` scaled to `width` pixels wide: the height keeps the
    /// aspect, and is at least 1 pixel.
    public static func size(of size: (width: Int, height: Int), scaledToWidth width: Int) -> (width: Int, height: Int) {
        (width, max(1, Int((Double(size.height) * Double(width) / Double(size.width)).rounded())))
    }
}
