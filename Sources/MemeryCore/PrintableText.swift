/// Words a person wrote (a caption, a file's name), made safe to print in a terminal.
/// A caption can come from another device through the hub: printed raw, an escape
/// sequence in it would drive the reader's terminal (clear it, retitle it, hide lines), and
/// a bidirectional override would show text in an order other than its bytes'.
/// So these are spelled out as escapes, the way Swift writes them in a string literal:
/// `\n`, `\t`, `\r`, and `\u{1B}` for the rest; a backslash and a double quote are escaped
/// too, so that what is printed says one text only.
public enum PrintableText {
    /// `text` in double quotes, escaped; cut to `limit` characters (before escaping)
    /// and ended by "…" when longer.
    public static func quoted(_ text: String, limit: Int? = nil) -> String {
        var shown = Substring(text)
        var cut = false
        if let limit, text.count > limit {
            shown = text.prefix(limit - 1)
            cut = true
        }
        return "\"" + escaped(shown) + (cut ? "…" : "") + "\""
    }

    /// `text` with every control character, bidirectional control, backslash and double
    /// quote escaped; the text itself when it has none (the common case: no copy made).
    public static func escaped<Text: StringProtocol>(_ text: Text) -> String { spelling(text, where: needsEscape) }

    /// `text` for a column or a line of its own, where it is not quoted: control characters
    /// and bidirectional controls escaped as in `escaped`, but a backslash and a double quote
    /// left as they are, so that `Dad's "best" joke` prints as it was written.
    public static func unquoted<Text: StringProtocol>(_ text: Text) -> String { spelling(text, where: isControl) }

    private static func spelling<Text: StringProtocol>(_ text: Text, where escapes: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: escapes) else { return String(text) }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if escapes(scalar) { out += spelled(scalar) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    private static func spelled(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\\": "\\\\"
        case "\"": "\\\""
        case "\n": "\\n"
        case "\t": "\\t"
        case "\r": "\\r"
        default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// A control character or a bidirectional control: what neither form prints raw.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\\" && scalar != "\"" && needsEscape(scalar)
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x5C, 0x22: true  // backslash, double quote
        case 0..<0x20, 0x7F..<0xA0: true  // C0, DEL, C1
        case 0x200E, 0x200F: true  // bidirectional marks
        default: isBidirectionalOverride(scalar)
        }
    }

    /// An embedding, override or isolate (U+202A-202E, U+2066-2069): what shows text in an
    /// order other than its bytes'. The marks (U+200E, U+200F) are not: right-to-left words use them.
    public static func isBidirectionalOverride(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
