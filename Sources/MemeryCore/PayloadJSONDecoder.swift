import Foundation

/// Decodes `Decodable` values from JSON, several times faster than Foundation's JSONDecoder
/// on event payloads: the text is parsed once into a flat list of tokens that point into
/// the bytes, and containers find their members on that list; strings and numbers are only
/// made when asked for, and a leaf (a string, number, bool or colour) is read without a
/// decoder of its own. Replaying a long history, and opening a large state, is mostly this.
///
/// Strict JSON (RFC 8259): one value, nothing after it but white space, at most 512 levels
/// deep. Like Foundation, Data is read from base64 and URL from a string, an integer is
/// also read from a number with an integral value ("2.0", "1e3"), and a missing key or a
/// value of the wrong kind is a `DecodingError` naming the path to it.
public struct PayloadJSONDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { bytes in
            let tape = try JSONTape(parsing: bytes)
            return try TapeDecoder(tape: tape, index: 0, path: nil).decodeValue(T.self)
        }
    }
}

// MARK: The tape

/// Every value of a JSON text in document order. A container's token counts its members (an
/// object's keys are string tokens before each value) and gives the index past its last one.
final class JSONTape {
    enum Kind: UInt8 { case object, array, string, escapedString, number, `true`, `false`, null }

    struct Token {
        var kind: Kind
        /// Strings and numbers: their bytes (a string's without the quotes). Containers: the
        /// member or element count in `length`, and the index past the container in `end`.
        var start: Int
        var length: Int
        var end: Int
    }

    let bytes: UnsafeRawBufferPointer
    /// A `let`: reading a class's `var` costs a run-time exclusivity check every time.
    let tokens: [Token]

    init(parsing bytes: UnsafeRawBufferPointer) throws {
        self.bytes = bytes
        var tokens = [Token]()
        tokens.reserveCapacity(max(8, bytes.count / 8))
        var parser = JSONParser(bytes: bytes)
        try parser.value(into: &tokens, depth: 0)
        parser.skipSpace()
        guard parser.offset == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        self.tokens = tokens
    }

    /// Tokens parsed already, of one value in `bytes` (`PlainPayloadReader.decoded`).
    init(bytes: UnsafeRawBufferPointer, tokens: [Token]) {
        self.bytes = bytes
        self.tokens = tokens
    }

    /// The index of the token after the value at `index`.
    @inline(__always) func next(after index: Int) -> Int {
        let token = tokens[index]
        return token.kind == .object || token.kind == .array ? token.end : index + 1
    }

    func string(at index: Int) -> String? {
        let token = tokens[index]
        switch token.kind {
        case .string: return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[token.start..<(token.start + token.length)]), as: UTF8.self)
        case .escapedString: return unescaped(token)
        default: return nil
        }
    }

    /// True when the string token at `index` spells `key` (its UTF-8), without making a String.
    /// Lengths first: most keys a lookup passes differ in length from the one it wants. A key
    /// written with escapes (rare) is compared as a String, as before and as Foundation does.
    @inline(__always) func keyMatches(_ index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let token = tokens[index]
        guard token.kind == .string else { return token.kind == .escapedString && unescaped(token) == String(decoding: key, as: UTF8.self) }
        guard token.length == key.count else { return false }
        var offset = 0
        while offset < key.count {
            guard bytes[token.start + offset] == key[offset] else { return false }
            offset += 1
        }
        return true
    }

    func numberText(at index: Int) -> Substring? {
        let token = tokens[index]
        guard token.kind == .number else { return nil }
        return Substring(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[token.start..<(token.start + token.length)]), as: UTF8.self))
    }

    /// An integer token's value without making a String; nil when it has a fraction or
    /// exponent or does not fit (the caller then goes through Double).
    func integer(at index: Int) -> Int64? { Self.integer(tokens[index], in: bytes) }

    static func integer(_ token: Token, in bytes: UnsafeRawBufferPointer) -> Int64? {
        guard token.kind == .number else { return nil }
        var offset = token.start
        let end = token.start + token.length
        let negative = bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        var magnitude: UInt64 = 0
        while offset < end {
            let digit = bytes[offset] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(UInt64(digit))
            guard !o1, !o2 else { return nil }
            magnitude = plus
            offset += 1
        }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// A number token's value as a finite float; nil when it is no number or does not fit.
    static func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type, _ token: Token, in bytes: UnsafeRawBufferPointer) -> T? {
        if let integer = integer(token, in: bytes), integer.magnitude < 1 << 53 {
            // "-0" is an integer token but a negative zero, which must survive a round trip.
            return integer == 0 && bytes[token.start] == UInt8(ascii: "-") ? -0.0 : T(integer)
        }
        guard token.kind == .number,
              let value = T(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[token.start..<(token.start + token.length)]), as: UTF8.self)),
              value.isFinite else { return nil }
        return value
    }

    /// A colour as the encoder writes it ("#rrggbb" or "#rrggbbaa") read from its bytes; nil
    /// for any other spelling, which only `Color(hex:)` may judge.
    static func encoderColor(_ token: Token, in bytes: UnsafeRawBufferPointer) -> Color? {
        guard token.kind == .string, token.length == 7 || token.length == 9, bytes[token.start] == UInt8(ascii: "#") else { return nil }
        var value: UInt32 = 0
        var offset = token.start + 1
        while offset < token.start + token.length {
            let c = bytes[offset]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        if token.length == 7 { value = value << 8 | 0xff }
        return Color(red: UInt8(value >> 24), green: UInt8(value >> 16 & 0xff), blue: UInt8(value >> 8 & 0xff), alpha: UInt8(value & 0xff))
    }

    private func unescaped(_ token: Token) -> String {
        var out = [UInt8]()
        out.reserveCapacity(token.length)
        var offset = token.start
        let end = token.start + token.length
        func hex4(_ at: Int) -> UInt32 {
            var value: UInt32 = 0
            for i in 0..<4 {
                let c = bytes[at + i]
                let digit: UInt8 = c <= UInt8(ascii: "9") ? c &- UInt8(ascii: "0") : (c | 0x20) &- UInt8(ascii: "a") &+ 10
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        while offset < end {
            let byte = bytes[offset]
            guard byte == UInt8(ascii: "\\") else { out.append(byte); offset += 1; continue }
            let escape = bytes[offset + 1]
            offset += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(offset)
                offset += 4
                // A surrogate pair spells one scalar; a lone surrogate becomes U+FFFD.
                if (0xD800..<0xDC00).contains(scalar), offset + 6 <= end, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") {
                    let low = hex4(offset + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        offset += 6
                    }
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8))
            default: out.append(escape)  // \" \\ \/
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Reads the grammar, checking it, and appends tokens (the tape's parser); `PlainPayloadReader`
/// reads with its string and number scanners too, so both accept the same texts.
struct JSONParser {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    func error(_ what: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "\(what) at byte \(offset)"))
    }

    @inline(__always) mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    mutating func value(into tokens: inout [JSONTape.Token], depth: Int) throws {
        guard depth < 512 else { throw error("JSON nested more than 512 levels") }
        skipSpace()
        guard offset < bytes.count else { throw error("unexpected end of the JSON text") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): try container(into: &tokens, depth: depth, object: true)
        case UInt8(ascii: "["): try container(into: &tokens, depth: depth, object: false)
        case UInt8(ascii: "\""): tokens.append(try string())
        case UInt8(ascii: "t"): try literal("true", .true, into: &tokens)
        case UInt8(ascii: "f"): try literal("false", .false, into: &tokens)
        case UInt8(ascii: "n"): try literal("null", .null, into: &tokens)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): tokens.append(try number())
        default: throw error("unexpected character \(String(format: "0x%02x", bytes[offset]))")
        }
    }

    mutating func container(into tokens: inout [JSONTape.Token], depth: Int, object: Bool) throws {
        let index = tokens.count
        tokens.append(.init(kind: object ? .object : .array, start: offset, length: 0, end: 0))
        offset += 1
        let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
        var count = 0
        skipSpace()
        if offset < bytes.count, bytes[offset] == close {
            offset += 1
        } else {
            while true {
                if object {
                    skipSpace()
                    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a key") }
                    tokens.append(try string())
                    skipSpace()
                    guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                    offset += 1
                }
                try value(into: &tokens, depth: depth + 1)
                count += 1
                skipSpace()
                guard offset < bytes.count else { throw error("unexpected end of the JSON text") }
                if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
                guard bytes[offset] == close else { throw error(object ? "expected ',' or '}'" : "expected ',' or ']'") }
                offset += 1
                break
            }
        }
        tokens[index].length = count
        tokens[index].end = tokens.count
    }

    mutating func string() throws -> JSONTape.Token {
        offset += 1  // the opening quote
        let start = offset
        var escaped = false
        while offset < bytes.count {
            // The plain run first, in locals: most strings are nothing but.
            if let base = bytes.baseAddress {
                var at = offset
                let count = bytes.count
                while at < count {
                    let byte = base.load(fromByteOffset: at, as: UInt8.self)
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                    at += 1
                }
                offset = at
                guard offset < count else { break }
            }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                defer { offset += 1 }
                return .init(kind: escaped ? .escapedString : .string, start: start, length: offset - start, end: 0)
            }
            guard byte >= 0x20 else { throw error("a control character in a string") }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                guard offset + 1 < bytes.count else { break }
                switch bytes[offset + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    offset += 2
                case UInt8(ascii: "u"):
                    guard offset + 6 <= bytes.count, (2..<6).allSatisfy({ Self.isHex(bytes[offset + $0]) }) else { throw error("a bad \\u escape") }
                    offset += 6
                default: throw error("a bad escape in a string")
                }
                continue
            }
            offset += 1
        }
        throw error("a string without its closing quote")
    }

    static func isHex(_ c: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(c | 0x20)
    }

    mutating func number() throws -> JSONTape.Token {
        let start = offset
        func digits() -> Int {
            let from = offset
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
            return offset - from
        }
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("a number without digits") }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw error("a number with a leading zero") }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw error("a number without digits after its point") }
        }
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw error("a number without digits in its exponent") }
        }
        return .init(kind: .number, start: start, length: offset - start, end: 0)
    }

    mutating func literal(_ word: StaticString, _ kind: JSONTape.Kind, into tokens: inout [JSONTape.Token]) throws {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count,
              memcmp(bytes.baseAddress! + offset, word.utf8Start, count) == 0 else { throw error("unexpected text") }
        tokens.append(.init(kind: kind, start: offset, length: count, end: 0))
        offset += count
    }
}

// MARK: The decoder

/// Where a value sits, kept as a chain so a path is only spelled out for an error.
final class PathNode {
    let parent: PathNode?
    let key: any CodingKey
    init(_ parent: PathNode?, _ key: any CodingKey) { self.parent = parent; self.key = key }

    static func path(_ node: PathNode?) -> [any CodingKey] {
        var keys = [any CodingKey]()
        var node = node
        while let current = node { keys.append(current.key); node = current.parent }
        return keys.reversed()
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

struct TapeDecoder: Decoder {
    let tape: JSONTape
    let index: Int
    let path: PathNode?

    var codingPath: [any CodingKey] { PathNode.path(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard tape.tokens[index].kind == .object else { throw tape.mismatch(at: index, [String: Any].self, "an object", codingPath) }
        return KeyedDecodingContainer(KeyedReader<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard tape.tokens[index].kind == .array else { throw tape.mismatch(at: index, [Any].self, "an array", codingPath) }
        return UnkeyedReader(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueReader(decoder: self) }

    /// This value, the root or a single-value container's: a leaf straight off the tape,
    /// anything else through its own `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let leaf = try tape.leaf(T.self, at: index, codingPath) { return leaf }
        return try T(from: self)
    }

    /// A member of this value, at `index` under `key`. A leaf is read without a decoder of
    /// its own, so the path to it is only spelled out for an error; anything else gets one.
    func decodeMember<T: Decodable>(_ type: T.Type, at index: Int, key: any CodingKey) throws -> T {
        if let leaf = try tape.leaf(T.self, at: index, PathNode.path(path) + [key]) { return leaf }
        return try T(from: child(index, key))
    }

    func child(_ index: Int, _ key: any CodingKey) -> TapeDecoder {
        TapeDecoder(tape: tape, index: index, path: PathNode(path, key))
    }
}

// MARK: Leaves

/// Leaf values read straight off the tape. `path` is asked for only when the value is not
/// what was expected: making it is most of what a decoder per value used to cost.
extension JSONTape {
    func mismatch<T>(at index: Int, _ type: T.Type, _ expected: String, _ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(expected), found \(tokens[index].kind)"))
    }

    func bool(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        switch tokens[index].kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(at: index, Bool.self, "true or false", path())
        }
    }

    func string(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard let string = string(at: index) else { throw mismatch(at: index, String.self, "a string", path()) }
        return string
    }

    func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type, at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> T {
        if let value = Self.float(T.self, tokens[index], in: bytes) { return value }
        guard let text = numberText(at: index) else { throw mismatch(at: index, T.self, "a number", path()) }
        throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "\(text) does not fit \(T.self)"))
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type, at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> T {
        if let integer = integer(at: index) {
            guard let value = T(exactly: integer) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "\(integer) does not fit \(T.self)"))
            }
            return value
        }
        guard let text = numberText(at: index) else { throw mismatch(at: index, T.self, "a number", path()) }
        if let value = T(text) { return value }  // beyond Int64 (UInt64)
        guard let double = Double(String(text)), let value = T(exactly: double) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "\(text) is not a whole \(T.self)"))
        }
        return value
    }

    /// A colour as the encoder writes it read from its bytes; any other spelling through
    /// `Color(hex:)`, which decides what it means and what it refuses. Payloads and states
    /// hold colours by the thousand (every text layer has two).
    func color(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Color {
        if let color = Self.encoderColor(tokens[index], in: bytes) { return color }
        return try Color(hex: string(at: index, path()))
    }

    /// The common leaf types; nil for any other type, which the caller decodes through its
    /// own `init(from:)`. Comparing metadata pointers costs next to nothing.
    func leaf<T: Decodable>(_ type: T.Type, at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> T? {
        if T.self == String.self { return unsafeBitCast(try string(at: index, path()), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try float(Double.self, at: index, path()), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try integer(Int.self, at: index, path()), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try bool(at: index, path()), to: T.self) }
        if T.self == Color.self { return unsafeBitCast(try color(at: index, path()), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try integer(Int64.self, at: index, path()), to: T.self) }
        if T.self == UInt64.self { return unsafeBitCast(try integer(UInt64.self, at: index, path()), to: T.self) }
        if T.self == UInt8.self { return unsafeBitCast(try integer(UInt8.self, at: index, path()), to: T.self) }
        if T.self == Float.self { return unsafeBitCast(try float(Float.self, at: index, path()), to: T.self) }
        if T.self == Data.self {
            guard let data = Data(base64Encoded: try string(at: index, path())) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "not base64"))
            }
            return unsafeBitCast(data, to: T.self)
        }
        if T.self == URL.self {
            guard let url = URL(string: try string(at: index, path())) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "not a URL"))
            }
            return unsafeBitCast(url, to: T.self)
        }
        return nil
    }
}

private struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    /// The value token of `key`, by walking the members (objects in payloads are small).
    func valueIndex(_ key: Key) -> Int? {
        let tape = decoder.tape
        let object = decoder.index
        var name = key.stringValue
        return name.withUTF8 { name in
            var member = object + 1
            for _ in 0..<tape.tokens[object].length {
                if tape.keyMatches(member, name) { return member + 1 }
                member = tape.next(after: member + 1)
            }
            return nil
        }
    }

    func index(of key: Key) throws -> Int {
        guard let index = valueIndex(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \"\(key.stringValue)\""))
        }
        return index
    }

    /// The value's index, or nil for a missing key or a null (nil, as with Foundation).
    func presentIndex(_ key: Key) -> Int? {
        guard let index = valueIndex(key), decoder.tape.tokens[index].kind != .null else { return nil }
        return index
    }

    func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    var allKeys: [Key] {
        let tape = decoder.tape
        var keys = [Key]()
        var member = decoder.index + 1
        for _ in 0..<tape.tokens[decoder.index].length {
            if let name = tape.string(at: member), let key = Key(stringValue: name) { keys.append(key) }
            member = tape.next(after: member + 1)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { valueIndex(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { decoder.tape.tokens[try index(of: key)].kind == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.tape.bool(at: index(of: key), path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.tape.string(at: index(of: key), path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.tape.float(Double.self, at: index(of: key), path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.tape.float(Float.self, at: index(of: key), path(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.tape.integer(Int.self, at: index(of: key), path(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.tape.integer(Int64.self, at: index(of: key), path(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.tape.integer(UInt64.self, at: index(of: key), path(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.decodeMember(T.self, at: index(of: key), key: key) }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = presentIndex(key) else { return nil }
        return try decoder.tape.string(at: index, path(key))
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let index = presentIndex(key) else { return nil }
        return try decoder.tape.float(Double.self, at: index, path(key))
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let index = presentIndex(key) else { return nil }
        return try decoder.tape.integer(Int.self, at: index, path(key))
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = presentIndex(key) else { return nil }
        return try decoder.tape.bool(at: index, path(key))
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = presentIndex(key) else { return nil }
        return try decoder.decodeMember(T.self, at: index, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(index(of: key), key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder.child(index(of: key), key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { let key = Key(stringValue: "super")!; return decoder.child(try index(of: key), key) }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.child(try index(of: key), key) }
}

private struct UnkeyedReader: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    var currentIndex = 0
    /// The token of the next element.
    var position: Int

    init(decoder: TapeDecoder) {
        self.decoder = decoder
        position = decoder.index + 1
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { decoder.tape.tokens[decoder.index].length }
    var isAtEnd: Bool { currentIndex >= count! }

    /// The next element's token and its key in the path; moves past it.
    mutating func next() throws -> (index: Int, key: IndexKey) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "no more elements"))
        }
        let element = (position, IndexKey(currentIndex))
        position = decoder.tape.next(after: position)
        currentIndex += 1
        return element
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, decoder.tape.tokens[position].kind == .null else { return false }
        _ = try next()
        return true
    }
    mutating func decode(_ type: Bool.Type) throws -> Bool { let (index, key) = try next(); return try decoder.tape.bool(at: index, codingPath + [key]) }
    mutating func decode(_ type: String.Type) throws -> String { let (index, key) = try next(); return try decoder.tape.string(at: index, codingPath + [key]) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (index, key) = try next(); return try decoder.tape.float(Double.self, at: index, codingPath + [key]) }
    mutating func decode(_ type: Int.Type) throws -> Int { let (index, key) = try next(); return try decoder.tape.integer(Int.self, at: index, codingPath + [key]) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { let (index, key) = try next(); return try decoder.decodeMember(T.self, at: index, key: key) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (index, key) = try next()
        return try decoder.child(index, key).container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (index, key) = try next()
        return try decoder.child(index, key).unkeyedContainer()
    }
    mutating func superDecoder() throws -> any Decoder { let (index, key) = try next(); return decoder.child(index, key) }
}

private struct SingleValueReader: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.tape.tokens[decoder.index].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.tape.bool(at: decoder.index, codingPath) }
    func decode(_ type: String.Type) throws -> String { try decoder.tape.string(at: decoder.index, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.tape.float(Double.self, at: decoder.index, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.tape.float(Float.self, at: decoder.index, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.tape.integer(Int.self, at: decoder.index, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.tape.integer(Int64.self, at: decoder.index, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.tape.integer(UInt64.self, at: decoder.index, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.tape.integer(UInt8.self, at: decoder.index, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(T.self) }
}
