import CPangoCairo
import MemeryCore

/// Sets a text layer in meme style with Pango: the style's face with fallback for other
/// scripts and colour emoji, at the largest size that fits the box, drawn as a thin
/// round-joined outline under the fill so that each letter stays distinct and its holes open.
/// One line, or two broken at the most balanced space, is preferred to more lines; a word too
/// long for the box at a legible size breaks inside rather than shrinking further.
enum MemeText {
    /// Families tried after the style's own: a condensed Latin face, then CJK. Colour emoji
    /// come from fontconfig's own fallback: naming Noto Color Emoji here would make Pango
    /// take digits and '#' from it (they have the Emoji property), drawn as wide emoji.
    static let fallbackFamilies = ["DejaVu Sans Condensed", "Noto Sans CJK JP"]
    /// Families set in their heaviest weight rather than bold: the mixed-case meme face.
    static let heavyFamilies: Set = [TextStyle.mixedCaseFont]
    /// The outline's share of the size when the style names no width: about memegen's
    /// (3 px at 66 px); a heavier one merges neighbouring letters into one black band.
    static let outlineShare = 1.0 / 20
    /// More lines than two are taken only when they allow a size this much larger.
    static let fewerLinesPreference = 0.9
    /// Below this nothing is set: text that does not fit even so overflows its box.
    static let smallestSize = 4.0

    /// The smallest size worth setting on a canvas this tall: about 1/40 of its height, and
    /// never under 10 px. Below it a word breaks inside rather than shrinking.
    static func legibleSize(canvasHeight: Int) -> Double { max(10, Double(canvasHeight) / 40) }

    struct Fit: Equatable {
        var size: Double
        var outline: Double
        /// The laid-out text's logical size in pixels.
        var width: Double
        var height: Double
        var lines: Int
        /// Where the text starts across the box, from its left edge: lines set whole are
        /// aligned here, wrapped ones by Pango within the line width.
        var left: Double
        /// How the text was set: where a balanced line break went, and whether words broke.
        var setting: Setting
    }

    /// The words as laid out: `text` may carry a line break the fit chose; nil `wrap` sets
    /// each line whole.
    struct Setting: Equatable {
        var text: String
        var wrap: PangoWrapMode?
    }

    /// Draws the text into its box at (0, 0) of the current (layer) coordinates, never
    /// smaller than `legible` unless the box itself is smaller. Nothing is drawn outside the
    /// text's ink and outline (`inkBox`), so what a layer can touch is known before drawing.
    static func draw(_ layer: TextContent, on cr: OpaquePointer, legible: Double) {
        guard let set = laidOut(layer, on: cr, legible: legible) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(set.layout)) }
        draw(set, style: layer.style, on: cr)
    }

    /// Draws text laid out already, perhaps on another context whose transform differs by
    /// a translation only (`pango_cairo_update_layout` lays it out again if more changed).
    static func draw(_ set: LaidOut, style: TextStyle, on cr: OpaquePointer) {
        pango_cairo_update_layout(cr, set.layout)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, set.ink.x, set.ink.y, set.ink.w, set.ink.h)
        cairo_clip(cr)
        cairo_move_to(cr, set.x, set.y)
        if set.fit.outline > 0, style.outline.alpha > 0 {
            // Colour emoji are bitmaps with no outline path; they are simply drawn by the fill.
            pango_cairo_layout_path(cr, set.layout)
            setSource(cr, style.outline)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_line_width(cr, set.fit.outline * 2)  // half of a stroke lies inside the glyph
            cairo_stroke(cr)
            cairo_move_to(cr, set.x, set.y)
        }
        setSource(cr, style.fill)
        pango_cairo_show_layout(cr, set.layout)
    }

    /// Where the text's ink and outline can fall, in the layer's coordinates on `cr` (with the
    /// transform it will be drawn with): its glyphs' ink rectangle grown by the outline and a
    /// pixel of antialiasing. Nil when there is nothing to draw.
    static func inkBox(_ layer: TextContent, on cr: OpaquePointer, legible: Double) -> Box? {
        guard let set = laidOut(layer, on: cr, legible: legible) else { return nil }
        g_object_unref(UnsafeMutableRawPointer(set.layout))
        return set.ink
    }

    /// A layout set to its fit, where it starts, and its ink box (`inkBox`).
    struct LaidOut {
        var layout: OpaquePointer
        var fit: Fit
        var x, y: Double
        var ink: Box
    }

    /// The layer's layout set to its fit on `cr`; the caller unrefs the layout.
    static func laidOut(_ layer: TextContent, on cr: OpaquePointer, legible: Double) -> LaidOut? {
        let text = shown(layer)
        guard !text.isEmpty, let layout = pango_cairo_create_layout(cr) else { return nil }
        configure(layout, style: layer.style)
        let box = Box(x: 0, y: 0, w: layer.width, h: layer.height)
        let fit = fitting(layout, text: text, style: layer.style, box: box, legible: legible)
        let x = box.x + fit.left
        let y: Double
        switch layer.role {
        case .top: y = box.y + fit.outline
        case .bottom: y = box.y + box.h - fit.outline - fit.height
        case .free: y = box.y + (box.h - fit.height) / 2
        }
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        let margin = fit.outline + 1
        let inkBox = Box(x: x + Double(ink.x) - margin, y: y + Double(ink.y) - margin,
                         w: Double(ink.width) + 2 * margin, h: Double(ink.height) + 2 * margin)
        return LaidOut(layout: layout, fit: fit, x: x, y: y, ink: inkBox)
    }

    static func shown(_ layer: TextContent) -> String { layer.style.uppercase ? layer.text.uppercased() : layer.text }

    /// The fit chosen among the ways of setting the text (in one line; in two lines broken at
    /// the most balanced space; wrapped at words; broken inside words when nothing else fits),
    /// each at the largest size in [legible, style.maxSize] that fits. Fewer lines win unless
    /// more allow a size larger by more than `fewerLinesPreference`. Only when not even broken
    /// words fit at the legible size (a small box on a small canvas) is it set smaller. The
    /// layout is left set to the fit.
    static func fitting(_ layout: OpaquePointer, text: String, style: TextStyle, box: Box, legible: Double) -> Fit {
        // Fewest lines first: among equal sizes the first wins.
        let whole = Setting(text: text, wrap: nil)
        // The common caption: set whole at the style's size, nothing can beat it, so neither
        // the balanced break nor wrapping is worth laying out (this runs on every render).
        let atFullSize = attempt(layout, whole, size: style.maxSize, style: style, box: box)
        if atFullSize.fits { return atFullSize.fit }
        var settings = [whole]
        if let balanced = balancedTwoLines(layout, text: text) { settings.append(balanced) }
        settings.append(Setting(text: text, wrap: PANGO_WRAP_WORD))
        let broken = Setting(text: text, wrap: PANGO_WRAP_WORD_CHAR)
        func best(from low: Double) -> Fit? {
            var candidates = settings.compactMap { largest(layout, $0, style: style, box: box, from: low) }
            if candidates.isEmpty, let fit = largest(layout, broken, style: style, box: box, from: low) { candidates.append(fit) }
            guard let largestSize = candidates.map(\.size).max() else { return nil }
            return candidates.filter { $0.size >= largestSize * fewerLinesPreference }
                .min { ($0.lines, -$0.size) < ($1.lines, -$1.size) }
        }
        let smallest = min(smallestSize, style.maxSize)
        let chosen = best(from: max(smallest, min(legible, style.maxSize))) ?? best(from: smallest)
        // Too many words for the box even at the smallest size: they overflow.
        return attempt(layout, chosen?.setting ?? broken, size: chosen?.size ?? smallest, style: style, box: box).fit
    }

    /// The largest size from `low` up to the style's that fits, by binary search; nil when
    /// not even `low` fits.
    private static func largest(_ layout: OpaquePointer, _ setting: Setting, style: TextStyle, box: Box, from low: Double) -> Fit? {
        let top = attempt(layout, setting, size: style.maxSize, style: style, box: box)
        if top.fits { return top.fit }
        guard attempt(layout, setting, size: low, style: style, box: box).fits else { return nil }
        var low = low, high = style.maxSize
        while high - low > 0.25 {
            let middle = (low + high) / 2
            if attempt(layout, setting, size: middle, style: style, box: box).fits { low = middle } else { high = middle }
        }
        return attempt(layout, setting, size: low, style: style, box: box).fit
    }

    private static func attempt(_ layout: OpaquePointer, _ setting: Setting, size: Double, style: TextStyle, box: Box) -> (fits: Bool, fit: Fit) {
        let outline = style.outlineWidth ?? max(1, size * outlineShare)
        let available = max(1, box.w - 2 * outline)
        setSize(layout, size)
        pango_layout_set_text(layout, setting.text, -1)
        if let wrap = setting.wrap {
            pango_layout_set_wrap(layout, wrap)
            pango_layout_set_width(layout, Int32(available * Double(PANGO_SCALE)))
        } else {
            pango_layout_set_width(layout, -1)
        }
        spaceLines(layout, apart: 2 * outline + 2)  // and an antialiased pixel each side
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let width = Double(logical.width) / Double(PANGO_SCALE)
        let height = Double(logical.height) / Double(PANGO_SCALE)
        // A word wider than the line overflows rather than breaking: that is not a fit.
        let fits = widestLine(layout) <= available + 0.5 && height + 2 * outline <= box.h + 0.5
        var left = outline
        if setting.wrap == nil {
            switch style.align {
            case .left: break
            case .center: left += (available - width) / 2
            case .right: left += available - width
            }
        }
        return (fits, Fit(size: size, outline: outline, width: width, height: height,
                          lines: Int(pango_layout_get_line_count(layout)), left: left, setting: setting))
    }

    /// Spaces the lines so that the ink of each is at least `gap` pixels from the next, so
    /// their outlines never touch (a descender over an accented capital can meet it).
    private static func spaceLines(_ layout: OpaquePointer, apart gap: Double) {
        pango_layout_set_spacing(layout, 0)
        guard pango_layout_get_line_count(layout) > 1, let iter = pango_layout_get_iter(layout) else { return }
        defer { pango_layout_iter_free(iter) }
        var closest = Int32.max, previousBottom: Int32?
        repeat {
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, &ink, &logical)
            guard ink.height > 0 else { continue }  // an empty line has no ink to touch
            if let previousBottom { closest = min(closest, ink.y - previousBottom) }
            previousBottom = ink.y + ink.height
        } while pango_layout_iter_next_line(iter) != 0
        let needed = Int32(gap * Double(PANGO_SCALE))
        if closest != .max, closest < needed { pango_layout_set_spacing(layout, needed - closest) }
    }

    /// The text in two lines broken at the space that makes the longer line shortest, or nil
    /// when it has no space between words (or already has lines of its own).
    private static func balancedTwoLines(_ layout: OpaquePointer, text: String) -> Setting? {
        guard !text.contains("\n") else { return nil }
        let spaces = text.indices.filter { text[$0] == " " && $0 != text.startIndex && text.index(after: $0) != text.endIndex }
        var best: (width: Double, setting: Setting)?
        setSize(layout, 100)
        pango_layout_set_width(layout, -1)
        for space in spaces.prefix(64) {
            let candidate = text.replacingCharacters(in: space...space, with: "\n")
            pango_layout_set_text(layout, candidate, -1)
            let width = widestLine(layout)
            if best == nil || width < best!.width { best = (width, Setting(text: candidate, wrap: nil)) }
        }
        return best?.setting
    }

    /// How the layer's text fits its box, and how many of its characters no installed font
    /// has (Pango would draw those as hex boxes).
    static func measure(_ layer: TextContent, legible: Double = legibleSize(canvasHeight: 0)) -> (fit: Fit, unknownGlyphs: Int)? {
        guard let raster = try? Raster(width: 1, height: 1) else { return nil }
        return raster.draw { cr in
            guard let layout = pango_cairo_create_layout(cr) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            configure(layout, style: layer.style)
            let fit = fitting(layout, text: shown(layer), style: layer.style, box: Box(x: 0, y: 0, w: layer.width, h: layer.height),
                              legible: legible)
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
        let families = ([style.face] + fallbackFamilies).joined(separator: ",")
        let description = pango_font_description_from_string(families)
        pango_font_description_set_weight(description, heavyFamilies.contains(style.face) ? PANGO_WEIGHT_HEAVY : PANGO_WEIGHT_BOLD)
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
