import Foundation

/// What a file's first bytes say it is when it is certainly not a picture: a web page, a
/// PDF, text... Judged by the bytes, not by a name or a Content-Type (both are often wrong).
/// An upload of notes.txt and a link to a page that shows a picture get the same plain
/// answer ("is text, not a picture"), not advice to convert it to PNG. Anything else goes
/// to the decoder, which names its own refusal.
public enum NotAPicture {
    /// "a web page (HTML)", "JSON data", "text", … or nil when the bytes may be a picture.
    /// The picture formats written as text (SVG, XPM, XBM, PNM) are never called text, so it
    /// may be asked before any signature is looked for (a download).
    public static func kind(of data: Data) -> String? {
        var start = data.prefix(512)
        if start.starts(with: [0xEF, 0xBB, 0xBF]) { start = start.dropFirst(3) }
        let text = String(decoding: start.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }, as: UTF8.self).lowercased()
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.hasPrefix("<head") || text.hasPrefix("<body")
            || text.hasPrefix("<!--") && text.contains("<html") {
            return "a web page (HTML)"
        }
        if text.hasPrefix("<?xml") && !text.contains("svg") { return "an XML document" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "JSON data" }
        if data.starts(with: Array("%PDF".utf8)) { return "a PDF document" }
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "a ZIP archive" }
        if isText(start, cut: data.count > 512), !mayBeATextPicture(text) { return "text" }
        return nil
    }

    /// The picture formats written as text, by what they start with or hold: an SVG (`<svg`
    /// anywhere in the first bytes, after a declaration, a comment or a doctype), XPM and XBM
    /// (`/* XPM */`, `#define`, or a comment first, which gdk-pixbuf's XBM loader also takes)
    /// and plain PNM (`P1` to `P3`, then white space). A downloader asks before it knows the
    /// format, so these must never be called text.
    private static func mayBeATextPicture(_ lowercased: String) -> Bool {
        if lowercased.contains("<svg") || lowercased.hasPrefix("#define") || lowercased.hasPrefix("/*") { return true }
        let bytes = Array(lowercased.utf8.prefix(3))
        return bytes.count == 3 && bytes[0] == UInt8(ascii: "p") && (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(bytes[1])
            && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[2])
    }

    /// Valid UTF-8 (a character cut by the 512-byte window allowed) with no control
    /// character but tab, line ends, form feed and escape: no picture format starts so.
    private static func isText(_ start: Data, cut: Bool) -> Bool {
        guard !start.isEmpty else { return false }
        for byte in start where byte < 0x20 || byte == 0x7F {
            if ![0x09, 0x0A, 0x0C, 0x0D, 0x1B].contains(byte) { return false }
        }
        // A window that ends before the file may end inside a character: up to three of its
        // bytes may be cut off it.
        for dropped in 0...(cut ? min(3, start.count - 1) : 0) {
            if String(validating: start.dropLast(dropped), as: UTF8.self) != nil { return true }
        }
        return false
    }
}
