import Crypto
import Foundation
import MemeryCRC32C

/// The bytes of one event in the log database, all integers big-endian:
///
///     checksum        4 bytes   (format 3) CRC32C of everything after it;
///                    32 bytes   (formats 1 and 2) SHA-256 of everything after it
///     header length   4 bytes   the header's size, so later formats can add fields
///     header                    seq (8), batch (8), stream id (16), version (8),
///                               schema (4), time in ms (8), type length (2), type (UTF-8),
///                               then (format 2) event id (16), parent edit id (16, zeros: none)
///     payload                   JSON, exactly as the domain encoded it
///
/// The checksum covers the bytes as stored, so checking it needs no re-encoding; the header
/// is fixed binary so that reading an event costs no parsing beyond its payload. Format 2
/// added the ids after the type, where the header length lets a format add fields, so one
/// decoder reads both (a format-1 record's id is derived: `EventIdentity.formatOneID`).
/// Format 3 checks each record with CRC32C, which the processor computes (SSE 4.2), as
/// LevelDB, RocksDB and Kafka do: SHA-256 of a 230-byte record cost about 0.3 µs, most of
/// reading one. It guards against damage, not against someone who rewrites the file (they
/// could rewrite a SHA-256 as easily); pictures keep SHA-256, which names them.
enum EventRecord {
    /// How a store's records are checked: by its format.
    enum Checksum: Sendable {
        case sha256, crc32c

        init(format: Int) { self = format >= 3 ? .crc32c : .sha256 }

        var size: Int {
            switch self {
            case .sha256: 32
            case .crc32c: 4
            }
        }

        /// Whether `stored` (the record's first `size` bytes) is the checksum of `body`,
        /// compared without making a `RecordChecksum` of either: every read asks.
        func matches(_ stored: UnsafeRawBufferPointer, _ body: UnsafeRawBufferPointer) -> Bool {
            switch self {
            case .sha256:
                return SHA256.hash(data: body).withUnsafeBytes { $0.elementsEqual(stored) }
            case .crc32c:
                return memery_crc32c(0, body.baseAddress, body.count) == UInt32(bigEndian: stored.loadUnaligned(as: UInt32.self))
            }
        }

        /// The checksum of `body`, as the record stores it.
        func of(_ body: UnsafeRawBufferPointer) -> RecordChecksum {
            switch self {
            case .sha256:
                return SHA256.hash(data: body).withUnsafeBytes { RecordChecksum($0, size: 32) }
            case .crc32c:
                let crc = memery_crc32c(0, body.baseAddress, body.count).bigEndian
                return withUnsafeBytes(of: crc) { RecordChecksum($0, size: 4) }
            }
        }
    }

    /// The header's fixed part, before the type name.
    static let fixedHeaderSize = 8 + 8 + 16 + 8 + 4 + 8 + 2
    /// What format 2 added after the type name: the event's id and its parent's.
    static let idsSize = 16 + 16

    /// The record's size in bytes, or an error when the type name cannot be stored.
    static func size(of event: StoredEvent, _ checksum: Checksum) throws -> Int {
        let typeCount = event.type.utf8.count
        guard typeCount <= Int(UInt16.max) else { throw StoreError.damaged(sequence: event.sequence, reason: "event type name too long") }
        return checksum.size + 4 + fixedHeaderSize + typeCount + idsSize + event.payload.count
    }

    /// Writes the record into `record` (exactly `size(of:)` bytes, e.g. space LMDB reserved
    /// in its map, so the bytes are written once) and returns its checksum.
    @discardableResult
    static func write(_ event: StoredEvent, into record: UnsafeMutableRawBufferPointer, _ checksum: Checksum) -> RecordChecksum {
        var out = Writer(record: record, offset: checksum.size)
        let typeCount = event.type.utf8.count
        out.put(UInt32(fixedHeaderSize + typeCount + idsSize))
        out.put(event.sequence)
        out.put(event.batch)
        withUnsafeBytes(of: event.stream.uuid) { out.put($0) }
        out.put(event.version)
        out.put(UInt32(truncatingIfNeeded: event.schemaVersion))
        out.put(UInt64(bitPattern: event.timeMilliseconds))
        out.put(UInt16(typeCount))
        var type = event.type
        type.withUTF8 { out.put(UnsafeRawBufferPointer($0)) }
        withUnsafeBytes(of: event.id.uuid) { out.put($0) }
        withUnsafeBytes(of: (event.parent ?? noParent).uuid) { out.put($0) }
        event.payload.withUnsafeBytes { out.put($0) }
        let sum = checksum.of(UnsafeRawBufferPointer(rebasing: record[checksum.size...]))
        sum.store(into: record)
        return sum
    }

    /// Writes big-endian integers and bytes one after another. A struct, not local functions
    /// over a captured offset: closures that capture a variable have each access checked
    /// for exclusivity at run time, and those checks were a fifth of writing a record.
    private struct Writer {
        let record: UnsafeMutableRawBufferPointer
        var offset: Int

        mutating func put<T: FixedWidthInteger>(_ value: T) {
            record.storeBytes(of: value.bigEndian, toByteOffset: offset, as: T.self)
            offset += MemoryLayout<T>.size
        }

        mutating func put(_ bytes: UnsafeRawBufferPointer) {
            UnsafeMutableRawBufferPointer(rebasing: record[offset..<offset + bytes.count]).copyMemory(from: bytes)
            offset += bytes.count
        }
    }

    static func encode(_ event: StoredEvent, _ checksum: Checksum) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: try size(of: event, checksum))
        bytes.withUnsafeMutableBytes { _ = write(event, into: $0, checksum) }
        return bytes
    }

    /// The stream a record says it belongs to, read without trusting the rest (for naming
    /// what a damaged record damages): nil when even that part is cut short. A damaged
    /// byte may be in the stream id itself, so this is a guess that the caller says is one.
    static func streamIfReadable(_ record: UnsafeRawBufferPointer, _ checksum: Checksum) -> UUID? {
        let at = checksum.size + 4 + 8 + 8
        guard record.count >= at + 16 else { return nil }
        return KeyEncoding.uuid(Array(record[at..<at + 16]))
    }

    /// Decodes and checks a record; `sequence` is the key it was stored under.
    static func decode(_ record: UnsafeRawBufferPointer, sequence: UInt64, _ checksum: Checksum) throws -> StoredEvent {
        try BorrowedEvent(record, sequence: sequence, checksum).stored()
    }

    /// The parent field of an event without one.
    static let noParent = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}

extension StoredEvent {
    /// Decodes a record as a store of this build's format keeps it (checksum first), checking it.
    public static func decodeRecord(_ bytes: [UInt8], sequence: UInt64) throws -> StoredEvent {
        try bytes.withUnsafeBytes { try EventRecord.decode($0, sequence: sequence, .init(format: EventStore.formatVersion)) }
    }

    /// `body` with the checksum a record of this build's format puts in front of it (for
    /// tools that build records).
    public static func sealing(_ body: [UInt8]) -> [UInt8] {
        let checksum = EventRecord.Checksum(format: EventStore.formatVersion)
        var record = [UInt8](repeating: 0, count: checksum.size) + body
        record.withUnsafeMutableBytes { bytes in
            checksum.of(UnsafeRawBufferPointer(rebasing: bytes[checksum.size...])).store(into: bytes)
        }
        return record
    }
}
