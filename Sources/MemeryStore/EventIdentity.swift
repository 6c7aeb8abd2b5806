import Crypto
import Foundation

/// Event ids: new ones, and those of events stored before events had ids (store format 1).
public enum EventIdentity {
    /// A new id: a version-7 UUID (RFC 9562), the time in milliseconds then 74 random bits.
    /// Time-ordered, so the `ids` index grows at its end (an append dirties the last page or
    /// two, where a random id would dirty a random page of a large index every time).
    public static func newID(now: Date = Date()) -> UUID {
        // Two draws of 64 bits, not sixteen of 8: each draw is a getrandom system call.
        var generator = SystemRandomNumberGenerator()
        let random = (generator.next(), generator.next())
        var bytes = withUnsafeBytes(of: random) { Array($0) }
        let millis = UInt64(exactly: max(0, (now.timeIntervalSince1970 * 1000).rounded(.down))) ?? UInt64(Int64.max)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: millis >> (8 * (5 - index))) }
        bytes[6] = (bytes[6] & 0x0f) | 0x70  // version 7
        bytes[8] = (bytes[8] & 0x3f) | 0x80  // RFC variant
        return KeyEncoding.uuid(bytes)!
    }

    /// The id a format-1 event is given when its store is migrated: derived from its stream
    /// and version, so that migrating two copies of one store gives the same ids (and a sync
    /// of both stores nothing twice). A version-8 UUID (RFC 9562: name-based, custom hash).
    public static func formatOneID(stream: UUID, version: UInt64) -> UUID {
        var input = Array("memery format-1 event".utf8)
        withUnsafeBytes(of: stream.uuid) { input += $0 }
        withUnsafeBytes(of: version.bigEndian) { input += $0 }
        return nameBased(input)
    }

    /// A stream's id made from another's and a purpose (a creation's membership stream from
    /// the creation's id): the same on every machine, so two stores that made the same
    /// stream independently name it alike.
    public static func derived(from stream: UUID, purpose: String) -> UUID {
        var input = Array("memery derived stream \(purpose)".utf8)
        withUnsafeBytes(of: stream.uuid) { input += $0 }
        return nameBased(input)
    }

    /// A version-8 UUID (RFC 9562: name-based, custom hash) from SHA-256 of `input`.
    private static func nameBased(_ input: [UInt8]) -> UUID {
        var bytes = Array(SHA256.hash(data: input).prefix(16))
        bytes[6] = (bytes[6] & 0x0f) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3f) | 0x80  // RFC variant
        return KeyEncoding.uuid(bytes)!
    }
}
