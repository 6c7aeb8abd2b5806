import Foundation

/// An event to append: the store only knows its id, the edit it was made on, its type
/// name, payload version and JSON bytes.
public struct NewEvent: Sendable, Equatable {
    /// Unique across every store: an event appended again under the same id (a sync that
    /// retries) stores nothing.
    public var id: UUID
    /// The edit (by the id of its first event) this event's edit was made on; nil for a
    /// stream's first edit, a move of the head, and streams without a history.
    public var parent: UUID?
    public var type: String
    public var schemaVersion: Int
    public var payload: Data

    public init(id: UUID = EventIdentity.newID(), parent: UUID? = nil, type: String, schemaVersion: Int, payload: Data) {
        self.id = id
        self.parent = parent
        self.type = type
        self.schemaVersion = schemaVersion
        self.payload = payload
    }
}

/// An event as stored: the envelope around the payload.
public struct StoredEvent: Sendable, Equatable {
    /// Position in the global log, from 1, without gaps.
    public var sequence: UInt64
    /// The sequence of the first event of the same `append`: events appended together
    /// share it, so a reader can tell one edit from the next.
    public var batch: UInt64
    public var stream: UUID
    /// Position in its stream, from 1, without gaps.
    public var version: UInt64
    /// Unique across every store (format 1 had none: a migrated event's id is derived from
    /// its stream and version, `EventIdentity.formatOneID`).
    public var id: UUID
    /// The edit this event's edit was made on (see `NewEvent.parent`).
    public var parent: UUID?
    public var type: String
    public var schemaVersion: Int
    /// Wall-clock time of the append, in milliseconds since the Unix epoch.
    public var timeMilliseconds: Int64
    public var payload: Data
    /// The stored record's checksum (CRC32C from format 3, SHA-256 before), checked on every read.
    public var checksum: RecordChecksum

    public var time: Date { Date(timeIntervalSince1970: Double(timeMilliseconds) / 1000) }
    public var checksumHex: String { BlobHash.hex(checksum.bytes) }
}

/// A record's checksum (4 bytes of CRC32C, or 32 of SHA-256 in older formats), kept inline:
/// an array for it was one allocation per event read.
public struct RecordChecksum: Sendable, Equatable {
    var value: SIMD32<UInt8>
    var size: Int

    /// All zeros: an event not stored yet.
    public init() { value = .zero; size = 32 }

    /// The first `size` bytes of `bytes` (the rest of the value stays zero).
    init(_ bytes: UnsafeRawBufferPointer, size: Int) {
        self.size = size
        if size == 32 {
            value = bytes.loadUnaligned(as: SIMD32<UInt8>.self)
        } else {
            value = .zero
            withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[..<size])) }
        }
    }

    /// Writes the checksum at the start of `record`.
    func store(into record: UnsafeMutableRawBufferPointer) {
        for index in 0..<size { record[index] = value[index] }
    }

    public var bytes: [UInt8] { (0..<size).map { value[$0] } }
}
