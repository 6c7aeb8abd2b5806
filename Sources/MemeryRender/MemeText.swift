import CPangoCairo
import MemeryCore

/// Sets a text layer in meme style with Pango: the style's face with fallback for other
/// scripts and colour emoji, wrapped to the box at word boundaries (CJK between characters),
/// at the largest size that fits, drawn as a round-joined outline under the fill.
enum MemeText {
    /// Families tried after the style's own: a condensed Latin face, then CJK. Colour emoji
    /// come from fontconfig's own fallback: naming Noto Color Emoji here would make Pango
    /// take digits and '#' from it (they have the Emoji property), drawn as wide emoji.
    static let fallbackFamilies = ["DejaVu Sans Condensed", "Noto Sans CJK JP"]
    /// Below this size text is no longer readable; it is set here even if it overflows.
    static let minimumSize = 4.0

    struct Fit: Equatable {
        var size: Double
        var outline: Double
        /// The laid-out text's logical size in pixels.
        var width: Double
        var height: Double
    }

    /// Draws the text into its box at (0, 0) of the current (layer) coordinates.
    static func draw(_ layer: TextContent, on cr: OpaquePointer) {
        let text = layer.style.uppercase ? layer.text.uppercased() : layer.text
        guard !text.isEmpty, let layout = pango_cairo_create_layout(cr) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        configure(layout, style: layer.style)
        pango_layout_set_text(layout, text, -1)
        let box = Box(x: 0, y: 0, w: layer.width, h: layer.height)
        let fit = fitting(layout, style: layer.style, box: box)

        let x = box.x + fit.outline
        let y: Double
        switch layer.role {
        case .top: y = box.y + fit.outline
        case .bottom: y = box.y + box.h - fit.outline - fit.height
        case .free: y = box.y + (box.h - fit.height) / 2
        }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_move_to(cr, x, y)
        if fit.outline > 0, layer.style.outline.alpha > 0 {
            // Colour emoji are bitmaps with no outline path; they are simply drawn by the fill.
            pango_cairo_layout_path(cr, layout)
            setSource(cr, layer.style.outline)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_line_width(cr, fit.outline * 2)  // half of a stroke lies inside the glyph
            cairo_stroke(cr)
            cairo_move_to(cr, x, y)
        }
        setSource(cr, layer.style.fill)
        pango_cairo_show_layout(cr, layout)
    }

    /// The largest size in [minimumSize, style.maxSize] at which the text fits the box,
    /// found by binary search; the layout is left set to it.
    static func fitting(_ layout: OpaquePointer, style: TextStyle, box: Box) -> Fit {
        func attempt(_ size: Double, breakWords: Bool = false) -> (fits: Bool, fit: Fit) {
            let outline = style.outlineWidth ?? size / 8
            let available = max(1, box.w - 2 * outline)
            setSize(layout, size)
            pango_layout_set_wrap(layout, breakWords ? PANGO_WRAP_WORD_CHAR : PANGO_WRAP_WORD)
            pango_layout_set_width(layout, Int32(available * Double(PANGO_SCALE)))
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_extents(layout, &ink, &logical)
            let width = Double(logical.width) / Double(PANGO_SCALE)
            let height = Double(logical.height) / Double(PANGO_SCALE)
            // A word wider than the line overflows rather than breaking: that is not a fit.
            let widest = widestLine(layout)
            let fits = widest <= available + 0.5 && height + 2 * outline <= box.h + 0.5
            return (fits, Fit(size: size, outline: outline, width: width, height: height))
        }
        let largest = attempt(style.maxSize)
        if largest.fits { return largest.fit }
        var low = minimumSize, high = style.maxSize
        guard attempt(low).fits else { return attempt(low, breakWords: true).fit }
        while high - low > 0.25 {
            let middle = (low + high) / 2
            if attempt(middle).fits { low = middle } else { high = middle }
        }
        return attempt(low).fit
    }

    /// How the layer's text fits its box, and how many of its characters no installed font
    /// has (Pango would draw those as hex boxes).
    static func measure(_ layer: TextContent) -> (fit: Fit, unknownGlyphs: Int)? {
        guard let raster = try? Raster(width: 1, height: 1) else { return nil }
        return raster.draw { cr in
            guard let layout = pango_cairo_create_layout(cr) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            configure(layout, style: layer.style)
            pango_layout_set_text(layout, layer.style.uppercase ? layer.text.uppercased() : layer.text, -1)
            let fit = fitting(layout, style: layer.style, box: Box(x: 0, y: 0, w: layer.width, h: layer.height))
            return (fit, Int(pango_layout_get_unknown_glyphs_count(layout)))
        }
    }

    private static func widestLine(_ layout: OpaquePointer) -> Double {
        var widest: Int32 = 0
        let count = pango_layout_get_line_count(layout)
        for index in 0..<count {
            guard let line = pango_layout_get_line_readonly(layout, index) else { continue }
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_line_get_extents(line, &ink, &logical)
            widest = max(widest, logical.width)
        }
        return Double(widest) / Double(PANGO_SCALE)
    }

    private static func configure(_ layout: OpaquePointer, style: TextStyle) {
        let families = ([style.font] + fallbackFamilies).joined(separator: ",")
        let description = pango_font_description_from_string(families)
        pango_font_description_set_weight(description, PANGO_WEIGHT_BOLD)
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        let alignment: PangoAlignment
        switch style.align {
        case .left: alignment = PANGO_ALIGN_LEFT
        case .center: alignment = PANGO_ALIGN_CENTER
        case .right: alignment = PANGO_ALIGN_RIGHT
        }
        pango_layout_set_alignment(layout, alignment)
        // Unhinted metrics scale smoothly with size, so the search sees a monotone fit.
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(pango_layout_get_context(layout), options)
        cairo_font_options_destroy(options)
        pango_layout_context_changed(layout)
    }

    private static func setSize(_ layout: OpaquePointer, _ size: Double) {
        let current = pango_layout_get_font_description(layout)
        let description = pango_font_description_copy(current)
        pango_font_description_set_absolute_size(description, size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
    }

    static func setSource(_ cr: OpaquePointer, _ color: Color) {
        cairo_set_source_rgba(cr, Double(color.red) / 255, Double(color.green) / 255,
                              Double(color.blue) / 255, Double(color.alpha) / 255)
    }
}
