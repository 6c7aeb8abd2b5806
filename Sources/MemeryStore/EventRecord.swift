import Crypto
import Foundation

/// The bytes of one event in the log database, all integers big-endian:
///
///     checksum       32 bytes   SHA-256 of everything after it
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
enum EventRecord {
    static let checksumSize = 32
    /// The header's fixed part, before the type name.
    static let fixedHeaderSize = 8 + 8 + 16 + 8 + 4 + 8 + 2
    /// What format 2 added after the type name: the event's id and its parent's.
    static let idsSize = 16 + 16

    /// The record's size in bytes, or an error when the type name cannot be stored.
    static func size(of event: StoredEvent) throws -> Int {
        let typeCount = event.type.utf8.count
        guard typeCount <= Int(UInt16.max) else { throw StoreError.damaged(sequence: event.sequence, reason: "event type name too long") }
        return checksumSize + 4 + fixedHeaderSize + typeCount + idsSize + event.payload.count
    }

    /// Writes the record into `record` (exactly `size(of:)` bytes, e.g. space LMDB reserved
    /// in its map, so the bytes are written once) and returns its checksum.
    @discardableResult
    static func write(_ event: StoredEvent, into record: UnsafeMutableRawBufferPointer) -> RecordChecksum {
        var offset = checksumSize
        func put<T: FixedWidthInteger>(_ value: T) {
            record.storeBytes(of: value.bigEndian, toByteOffset: offset, as: T.self)
            offset += MemoryLayout<T>.size
        }
        func put(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { record[offset] = byte; offset += 1 }
        }
        let typeCount = event.type.utf8.count
        put(UInt32(fixedHeaderSize + typeCount + idsSize))
        put(event.sequence)
        put(event.batch)
        withUnsafeBytes(of: event.stream.uuid) { put($0) }
        put(event.version)
        put(UInt32(truncatingIfNeeded: event.schemaVersion))
        put(UInt64(bitPattern: event.timeMilliseconds))
        put(UInt16(typeCount))
        put(event.type.utf8)
        withUnsafeBytes(of: event.id.uuid) { put($0) }
        withUnsafeBytes(of: (event.parent ?? noParent).uuid) { put($0) }
        event.payload.withUnsafeBytes { payload in
            UnsafeMutableRawBufferPointer(rebasing: record[offset...]).copyMemory(from: payload)
        }
        let digest = SHA256.hash(data: UnsafeRawBufferPointer(rebasing: record[checksumSize...]))
        digest.withUnsafeBytes { record.copyMemory(from: $0) }
        return RecordChecksum(UnsafeRawBufferPointer(record))
    }

    static func encode(_ event: StoredEvent) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: try size(of: event))
        bytes.withUnsafeMutableBytes { _ = write(event, into: $0) }
        return bytes
    }

    /// The stream a record says it belongs to, read without trusting the rest (for naming
    /// what a damaged record damages): nil when even that part is cut short. A damaged
    /// byte may be in the stream id itself, so this is a guess that the caller says is one.
    static func streamIfReadable(_ record: UnsafeRawBufferPointer) -> UUID? {
        let at = checksumSize + 4 + 8 + 8
        guard record.count >= at + 16 else { return nil }
        return KeyEncoding.uuid(Array(record[at..<at + 16]))
    }

    /// Decodes and checks a record; `sequence` is the key it was stored under.
    static func decode(_ record: UnsafeRawBufferPointer, sequence: UInt64) throws -> StoredEvent {
        func damaged(_ reason: String) -> StoreError { .damaged(sequence: sequence, reason: reason) }
        guard record.count >= checksumSize + 4 + fixedHeaderSize else { throw damaged("record too short (\(record.count) bytes)") }
        let stored = RecordChecksum(record)
        let body = UnsafeRawBufferPointer(rebasing: record[checksumSize...])
        guard SHA256.hash(data: body).withUnsafeBytes(RecordChecksum.init) == stored else { throw damaged("checksum mismatch") }
        var reader = Reader(body)
        let headerSize = Int(reader.read(UInt32.self))
        guard headerSize >= fixedHeaderSize, headerSize <= body.count - 4 else { throw damaged("header length \(headerSize) does not fit") }
        let seq = reader.read(UInt64.self)
        let batch = reader.read(UInt64.self)
        let stream = reader.uuid()
        let version = reader.read(UInt64.self)
        let schema = Int(reader.read(UInt32.self))
        let time = Int64(bitPattern: reader.read(UInt64.self))
        let typeLength = Int(reader.read(UInt16.self))
        guard fixedHeaderSize + typeLength <= headerSize else { throw damaged("type name past the header") }
        let type = String(decoding: reader.bytes(typeLength), as: UTF8.self)
        guard seq == sequence else { throw damaged("record says sequence \(seq)") }
        let id: UUID, parent: UUID?
        if headerSize >= fixedHeaderSize + typeLength + idsSize {
            id = reader.uuid()
            let storedParent = reader.uuid()
            parent = storedParent == noParent ? nil : storedParent
        } else {
            // Derived only for a format-1 record: hashing it for every record, to be
            // overwritten by the stored id, was half of the 2026-11-22 slowdown of replay.
            id = EventIdentity.formatOneID(stream: stream, version: version)
            parent = nil
        }
        return StoredEvent(sequence: sequence, batch: batch, stream: stream, version: version, id: id, parent: parent,
                           type: type, schemaVersion: schema,
                           timeMilliseconds: time, payload: Data(bytes: body.baseAddress! + 4 + headerSize, count: body.count - 4 - headerSize),
                           checksum: stored)
    }

    /// The parent field of an event without one.
    static let noParent = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// Reads big-endian integers off the front of a buffer whose length was checked first.
    private struct Reader {
        let buffer: UnsafeRawBufferPointer
        var offset = 0

        init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

        mutating func read<T: FixedWidthInteger>(_: T.Type) -> T {
            defer { offset += MemoryLayout<T>.size }
            return T(bigEndian: buffer.loadUnaligned(fromByteOffset: offset, as: T.self))
        }

        /// 16 bytes as a UUID, copied without an intermediate array.
        mutating func uuid() -> UUID {
            defer { offset += 16 }
            return UUID(uuid: buffer.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))
        }

        mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer.SubSequence {
            defer { offset += count }
            return buffer[offset..<(offset + count)]
        }
    }
}

extension StoredEvent {
    /// Decodes a record as the log stores it (checksum first), checking it.
    public static func decodeRecord(_ bytes: [UInt8], sequence: UInt64) throws -> StoredEvent {
        try bytes.withUnsafeBytes { try EventRecord.decode($0, sequence: sequence) }
    }

    /// `body` with the checksum a record puts in front of it (for tools that build records).
    public static func sealing(_ body: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: body)) + body
    }
}
