import Crypto
import Foundation

/// Ids of events that were stored before events had ids (store format 1).
public enum EventIdentity {
    /// The id a format-1 event is given when its store is migrated: derived from its stream
    /// and version, so that migrating two copies of one store gives the same ids (and a sync
    /// of both stores nothing twice). A version-8 UUID (RFC 9562: name-based, custom hash).
    public static func formatOneID(stream: UUID, version: UInt64) -> UUID {
        var input = Array("memery format-1 event".utf8)
        withUnsafeBytes(of: stream.uuid) { input += $0 }
        withUnsafeBytes(of: version.bigEndian) { input += $0 }
        var bytes = Array(SHA256.hash(data: input).prefix(16))
        bytes[6] = (bytes[6] & 0x0f) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3f) | 0x80  // RFC variant
        return KeyEncoding.uuid(bytes)!
    }
}
