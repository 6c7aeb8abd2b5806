import CPangoCairo
import MemeryCore

/// An emoji drawn by the installed colour emoji font (Noto Color Emoji) into a picture with
/// a transparent background, to be stored as a blob and added like any sticker: every
/// machine, and builds that know nothing of emoji, then draw the same pixels.
public enum EmojiPicture {
    /// The em size the emoji is drawn at: a picture about 256 px across (Noto's ink is wider
    /// than its em), large enough for a sticker on a photo; Noto's bitmaps are 136 px and
    /// Cairo scales them smoothly.
    public static let defaultSize = 200
    static let family = "Noto Color Emoji"

    public static func render(_ text: String, size: Int = defaultSize) throws -> Raster {
        try Emoji.check(text)
        let probe = try Raster(width: 1, height: 1)
        let (ink, unknown) = probe.draw { cr -> (PangoRectangle, Int32) in
            guard let layout = makeLayout(cr, text, size) else { return (PangoRectangle(), 1) }
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_pixel_extents(layout, &ink, &logical)
            return (ink, pango_layout_get_unknown_glyphs_count(layout))
        }
        guard unknown == 0, ink.width > 0, ink.height > 0 else { throw RenderError.emojiUnavailable(text) }
        let padding: Int32 = 2
        let raster = try Raster(width: Int(ink.width + 2 * padding), height: Int(ink.height + 2 * padding))
        raster.draw { cr in
            guard let layout = makeLayout(cr, text, size) else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            cairo_move_to(cr, Double(padding - ink.x), Double(padding - ink.y))
            pango_cairo_show_layout(cr, layout)
        }
        cairo_surface_flush(raster.surface)
        return raster
    }

    private static func makeLayout(_ cr: OpaquePointer, _ text: String, _ size: Int) -> OpaquePointer? {
        guard let layout = pango_cairo_create_layout(cr) else { return nil }
        let description = pango_font_description_from_string(family)
        pango_font_description_set_absolute_size(description, Double(size) * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        // No fallback to another font: a character Noto lacks must count as unknown.
        let attributes = pango_attr_list_new()
        pango_attr_list_insert(attributes, pango_attr_fallback_new(0))
        pango_layout_set_attributes(layout, attributes)
        pango_attr_list_unref(attributes)
        pango_layout_set_text(layout, text, -1)
        return layout
    }
}
