import Foundation

/// An SVG has no pixels of its own, so Memery chooses the size it is drawn at: its own size
/// (width and height, else its viewBox), scaled so that its longer side is at least 1,024
/// pixels (an icon placed large as a sticker stays sharp) and at most 4,096 (a poster-sized
/// drawing stays a picture Memery can hold). librsvg draws it in the decoding helper, from
/// memory with no base address, so it reaches no file and no network: only what the SVG
/// holds itself (data: addresses) is drawn.
enum SVGPicture {
    static let shortestLongSide = 1_024
    static let longestLongSide = 4_096

    /// The size an SVG of `width` x `height` (its own units) is drawn at.
    static func rasterSize(width: Double, height: Double) -> (width: Int, height: Int)? {
        guard width.isFinite, height.isFinite, width > 0, height > 0 else { return nil }
        let long = max(width, height)
        let scale = min(max(long, Double(shortestLongSide)), Double(longestLongSide)) / long
        return (max(1, Int((width * scale).rounded())), max(1, Int((height * scale).rounded())))
    }

    /// Whether the bytes are an SVG document: text whose first element is `<svg`, after an
    /// XML declaration, comments or a doctype.
    static func isSVG(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let text = prologue(bytes) else { return false }
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: \.isWhitespace)
            if rest.hasPrefix("<svg") { return true }
            guard rest.hasPrefix("<?") || rest.hasPrefix("<!--") || rest.hasPrefix("<!") else { return false }
            let closing = rest.hasPrefix("<!--") ? "-->" : rest.hasPrefix("<?") ? "?>" : ">"
            guard let end = rest.range(of: closing) else { return false }
            // A doctype with an internal subset ends at "]>".
            if rest.hasPrefix("<!DOCTYPE"), let bracket = rest.firstIndex(of: "["), bracket < end.lowerBound {
                guard let subsetEnd = rest.range(of: "]>") else { return false }
                rest = rest[subsetEnd.upperBound...]
            } else {
                rest = rest[end.upperBound...]
            }
        }
    }

    /// Its own size from the `<svg>` element: width and height in absolute units, else the
    /// viewBox's; nil when neither says.
    static func ownSize(_ bytes: UnsafeRawBufferPointer) -> (width: Double, height: Double)? {
        guard let text = prologue(bytes), let start = text.range(of: "<svg") else { return nil }
        guard let end = text[start.upperBound...].firstIndex(of: ">") else { return nil }
        let tag = String(text[start.upperBound..<end])
        let box = attribute("viewBox", in: tag).map { $0.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) } }
        let boxSize = box.flatMap { $0.count == 4 ? (width: $0[2], height: $0[3]) : nil }
        let width = attribute("width", in: tag).flatMap(length), height = attribute("height", in: tag).flatMap(length)
        switch (width, height, boxSize) {
        case let (w?, h?, _): return (w, h)
        case let (w?, nil, box?) where box.width > 0: return (w, w * box.height / box.width)
        case let (nil, h?, box?) where box.height > 0: return (h * box.width / box.height, h)
        case let (_, _, box?): return box
        default: return nil
        }
    }

    /// The first 64 KB as text, when it is text that starts with markup.
    private static func prologue(_ bytes: UnsafeRawBufferPointer) -> String? {
        var slice = bytes.prefix(65_536)
        if slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }  // a UTF-8 byte order mark
        guard let first = slice.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "<") else { return nil }
        return String(decoding: slice, as: UTF8.self)
    }

    private static func attribute(_ name: String, in tag: String) -> String? {
        for quote in ["\"", "'"] {
            let pattern = " \(name)=\(quote)"
            let spaced = tag.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
            if let start = spaced.range(of: pattern), let end = spaced[start.upperBound...].firstIndex(of: Character(quote)) {
                return String(spaced[start.upperBound..<end]).trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// A length in pixels: a plain number or px, pt, pc, mm, cm, in; nil for relative ones.
    private static func length(_ text: String) -> Double? {
        let units: [(String, Double)] = [("px", 1), ("pt", 4.0 / 3), ("pc", 16), ("mm", 96 / 25.4), ("cm", 96 / 2.54), ("in", 96)]
        for (unit, pixels) in units where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count).trimmingCharacters(in: .whitespaces)).map { $0 * pixels }
        }
        return Double(text)
    }
}
