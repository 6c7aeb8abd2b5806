import CPangoCairo
import MemeryCore

/// The font families installed here that can set words (fontconfig's, through Pango), and
/// the nearest of them to a name that is not installed.
public enum FontCatalog {
    /// Every family that has Latin letters, sorted as people read them; read once.
    public static let families: [String] = readFamilies()

    /// The family's own spelling when it is installed (names match whatever their case, and
    /// a family's other names count: "DejaVu Sans Condensed" is one of DejaVu Sans's).
    public static func installed(_ name: String) -> String? {
        let key = name.trimmingCharacters(in: .whitespaces)
        if let listed = (families + genericFamilies).first(where: { $0.lowercased() == key.lowercased() }) { return listed }
        return fontconfigFamilyName(key)
    }

    /// The name as fontconfig spells it when some installed font has it among its family names.
    private static func fontconfigFamilyName(_ name: String) -> String? {
        guard !name.isEmpty, let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = name.withCString { FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        guard let objects = FcObjectSetCreate() else { return nil }
        defer { FcObjectSetDestroy(objects) }
        _ = FcObjectSetAdd(objects, FC_FAMILY)
        guard let fonts = FcFontList(nil, pattern, objects) else { return nil }
        defer { FcFontSetDestroy(fonts) }
        for index in 0..<Int(fonts.pointee.nfont) {
            guard let font = fonts.pointee.fonts[index] else { continue }
            var n: Int32 = 0
            var value: UnsafeMutablePointer<FcChar8>?
            while FcPatternGetString(font, FC_FAMILY, n, &value) == FcResultMatch, let value {
                let family = String(cString: value)
                if family.lowercased() == name.lowercased() { return family }
                n += 1
            }
        }
        return nil
    }

    /// fontconfig's aliases, which always resolve to something.
    public static let genericFamilies = ["Sans", "Serif", "Monospace", "sans-serif", "monospace", "serif", "system-ui"]

    /// Installed families a person typing `name` most likely meant: the usual stand-ins for
    /// well-known faces that Debian does not ship, then those sharing a word, then those
    /// spelled most alike.
    public static func closest(to name: String, limit: Int = 3) -> [String] {
        let key = name.lowercased()
        var picks = standIns.filter { key.contains($0.key) }.flatMap(\.value).filter { families.contains($0) }
        let words = Set(key.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
        let ranked = families.sorted { a, b in
            let (sa, sb) = (sharedWords(a, words), sharedWords(b, words))
            if sa != sb { return sa > sb }
            return distance(a.lowercased(), key) < distance(b.lowercased(), key)
        }
        for family in ranked where !picks.contains(family) { picks.append(family) }
        return Array(picks.prefix(limit))
    }

    /// Faces people ask for by name, and what stands in for them here.
    static let standIns: [String: [String]] = [
        "impact": [TextStyle.defaultFont, TextStyle.mixedCaseFont],
        "anton": [TextStyle.defaultFont],
        "oswald": [TextStyle.defaultFont],
        "comic": ["Comic Neue"],
        "arial": [TextStyle.mixedCaseFont, "DejaVu Sans"],
        "helvetica": [TextStyle.mixedCaseFont, "DejaVu Sans"],
        "times": ["DejaVu Serif"],
        "georgia": ["DejaVu Serif"],
        "courier": ["DejaVu Sans Mono"],
    ]

    private static func sharedWords(_ family: String, _ words: Set<String>) -> Int {
        family.lowercased().split(separator: " ").filter { words.contains(String($0)) }.count
    }

    /// Levenshtein distance, for short names.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }

    private static func readFamilies() -> [String] {
        guard let map = pango_cairo_font_map_new() else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(map)) }
        guard let context = pango_font_map_create_context(map) else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        var list: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
        var count: Int32 = 0
        pango_font_map_list_families(map, &list, &count)
        defer { g_free(list) }
        var names = Set<String>()
        for index in 0..<Int(count) {
            guard let family = list?[index], let cName = pango_font_family_get_name(family) else { continue }
            let name = String(cString: cName)
            if genericFamilies.contains(where: { $0.lowercased() == name.lowercased() }) { continue }
            // Colour emoji and symbol fonts are families too; they cannot set a word.
            let description = pango_font_description_new()
            pango_font_description_set_family(description, name)
            pango_font_description_set_absolute_size(description, 20 * Double(PANGO_SCALE))
            defer { pango_font_description_free(description) }
            guard let font = pango_font_map_load_font(map, context, description) else { continue }
            defer { g_object_unref(UnsafeMutableRawPointer(font)) }
            if pango_font_has_char(font, 0x41) != 0 && pango_font_has_char(font, 0x61) != 0 { names.insert(name) }
        }
        return names.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }
    }
}
