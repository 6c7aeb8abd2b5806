import Crypto
import Foundation

/// One event as it travels between a store and the hub: the store's envelope, without
/// anything that is only local (the global sequence, the stream version), plus the hub's
/// position once the hub has ordered it.
public struct HubEvent: Codable, Sendable, Equatable {
    /// Unique across every store: the hub keeps one copy per user, so a retried push stores nothing.
    public var id: UUID
    /// The id of the first event of the append it belongs to: one edit travels whole.
    public var batch: UUID
    public var stream: UUID
    /// The edit (by id) this event's edit was made on.
    public var parent: UUID?
    public var type: String
    public var schemaVersion: Int
    /// Wall-clock time of the append, in milliseconds since the Unix epoch.
    public var time: Int64
    /// The event's JSON payload, as stored.
    public var payload: String
    /// The pictures (SHA-256, hex) the event refers to: they go up before it, and come down with it.
    public var blobs: [String]
    /// SHA-256 (hex) of everything above (`HubEvent.checksum(of:)`), made by the store that
    /// wrote the event and checked by every store that reads it.
    public var checksum: String
    /// Where the hub put it among the user's events (set by the hub; nil in a push).
    public var position: Int64?

    public init(id: UUID, batch: UUID, stream: UUID, parent: UUID?, type: String, schemaVersion: Int, time: Int64,
                payload: String, blobs: [String], position: Int64? = nil) {
        self.id = id; self.batch = batch; self.stream = stream; self.parent = parent; self.type = type
        self.schemaVersion = schemaVersion; self.time = time; self.payload = payload; self.blobs = blobs
        self.position = position
        checksum = ""
        checksum = Self.checksum(of: self)
    }

    /// An event as it was stored, with the checksum its writer made (a reader checks it;
    /// nothing is hashed here).
    public init(id: UUID, batch: UUID, stream: UUID, parent: UUID?, type: String, schemaVersion: Int, time: Int64,
                payload: String, blobs: [String], checksum: String, position: Int64?) {
        self.id = id; self.batch = batch; self.stream = stream; self.parent = parent; self.type = type
        self.schemaVersion = schemaVersion; self.time = time; self.payload = payload; self.blobs = blobs
        self.checksum = checksum; self.position = position
    }

    /// SHA-256 over every field but the checksum and the position, each length-prefixed so
    /// that no two different events hash alike.
    public static func checksum(of event: HubEvent) -> String {
        var hasher = SHA256()
        func field(_ bytes: UnsafeRawBufferPointer) {
            withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { hasher.update(bufferPointer: $0) }
            hasher.update(bufferPointer: bytes)
        }
        func field(_ text: String) {
            var text = text
            text.withUTF8 { field(UnsafeRawBufferPointer($0)) }
        }
        func field(_ id: UUID?) {
            guard let id else { return field("") }
            LowercaseUUID.withASCII(id) { field($0) }
        }
        field(event.id)
        field(event.batch)
        field(event.stream)
        field(event.parent)
        field(event.type)
        field(String(event.schemaVersion))
        field(String(event.time))
        field(event.payload)
        field(event.blobs.joined(separator: ","))
        return hex(hasher.finalize())
    }

    /// True when the event is what its writer hashed.
    public var isIntact: Bool { checksum == Self.checksum(of: self) }
}

/// Lower-case hex of bytes: hashes and tokens as they travel.
public func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    // By table, not `String(format:)`: this runs for every event the hub takes (it was 9%
    // of the hub's CPU under `make bench-hub`).
    let digits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    text.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
}

/// True for a SHA-256 in lower-case hex, as pictures are named everywhere.
public func isPictureHash(_ text: String) -> Bool {
    text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
}
