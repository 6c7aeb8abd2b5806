import Foundation

/// Writes the frequent payloads' JSON by hand, byte for byte as `SortedJSONEncoder` writes
/// them (the same leaves, from `JSONLeafBytes`; each type writes its keys in their sorted
/// order), without Codable's containers: encoding was three quarters of making an event.
/// A value JSON cannot spell (NaN, an infinity) stops it with `NotSpelled`, and the caller
/// goes through `SortedJSONEncoder`, which names the error.
struct PlainPayloadWriter {
    struct NotSpelled: Error {}

    private(set) var bytes = [UInt8]()
    /// Whether the next member or element follows another in its container.
    private var follows = false

    init() { bytes.reserveCapacity(96) }

    /// The payload `body` writes; nil when it holds a value JSON cannot spell.
    static func write(_ body: (inout PlainPayloadWriter) throws(NotSpelled) -> Void) -> Data? {
        var writer = PlainPayloadWriter()
        guard (try? body(&writer)) != nil else { return nil }
        return Data(writer.bytes)
    }

    /// An object whose members `body` writes, each with `key`, in sorted order.
    mutating func object(_ body: (inout PlainPayloadWriter) throws(NotSpelled) -> Void) throws(NotSpelled) {
        bytes.append(UInt8(ascii: "{"))
        follows = false
        try body(&self)
        bytes.append(UInt8(ascii: "}"))
        follows = true
    }

    mutating func array<T>(_ elements: [T], _ element: (inout PlainPayloadWriter, T) throws(NotSpelled) -> Void) throws(NotSpelled) {
        bytes.append(UInt8(ascii: "["))
        follows = false
        for value in elements {
            if follows { bytes.append(UInt8(ascii: ",")) }
            follows = true
            try element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
        follows = true
    }

    /// A member's name; its value is written next.
    mutating func key(_ name: StaticString) {
        if follows { bytes.append(UInt8(ascii: ",")) }
        follows = true
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func string(_ value: String) { JSONLeafBytes.string(value, into: &bytes) }
    mutating func int(_ value: Int) { JSONLeafBytes.integer(value, into: &bytes) }
    mutating func integer<T: BinaryInteger>(_ value: T) { JSONLeafBytes.integer(value, into: &bytes) }
    mutating func bool(_ value: Bool) { JSONLeafBytes.bool(value, into: &bytes) }
    mutating func color(_ value: Color) { JSONLeafBytes.color(value, into: &bytes) }
    mutating func uuid(_ value: UUID) { JSONLeafBytes.string(value.uuidString, into: &bytes) }

    mutating func double(_ value: Double) throws(NotSpelled) {
        guard JSONLeafBytes.float(value, into: &bytes) else { throw NotSpelled() }
    }

    /// A value of a type with no plain writer, as `SortedJSONEncoder` writes it (compact, so
    /// alone or inside another the same bytes): for rare members, such as a filter's
    /// parameters and a picture's credits.
    mutating func encoded<T: Encodable>(_ value: T) throws(NotSpelled) {
        guard let data = try? SortedJSONEncoder().encode(value) else { throw NotSpelled() }
        bytes.append(contentsOf: data)
    }
}
