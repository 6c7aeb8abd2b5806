import CPangoCairo

extension Raster {
    /// A copy scaled to `width` pixels wide (the height keeps the aspect, at least 1 pixel),
    /// filtered as Cairo does best: previews in the browser, thumbnails in a gallery.
    public func scaled(toWidth width: Int) throws -> Raster {
        guard width > 0 else { throw RenderError.outOfMemory(width: width, height: height) }
        let height = max(1, Int((Double(self.height) * Double(width) / Double(self.width)).rounded()))
        let scaled = try Raster(width: width, height: height)
        scaled.draw { cr in
            cairo_scale(cr, Double(width) / Double(self.width), Double(height) / Double(self.height))
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
        }
        return scaled
    }
}
