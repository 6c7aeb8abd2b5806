import Crypto
import Foundation

/// The bytes of one event in the log database, all integers big-endian:
///
///     checksum       32 bytes   SHA-256 of everything after it
///     header length   4 bytes   the header's size, so later formats can add fields
///     header                    seq (8), batch (8), stream id (16), version (8),
///                               schema (4), time in ms (8), type length (2), type (UTF-8)
///     payload                   JSON, exactly as the domain encoded it
///
/// The checksum covers the bytes as stored, so checking it needs no re-encoding; the header
/// is fixed binary so that reading an event costs no parsing beyond its payload.
enum EventRecord {
    static let checksumSize = 32
    /// The header's fixed part, before the type name.
    static let fixedHeaderSize = 8 + 8 + 16 + 8 + 4 + 8 + 2

    static func encode(_ event: StoredEvent) throws -> [UInt8] {
        let type = Array(event.type.utf8)
        guard type.count <= Int(UInt16.max) else { throw StoreError.damaged(sequence: event.sequence, reason: "event type name too long") }
        var body = [UInt8]()
        let headerSize = fixedHeaderSize + type.count
        body.reserveCapacity(4 + headerSize + event.payload.count)
        append(&body, UInt32(headerSize))
        append(&body, event.sequence)
        append(&body, event.batch)
        body += KeyEncoding.uuid(event.stream)
        append(&body, event.version)
        append(&body, UInt32(truncatingIfNeeded: event.schemaVersion))
        append(&body, UInt64(bitPattern: event.timeMilliseconds))
        append(&body, UInt16(type.count))
        body += type
        body += event.payload
        return Array(SHA256.hash(data: body)) + body
    }

    private static func append<T: FixedWidthInteger>(_ bytes: inout [UInt8], _ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }

    static func checksum(of record: [UInt8]) -> [UInt8] {
        Array(record.prefix(checksumSize))
    }

    /// Decodes and checks a record; `sequence` is the key it was stored under.
    static func decode(_ record: UnsafeRawBufferPointer, sequence: UInt64) throws -> StoredEvent {
        func damaged(_ reason: String) -> StoreError { .damaged(sequence: sequence, reason: reason) }
        guard record.count >= checksumSize + 4 + fixedHeaderSize else { throw damaged("record too short (\(record.count) bytes)") }
        let stored = Array(record[0..<checksumSize])
        let body = UnsafeRawBufferPointer(rebasing: record[checksumSize...])
        guard SHA256.hash(data: body).elementsEqual(stored) else { throw damaged("checksum mismatch") }
        var reader = Reader(body)
        let headerSize = Int(reader.read(UInt32.self))
        guard headerSize >= fixedHeaderSize, headerSize <= body.count - 4 else { throw damaged("header length \(headerSize) does not fit") }
        let seq = reader.read(UInt64.self)
        let batch = reader.read(UInt64.self)
        guard let stream = KeyEncoding.uuid(reader.bytes(16)) else { throw damaged("unreadable stream id") }
        let version = reader.read(UInt64.self)
        let schema = Int(reader.read(UInt32.self))
        let time = Int64(bitPattern: reader.read(UInt64.self))
        let typeLength = Int(reader.read(UInt16.self))
        guard fixedHeaderSize + typeLength <= headerSize else { throw damaged("type name past the header") }
        let type = String(decoding: reader.bytes(typeLength), as: UTF8.self)
        guard seq == sequence else { throw damaged("record says sequence \(seq)") }
        return StoredEvent(sequence: sequence, batch: batch, stream: stream, version: version, type: type, schemaVersion: schema,
                           timeMilliseconds: time, payload: Data(body[(4 + headerSize)...]), checksum: stored)
    }

    /// Reads big-endian integers off the front of a buffer whose length was checked first.
    private struct Reader {
        let buffer: UnsafeRawBufferPointer
        var offset = 0

        init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

        mutating func read<T: FixedWidthInteger>(_: T.Type) -> T {
            defer { offset += MemoryLayout<T>.size }
            return T(bigEndian: buffer.loadUnaligned(fromByteOffset: offset, as: T.self))
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
