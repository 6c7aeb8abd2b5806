import Foundation

/// Encodes `Encodable` values as compact JSON with keys sorted, writing straight into one
/// byte buffer. For the types events hold it gives the bytes Foundation's JSONEncoder gives
/// with `[.sortedKeys, .withoutEscapingSlashes]` (the tests hold it to that), several times
/// faster: Foundation builds a tree of boxed values and sorts it as it writes; this writes
/// each object's members in the order the type encodes them and reorders them in place
/// when the object closes (only when they were not already in order).
///
/// Numbers follow Foundation: integers in decimal, floating point by `description` without
/// a trailing ".0"; NaN and infinities are refused, as JSON has no spelling for them.
public struct SortedJSONEncoder {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let writer = JSONByteWriter()
        try writer.encodeValue(value, depth: 0)
        writer.close(downTo: 0)
        return Data(writer.bytes)
    }
}

/// The encoder and its open containers. Containers are written in the order the value
/// asks for them; a container is closed when its parent writes its next member or when
/// the value that opened it returns, which is how synthesized `Codable` uses them.
final class JSONByteWriter: Encoder {
    /// The mutable state lives behind a pointer: a class's stored `var`s are checked for
    /// exclusive access at run time on every write, which cost a tenth of the encoding.
    private struct State {
        var bytes = [UInt8]()
        var frames = [Frame]()
        /// Members of the open objects, innermost last; each frame knows where its own begin.
        var members = [Member]()
        var scratch = [UInt8]()
        /// Which `encodeValue` call is running: a value that asks twice for a container gets
        /// the same one (Codable allows it), a stale sibling is closed.
        var valueSerial = 0
        var pendingDepth = 0
        var pendingSerial = 0
    }
    private let state: UnsafeMutablePointer<State>

    var bytes: [UInt8] { get { state.pointee.bytes } _modify { yield &state.pointee.bytes } }
    private var frames: [Frame] { get { state.pointee.frames } _modify { yield &state.pointee.frames } }
    private var members: [Member] { get { state.pointee.members } _modify { yield &state.pointee.members } }
    private var scratch: [UInt8] { get { state.pointee.scratch } _modify { yield &state.pointee.scratch } }
    private var valueSerial: Int { get { state.pointee.valueSerial } _modify { yield &state.pointee.valueSerial } }
    private var pendingDepth: Int { get { state.pointee.pendingDepth } _modify { yield &state.pointee.pendingDepth } }
    private var pendingSerial: Int { get { state.pointee.pendingSerial } _modify { yield &state.pointee.pendingSerial } }

    var codingPath: [any CodingKey] { members.map { JSONKey($0.key) } }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private struct Frame {
        var isObject: Bool
        /// The first byte after the opening bracket.
        var contentStart: Int
        var firstMember: Int
        var count = 0
        var serial: Int
    }

    private struct Member {
        var key: String
        /// Where the member starts in `bytes`, its separating comma included.
        var start: Int
    }

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        bytes.reserveCapacity(256)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    // MARK: Values

    /// Writes `value` where the container at `depth - 1` left its cursor.
    func encodeValue<T: Encodable>(_ value: T, depth: Int) throws {
        if try writePrimitive(value) { return }
        valueSerial += 1
        let before = bytes.count
        try withPending(depth: depth, serial: valueSerial) { try value.encode(to: self) }
        close(downTo: depth)
        if bytes.count == before { bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")]) }  // asked for no container: {} as Foundation does
    }

    /// The common leaf types, without going through their own `encode(to:)`; Data and URL
    /// as Foundation writes them (base64, the absolute string). Compared by type, which is
    /// much cheaper than a cast that fails for every other value.
    private func writePrimitive<T: Encodable>(_ value: T) throws -> Bool {
        if T.self == String.self { writeString(unsafeBitCast(value, to: String.self)) }
        else if T.self == Int.self { writeInteger(unsafeBitCast(value, to: Int.self)) }
        else if T.self == Double.self { try writeFloat(unsafeBitCast(value, to: Double.self)) }
        else if T.self == Bool.self { writeBool(unsafeBitCast(value, to: Bool.self)) }
        else if T.self == Color.self {
            JSONLeafBytes.color(unsafeBitCast(value, to: Color.self), into: &bytes)
        }
        else if T.self == Int64.self { writeInteger(unsafeBitCast(value, to: Int64.self)) }
        else if T.self == UInt64.self { writeInteger(unsafeBitCast(value, to: UInt64.self)) }
        else if T.self == Float.self { try writeFloat(unsafeBitCast(value, to: Float.self)) }
        else if T.self == UUID.self { writeString(unsafeBitCast(value, to: UUID.self).uuidString) }
        else if T.self == Data.self { writeString(unsafeBitCast(value, to: Data.self).base64EncodedString()) }
        else if T.self == URL.self { writeString(unsafeBitCast(value, to: URL.self).absoluteString) }
        // The other integers: their own `encode(to:)` would ask a single-value container for
        // a method it leaves to the generic one, which would come back here.
        else if T.self == Int8.self { writeInteger(unsafeBitCast(value, to: Int8.self)) }
        else if T.self == Int16.self { writeInteger(unsafeBitCast(value, to: Int16.self)) }
        else if T.self == Int32.self { writeInteger(unsafeBitCast(value, to: Int32.self)) }
        else if T.self == UInt8.self { writeInteger(unsafeBitCast(value, to: UInt8.self)) }
        else if T.self == UInt16.self { writeInteger(unsafeBitCast(value, to: UInt16.self)) }
        else if T.self == UInt32.self { writeInteger(unsafeBitCast(value, to: UInt32.self)) }
        else if T.self == UInt.self { writeInteger(unsafeBitCast(value, to: UInt.self)) }
        else { return false }
        return true
    }

    func writeNull() { JSONLeafBytes.null(into: &bytes) }
    func writeBool(_ value: Bool) { JSONLeafBytes.bool(value, into: &bytes) }
    func writeInteger<T: BinaryInteger>(_ value: T) { JSONLeafBytes.integer(value, into: &bytes) }
    func writeString(_ string: String) { JSONLeafBytes.string(string, into: &bytes) }

    func writeFloat<T: BinaryFloatingPoint & LosslessStringConvertible>(_ value: T) throws {
        guard JSONLeafBytes.float(value, into: &bytes) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) has no JSON spelling"))
        }
    }

    // MARK: Containers

    /// Opens a container for the value being encoded, or hands back the one it already opened.
    private func openFrame(isObject: Bool) -> Int {
        let depth = pendingDepth
        if frames.count > depth, frames[depth].serial == pendingSerial, frames[depth].isObject == isObject {
            close(downTo: depth + 1)
            return depth
        }
        close(downTo: depth)
        bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        frames.append(Frame(isObject: isObject, contentStart: bytes.count, firstMember: members.count, serial: pendingSerial))
        return frames.count - 1
    }

    /// Closes every frame at `depth` and deeper, innermost first.
    func close(downTo depth: Int) {
        while frames.count > depth {
            let frame = frames.removeLast()
            if frame.isObject {
                sortMembers(of: frame)
                members.removeSubrange(frame.firstMember...)
                bytes.append(UInt8(ascii: "}"))
            } else {
                bytes.append(UInt8(ascii: "]"))
            }
        }
    }

    /// Puts an object's members in key order; the bytes keep their length, as every
    /// member but the first carries one comma either way.
    private func sortMembers(of frame: Frame) {
        let own = members[frame.firstMember...]
        guard own.count > 1, !zip(own, own.dropFirst()).allSatisfy({ $0.key < $1.key }) else { return }
        let end = bytes.count
        let ranges = own.indices.map { index -> (key: String, range: Range<Int>) in
            let start = own[index].start + (index == frame.firstMember ? 0 : 1)  // without its comma
            let stop = index + 1 < own.endIndex ? own[index + 1].start : end
            return (own[index].key, start..<stop)
        }.sorted { $0.key < $1.key }
        scratch.removeAll(keepingCapacity: true)
        for (position, member) in ranges.enumerated() {
            if position > 0 { scratch.append(UInt8(ascii: ",")) }
            scratch.append(contentsOf: bytes[member.range])
        }
        bytes.replaceSubrange(frame.contentStart..<end, with: scratch)
    }

    /// Starts the next member of the object at `depth`: closes what its previous member
    /// left open, writes the comma and the key.
    func beginMember(_ key: String, depth: Int) {
        close(downTo: depth + 1)
        let start = bytes.count
        if frames[depth].count > 0 { bytes.append(UInt8(ascii: ",")) }
        frames[depth].count += 1
        members.append(Member(key: key, start: start))
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Starts the next element of the array at `depth`.
    func beginElement(depth: Int) {
        close(downTo: depth + 1)
        if frames[depth].count > 0 { bytes.append(UInt8(ascii: ",")) }
        frames[depth].count += 1
    }

    func elementCount(depth: Int) -> Int { frames[depth].count }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedWriter<Key>(writer: self, depth: openFrame(isObject: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedWriter(writer: self, depth: openFrame(isObject: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueWriter(writer: self, depth: pendingDepth)
    }

    /// An encoder for a nested value at `depth`, whose containers open where the parent's cursor is.
    func nestedEncoder(depth: Int) -> any Encoder {
        NestedEncoder(writer: self, depth: depth, serial: { self.valueSerial += 1; return self.valueSerial }())
    }

    /// Runs `body` with new containers opening at `depth` for the value numbered `serial`.
    func withPending<R>(depth: Int, serial: Int, _ body: () throws -> R) rethrows -> R {
        let (savedDepth, savedSerial) = (pendingDepth, pendingSerial)
        pendingDepth = depth
        pendingSerial = serial
        defer { pendingDepth = savedDepth; pendingSerial = savedSerial }
        return try body()
    }
}

private struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
}

private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONByteWriter
    let depth: Int
    var codingPath: [any CodingKey] { writer.codingPath }

    func encodeNil(forKey key: Key) throws { writer.beginMember(key.stringValue, depth: depth); writer.writeNull() }
    func encode(_ value: Bool, forKey key: Key) throws { writer.beginMember(key.stringValue, depth: depth); writer.writeBool(value) }
    func encode(_ value: String, forKey key: Key) throws { writer.beginMember(key.stringValue, depth: depth); writer.writeString(value) }
    func encode(_ value: Double, forKey key: Key) throws { writer.beginMember(key.stringValue, depth: depth); try writer.writeFloat(value) }
    func encode(_ value: Float, forKey key: Key) throws { writer.beginMember(key.stringValue, depth: depth); try writer.writeFloat(value) }
    func encode(_ value: Int, forKey key: Key) throws { writer.beginMember(key.stringValue, depth: depth); writer.writeInteger(value) }
    func encode(_ value: Int64, forKey key: Key) throws { writer.beginMember(key.stringValue, depth: depth); writer.writeInteger(value) }
    func encode(_ value: UInt64, forKey key: Key) throws { writer.beginMember(key.stringValue, depth: depth); writer.writeInteger(value) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        writer.beginMember(key.stringValue, depth: depth)
        try writer.encodeValue(value, depth: depth + 1)
    }


    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        writer.beginMember(key.stringValue, depth: depth)
        return writer.nestedEncoder(depth: depth + 1).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.beginMember(key.stringValue, depth: depth)
        return writer.nestedEncoder(depth: depth + 1).unkeyedContainer()
    }

    func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    func superEncoder(forKey key: Key) -> any Encoder {
        writer.beginMember(key.stringValue, depth: depth)
        return writer.nestedEncoder(depth: depth + 1)
    }
}

private struct UnkeyedWriter: UnkeyedEncodingContainer {
    let writer: JSONByteWriter
    let depth: Int
    var codingPath: [any CodingKey] { writer.codingPath }
    var count: Int { writer.elementCount(depth: depth) }

    mutating func encodeNil() throws { writer.beginElement(depth: depth); writer.writeNull() }
    mutating func encode(_ value: Bool) throws { writer.beginElement(depth: depth); writer.writeBool(value) }
    mutating func encode(_ value: String) throws { writer.beginElement(depth: depth); writer.writeString(value) }
    mutating func encode(_ value: Double) throws { writer.beginElement(depth: depth); try writer.writeFloat(value) }
    mutating func encode(_ value: Int) throws { writer.beginElement(depth: depth); writer.writeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        writer.beginElement(depth: depth)
        try writer.encodeValue(value, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        writer.beginElement(depth: depth)
        return writer.nestedEncoder(depth: depth + 1).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.beginElement(depth: depth)
        return writer.nestedEncoder(depth: depth + 1).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        writer.beginElement(depth: depth)
        return writer.nestedEncoder(depth: depth + 1)
    }
}

/// Writes one value where the parent's cursor is (the parent wrote the key or comma).
private struct SingleValueWriter: SingleValueEncodingContainer {
    let writer: JSONByteWriter
    let depth: Int
    var codingPath: [any CodingKey] { writer.codingPath }

    mutating func encodeNil() throws { writer.writeNull() }
    mutating func encode(_ value: Bool) throws { writer.writeBool(value) }
    mutating func encode(_ value: String) throws { writer.writeString(value) }
    mutating func encode(_ value: Double) throws { try writer.writeFloat(value) }
    mutating func encode(_ value: Float) throws { try writer.writeFloat(value) }
    mutating func encode(_ value: Int) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { writer.writeInteger(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try writer.encodeValue(value, depth: depth) }
}

/// The encoder handed out by `nestedContainer` and `superEncoder`: its containers open at
/// its own depth, for as long as the caller holds it.
private struct NestedEncoder: Encoder {
    let writer: JSONByteWriter
    let depth: Int
    let serial: Int
    var codingPath: [any CodingKey] { writer.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        writer.withPending(depth: depth, serial: serial) { writer.container(keyedBy: type) }
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.withPending(depth: depth, serial: serial) { writer.unkeyedContainer() }
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueWriter(writer: writer, depth: depth)
    }
}

/// The bytes of JSON's leaves as this encoder writes them, for `JSONByteWriter` and for
/// `PlainPayloadWriter`, which must write the same bytes.
package enum JSONLeafBytes {
    package static func null(into bytes: inout [UInt8]) { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    package static func bool(_ value: Bool, into bytes: inout [UInt8]) {
        if value { bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) } else { bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65]) }
    }

    package static func integer<T: BinaryInteger>(_ value: T, into bytes: inout [UInt8]) {
        if value == 0 { bytes.append(UInt8(ascii: "0")); return }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits from the end into a small stack buffer; the magnitude of the minimum fits a UInt64.
        var magnitude = UInt64(value.magnitude)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            while magnitude > 0 {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    /// False, with nothing written, for NaN and the infinities, which JSON cannot spell.
    package static func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ value: T, into bytes: inout [UInt8]) -> Bool {
        guard value.isFinite else { return false }
        if T.self == Double.self, value == value.rounded(.towardZero), value.magnitude < 1e15 {
            if value == 0, value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
            integer(Int64(value), into: &bytes)  // what description gives, less its ".0"
            return true
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        return true
    }

    /// A JSON string: quotes, backslashes and control characters escaped, everything else
    /// as its UTF-8 (slashes too, as with `.withoutEscapingSlashes`).
    package static func string(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
                case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
                case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigit(byte >> 4), hexDigit(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A lowercase hex digit, for `\u00XX` escapes and colours alike.
    package static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10 }

    /// As `Color`'s own encode(to:) writes it, without the String: "#rrggbb" needs no escapes.
    package static func color(_ color: Color, into bytes: inout [UInt8]) {
        color.withHexBytes { hex in
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: hex)
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
