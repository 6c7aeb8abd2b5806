import Foundation

/// Reads a payload spelled as this build writes it, with no Codable in the way: no container
/// box per object, no generic metadata looked up per member, no token list allocated. A long
/// replay is mostly small payloads (a caption typed, a layer dragged), and Codable's glue was
/// most of their decoding.
///
/// It is narrow on purpose. Anything outside the plain spelling (a string with an escape, a
/// null, a key it does not know or sees twice, a number that is not a finite Double or a
/// whole Int64, a colour in another spelling) stops it with `NotPlain`, and the caller
/// decodes the payload through `PayloadJSONDecoder`, which decides what it means or names
/// the error. So this reader can make a payload faster to read, never read it differently.
/// Its strings and numbers are scanned by the tape's own `JSONParser`.
struct PlainPayloadReader {
    struct NotPlain: Error {}

    private var parser: JSONParser
    /// How deep the next value is, for `decoded`'s parse: it refuses what the whole
    /// payload's parse would (past 512 levels).
    private var depth = 0

    private init(_ bytes: UnsafeRawBufferPointer) { parser = JSONParser(bytes: bytes) }

    /// The value `body` reads from the whole of `payload`; nil when it is not plain.
    static func read<T>(_ payload: Data, _ body: (inout PlainPayloadReader) throws(NotPlain) -> T) -> T? {
        payload.withUnsafeBytes { read($0, body) }
    }

    static func read<T>(_ payload: UnsafeRawBufferPointer, _ body: (inout PlainPayloadReader) throws(NotPlain) -> T) -> T? {
        try? whole(payload, body)
    }

    /// `read`, throwing where it gives nil: a large value (an event) then goes straight to
    /// its caller's slot, not through an Optional copied out and destroyed (a tenth of the
    /// instructions a replay spent per event, by callgrind).
    static func whole<T>(_ payload: UnsafeRawBufferPointer, _ body: (inout PlainPayloadReader) throws(NotPlain) -> T) throws(NotPlain) -> T {
        var reader = PlainPayloadReader(payload)
        let value = try body(&reader)
        reader.parser.skipSpace()
        guard reader.parser.offset == payload.count else { throw NotPlain() }
        return value
    }

    /// A member's name, pointing into the payload; a `switch` matches it against literals.
    struct Key {
        let bytes: UnsafeRawBufferPointer

        @inline(__always) static func ~= (name: StaticString, key: Key) -> Bool {
            guard name.utf8CodeUnitCount == key.bytes.count else { return false }
            for i in 0..<key.bytes.count where name.utf8Start[i] != key.bytes[i] { return false }  // names are short: no memcmp call
            return true
        }
    }

    /// Sets a member read once; a second one is not plain (Codable would keep the first).
    static func once<T>(_ slot: inout T?, _ value: T) throws(NotPlain) {
        guard slot == nil else { throw NotPlain() }
        slot = value
    }

    /// A member every writing of the type has; a payload without it is for Codable to refuse.
    static func required<T>(_ value: T?) throws(NotPlain) -> T {
        guard let value else { throw NotPlain() }
        return value
    }

    /// An object: `member` reads each member's value, given its name, and throws for a name
    /// it does not know.
    mutating func object(_ member: (inout PlainPayloadReader, Key) throws(NotPlain) -> Void) throws(NotPlain) {
        try expect(UInt8(ascii: "{"))
        if try peek() == UInt8(ascii: "}") { parser.offset += 1; return }
        depth += 1
        while true {
            let name = try token()
            guard name.kind == .string else { throw NotPlain() }
            try expect(UInt8(ascii: ":"))
            try member(&self, Key(bytes: UnsafeRawBufferPointer(rebasing: parser.bytes[name.start..<(name.start + name.length)])))
            if try next(closing: UInt8(ascii: "}")) { depth -= 1; return }
        }
    }

    mutating func array<T>(_ element: (inout PlainPayloadReader) throws(NotPlain) -> T) throws(NotPlain) -> [T] {
        try expect(UInt8(ascii: "["))
        var elements = [T]()
        if try peek() == UInt8(ascii: "]") { parser.offset += 1; return elements }
        depth += 1
        while true {
            elements.append(try element(&self))
            if try next(closing: UInt8(ascii: "]")) { depth -= 1; return elements }
        }
    }

    mutating func string() throws(NotPlain) -> String {
        let token = try token()
        guard token.kind == .string else { throw NotPlain() }
        return String(decoding: UnsafeRawBufferPointer(rebasing: parser.bytes[token.start..<(token.start + token.length)]), as: UTF8.self)
    }

    mutating func double() throws(NotPlain) -> Double {
        guard let value = JSONTape.float(Double.self, try token(), in: parser.bytes) else { throw NotPlain() }
        return value
    }

    mutating func int() throws(NotPlain) -> Int {
        guard let value = JSONTape.integer(try token(), in: parser.bytes), let int = Int(exactly: value) else { throw NotPlain() }
        return int
    }

    mutating func int64() throws(NotPlain) -> Int64 {
        guard let value = JSONTape.integer(try token(), in: parser.bytes) else { throw NotPlain() }
        return value
    }

    mutating func uint64() throws(NotPlain) -> UInt64 {
        guard let value = UInt64(exactly: try int64()) else { throw NotPlain() }
        return value
    }

    mutating func bool() throws(NotPlain) -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw NotPlain()
        }
    }

    mutating func color() throws(NotPlain) -> Color {
        guard let color = JSONTape.encoderColor(try token(), in: parser.bytes) else { throw NotPlain() }
        return color
    }

    mutating func uuid() throws(NotPlain) -> UUID {
        guard let uuid = UUID(uuidString: try string()) else { throw NotPlain() }
        return uuid
    }

    /// A string-backed enum's case.
    mutating func named<T: RawRepresentable>(_ type: T.Type) throws(NotPlain) -> T where T.RawValue == String {
        guard let value = T(rawValue: try string()) else { throw NotPlain() }
        return value
    }

    /// A value of a type with no plain reader, read in place by Codable (the tape decoder
    /// `PayloadJSONDecoder` runs), as the whole payload's Codable reading would read this
    /// member: for rare members (a filter's parameters, a picture's credits), so that they
    /// do not send a whole state of 2,000 layers to Codable. What Codable refuses here is
    /// not plain: the whole payload's reading then names the error, with its path.
    mutating func decoded<T: Decodable>(_ type: T.Type) throws(NotPlain) -> T {
        var tokens = [JSONTape.Token]()
        do {
            try parser.value(into: &tokens, depth: depth)
            return try TapeDecoder(tape: JSONTape(bytes: parser.bytes, tokens: tokens), index: 0, path: nil).decodeValue(T.self)
        } catch {
            throw NotPlain()
        }
    }

    // MARK: Scanning

    /// The next byte that is not white space, left in place.
    @inline(__always) private mutating func peek() throws(NotPlain) -> UInt8 {
        parser.skipSpace()
        guard parser.offset < parser.bytes.count else { throw NotPlain() }
        return parser.bytes[parser.offset]
    }

    private mutating func expect(_ byte: UInt8) throws(NotPlain) {
        guard try peek() == byte else { throw NotPlain() }
        parser.offset += 1
    }

    /// Past a `,` (false) or the container's closing byte (true).
    private mutating func next(closing: UInt8) throws(NotPlain) -> Bool {
        switch try peek() {
        case UInt8(ascii: ","): parser.offset += 1; return false
        case closing: parser.offset += 1; return true
        default: throw NotPlain()
        }
    }

    /// A string or number, scanned and checked as the tape's parser does.
    private mutating func token() throws(NotPlain) -> JSONTape.Token {
        do {
            switch try peek() {
            case UInt8(ascii: "\""): return try parser.string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parser.number()
            default: throw NotPlain()
            }
        } catch {
            throw NotPlain()
        }
    }

    private mutating func literal(_ word: StaticString) throws(NotPlain) {
        let count = word.utf8CodeUnitCount
        guard parser.offset + count <= parser.bytes.count,
              memcmp(parser.bytes.baseAddress! + parser.offset, word.utf8Start, count) == 0 else { throw NotPlain() }
        parser.offset += count
    }
}
