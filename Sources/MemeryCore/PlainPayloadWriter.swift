import Foundation

/// Writes the frequent payloads' JSON by hand, byte for byte as `SortedJSONEncoder` writes
/// them (the same leaves, from `JSONLeafBytes`; each type writes its keys in their sorted
/// order), without Codable's containers: encoding was three quarters of making an event.
/// A value JSON cannot spell (NaN, an infinity) stops it with `NotSpelled`, and the caller
/// goes through `SortedJSONEncoder`, which names the error.
package struct PlainPayloadWriter {
    package struct NotSpelled: Error {}

    package private(set) var bytes = [UInt8]()
    /// Whether the next member or element follows another in its container.
    private var follows = false

    package init(reserving capacity: Int = 96) { bytes.reserveCapacity(capacity) }

    /// The payload `body` writes; nil when it holds a value JSON cannot spell.
    package static func write(reserving capacity: Int = 96, _ body: (inout PlainPayloadWriter) throws(NotSpelled) -> Void) -> Data? {
        var writer = PlainPayloadWriter(reserving: capacity)
        guard (try? body(&writer)) != nil else { return nil }
        // From the buffer, not `Data(_: Sequence)`: the generic init costs about 700
        // instructions a payload where this copy costs about 200 (callgrind).
        return writer.bytes.withUnsafeBufferPointer { Data(bytes: $0.baseAddress!, count: $0.count) }
    }

    /// An object whose members `body` writes, each with `key`, in sorted order.
    package mutating func object(_ body: (inout PlainPayloadWriter) throws(NotSpelled) -> Void) throws(NotSpelled) {
        bytes.append(UInt8(ascii: "{"))
        follows = false
        try body(&self)
        bytes.append(UInt8(ascii: "}"))
        follows = true
    }

    package mutating func array<T>(_ elements: [T], _ element: (inout PlainPayloadWriter, T) throws(NotSpelled) -> Void) throws(NotSpelled) {
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
    package mutating func key(_ name: StaticString) {
        if follows { bytes.append(UInt8(ascii: ",")) }
        follows = true
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    package mutating func string(_ value: String) { JSONLeafBytes.string(value, into: &bytes) }
    package mutating func int(_ value: Int) { JSONLeafBytes.integer(value, into: &bytes) }
    package mutating func integer<T: BinaryInteger>(_ value: T) { JSONLeafBytes.integer(value, into: &bytes) }
    package mutating func bool(_ value: Bool) { JSONLeafBytes.bool(value, into: &bytes) }
    package mutating func null() { JSONLeafBytes.null(into: &bytes) }
    package mutating func color(_ value: Color) { JSONLeafBytes.color(value, into: &bytes) }
    package mutating func uuid(_ value: UUID) { JSONLeafBytes.string(value.uuidString, into: &bytes) }

    package mutating func double(_ value: Double) throws(NotSpelled) {
        guard JSONLeafBytes.float(value, into: &bytes) else { throw NotSpelled() }
    }

    /// A value of a type with no plain writer, as `SortedJSONEncoder` writes it (compact, so
    /// alone or inside another the same bytes): for rare members, such as a filter's
    /// parameters and a picture's credits.
    package mutating func encoded<T: Encodable>(_ value: T) throws(NotSpelled) {
        guard let data = try? SortedJSONEncoder().encode(value) else { throw NotSpelled() }
        bytes.append(contentsOf: data)
    }
}
