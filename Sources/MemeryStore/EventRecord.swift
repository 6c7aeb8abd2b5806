import Crypto
import Foundation

/// The bytes of one event in the log database:
///
///     checksum (32 bytes: SHA-256 of everything after it)
///     header length (4 bytes, big-endian)
///     header (JSON: seq, batch, stream, version, type, schema, time)
///     payload (JSON, exactly as the domain encoded it)
///
/// The checksum covers the bytes as stored, so checking it needs no re-encoding.
enum EventRecord {
    struct Header: Codable {
        var seq: UInt64
        /// Absent in records written before batches were recorded: each was its own batch.
        var batch: UInt64?
        var stream: UUID
        var version: UInt64
        var type: String
        var schema: Int
        var time: Int64
    }

    static let checksumSize = 32

    static func encode(_ event: StoredEvent) throws -> [UInt8] {
        let header = Header(seq: event.sequence, batch: event.batch, stream: event.stream, version: event.version,
                            type: event.type, schema: event.schemaVersion, time: event.timeMilliseconds)
        let headerBytes = try JSONEncoder().encode(header)
        var body = [UInt8]()
        body.reserveCapacity(4 + headerBytes.count + event.payload.count)
        body += withUnsafeBytes(of: UInt32(headerBytes.count).bigEndian) { Array($0) }
        body += headerBytes
        body += event.payload
        return Array(SHA256.hash(data: body)) + body
    }

    static func checksum(of record: [UInt8]) -> [UInt8] {
        Array(record.prefix(checksumSize))
    }

    /// Decodes and checks a record; `sequence` is the key it was stored under.
    static func decode(_ record: UnsafeRawBufferPointer, sequence: UInt64) throws -> StoredEvent {
        func damaged(_ reason: String) -> StoreError { .damaged(sequence: sequence, reason: reason) }
        guard record.count >= checksumSize + 4 else { throw damaged("record too short (\(record.count) bytes)") }
        let stored = Array(record[0..<checksumSize])
        let body = UnsafeRawBufferPointer(rebasing: record[checksumSize...])
        guard Array(SHA256.hash(data: body)) == stored else { throw damaged("checksum mismatch") }
        let headerLength = Int(body[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        guard headerLength <= body.count - 4 else { throw damaged("header length \(headerLength) past the end") }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(body[4..<(4 + headerLength)]))
        } catch {
            throw damaged("unreadable header")
        }
        guard header.seq == sequence else { throw damaged("record says sequence \(header.seq)") }
        return StoredEvent(sequence: sequence, batch: header.batch ?? sequence, stream: header.stream, version: header.version,
                           type: header.type, schemaVersion: header.schema, timeMilliseconds: header.time,
                           payload: Data(body[(4 + headerLength)...]), checksum: stored)
    }
}
