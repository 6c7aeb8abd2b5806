/// Lays out JSON bytes as Foundation's `.prettyPrinted` does (two spaces a level,
/// `"key" : value`, `",\n"` between members), checking the grammar as it goes, without
/// making values of them: an event's payload is printed as it is stored, its keys in their
/// stored order and its numbers as written. Through JSONSerialization (parse, then write
/// with sorted keys, which compares them through ICU collation) `memery log --json` of
/// 115,000 events took 8.3 s.
package enum PrettyJSON {
    /// As deep as Foundation's parser, which admits events from other machines, reads (and
    /// `PayloadJSONDecoder`): whatever was admitted can be printed; a hostile payload
    /// cannot exhaust the stack.
    package static let maximumDepth = 512

    package struct Invalid: Error, CustomStringConvertible {
        package var offset: Int
        package var reason: String
        package var description: String { "\(reason) at byte \(offset)" }
        package init(offset: Int, reason: String) { self.offset = offset; self.reason = reason }
    }

    /// Whether `json` holds an object (what every event's payload is), before anything is written.
    package static func isObject(_ json: UnsafeRawBufferPointer) -> Bool {
        var reader = Reader(bytes: json)
        if json.starts(with: [0xEF, 0xBB, 0xBF]) { reader.at = 3 }
        reader.skipSpace()
        return reader.next == UInt8(ascii: "{")
    }

    /// Appends `json` (one value, any whitespace) laid out as the member of an object
    /// `level` levels deep would be: its nested lines indented from there.
    package static func append(_ json: UnsafeRawBufferPointer, level: Int, to out: inout [UInt8]) throws {
        var reader = Reader(bytes: json)
        if json.starts(with: [0xEF, 0xBB, 0xBF]) { reader.at = 3 }  // a UTF-8 byte order mark, which Foundation skips
        reader.skipSpace()
        try reader.value(level: level, depth: 0, into: &out)
        reader.skipSpace()
        guard reader.at == json.count else { throw reader.invalid("more after the value") }
        // Only strings hold bytes past ASCII, and they are copied whole: check them once here.
        if reader.sawNonASCII, String(validating: json, as: UTF8.self) == nil {
            throw Invalid(offset: 0, reason: "not UTF-8")
        }
    }

    package static func indent(_ level: Int, into out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }
}

private struct Reader {
    let bytes: UnsafeRawBufferPointer
    var at = 0
    var sawNonASCII = false

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func invalid(_ reason: String) -> PrettyJSON.Invalid { PrettyJSON.Invalid(offset: at, reason: reason) }

    var next: UInt8? { at < bytes.count ? bytes[at] : nil }

    mutating func skipSpace() {
        while let byte = next, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { at += 1 }
    }

    mutating func value(level: Int, depth: Int, into out: inout [UInt8]) throws(PrettyJSON.Invalid) {
        switch next {
        case UInt8(ascii: "{"): try container(closedBy: UInt8(ascii: "}"), level: level, depth: depth, into: &out)
        case UInt8(ascii: "["): try container(closedBy: UInt8(ascii: "]"), level: level, depth: depth, into: &out)
        case UInt8(ascii: "\""): try string(into: &out)
        case UInt8(ascii: "t"): try literal("true", into: &out)
        case UInt8(ascii: "f"): try literal("false", into: &out)
        case UInt8(ascii: "n"): try literal("null", into: &out)
        case .some(let byte) where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
            try number(into: &out)
        case nil: throw invalid("the value ends early")
        default: throw invalid("not the start of a value")
        }
    }

    /// An object or an array; an empty one is laid out as Foundation lays it out, with an
    /// empty line inside.
    mutating func container(closedBy close: UInt8, level: Int, depth: Int, into out: inout [UInt8]) throws(PrettyJSON.Invalid) {
        guard depth < PrettyJSON.maximumDepth else { throw invalid("nested deeper than \(PrettyJSON.maximumDepth)") }
        let isObject = close == UInt8(ascii: "}")
        out.append(bytes[at])
        out.append(0x0A)
        at += 1
        skipSpace()
        if next == close {
            at += 1
        } else {
            while true {
                PrettyJSON.indent(level + 1, into: &out)
                if isObject {
                    guard next == UInt8(ascii: "\"") else { throw invalid("a member's name must be a string") }
                    try string(into: &out)
                    skipSpace()
                    guard next == UInt8(ascii: ":") else { throw invalid("a member's name must be followed by ':'") }
                    at += 1
                    skipSpace()
                    out.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
                }
                try value(level: level + 1, depth: depth + 1, into: &out)
                skipSpace()
                if next == UInt8(ascii: ",") {
                    at += 1
                    skipSpace()
                    out.append(UInt8(ascii: ","))
                    out.append(0x0A)
                    continue
                }
                guard next == close else { throw invalid(isObject ? "expected ',' or '}'" : "expected ',' or ']'") }
                at += 1
                break
            }
        }
        out.append(0x0A)
        PrettyJSON.indent(level, into: &out)
        out.append(close)
    }

    /// Copied as written, escapes included, once they are checked.
    mutating func string(into out: inout [UInt8]) throws(PrettyJSON.Invalid) {
        let start = at
        at += 1
        while true {
            guard let byte = next else { at = start; throw invalid("a string is not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                at += 1
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<at]))
                return
            case UInt8(ascii: "\\"):
                at += 1
                switch next {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    at += 1
                case UInt8(ascii: "u"):
                    at += 1
                    for _ in 0..<4 {
                        guard let digit = next, digit.isHexDigit else { throw invalid("a \\u escape needs four hex digits") }
                        at += 1
                    }
                default: throw invalid("not an escape JSON has")
                }
            case 0..<0x20: throw invalid("a control character inside a string")
            default:
                if byte >= 0x80 { sawNonASCII = true }
                at += 1
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, copied as written.
    mutating func number(into out: inout [UInt8]) throws(PrettyJSON.Invalid) {
        let start = at
        if next == UInt8(ascii: "-") { at += 1 }
        if next == UInt8(ascii: "0") {
            at += 1
        } else {
            guard digits() > 0 else { throw invalid("a number needs a digit") }
        }
        if next == UInt8(ascii: ".") {
            at += 1
            guard digits() > 0 else { throw invalid("a number needs a digit after '.'") }
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            at += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else { throw invalid("a number needs a digit in its exponent") }
        }
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<at]))
    }

    private mutating func digits() -> Int {
        let start = at
        while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { at += 1 }
        return at - start
    }

    mutating func literal(_ word: StaticString, into out: inout [UInt8]) throws(PrettyJSON.Invalid) {
        let spelled = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard at + spelled.count <= bytes.count, spelled.elementsEqual(bytes[at..<at + spelled.count]) else {
            throw invalid("not a value JSON has")
        }
        at += spelled.count
        out.append(contentsOf: spelled)
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
