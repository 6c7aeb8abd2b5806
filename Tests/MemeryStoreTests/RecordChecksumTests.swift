import Foundation
import MemeryCRC32C
@testable import MemeryStore
import Testing

/// Store format 3 checks each record with CRC32C (issue 34): the standard function, the same
/// from the processor's instruction as from the table, and a changed byte anywhere in a
/// record refused.
@Suite struct RecordChecksumTests {
    /// RFC 3720's test vectors (iSCSI), and the usual check value.
    static let vectors: [([UInt8], UInt32)] = [
        (Array("123456789".utf8), 0xE306_9283),
        ([UInt8](repeating: 0, count: 32), 0x8A91_36AA),
        ([UInt8](repeating: 0xFF, count: 32), 0x62A8_AB43),
        (Array(0..<32), 0x46DD_794E),
        (Array((0..<32).reversed()), 0x113F_DB5C),
    ]

    @Test func crc32cIsTheStandardOneFromTheProcessorAndFromTheTable() {
        for (bytes, expected) in Self.vectors {
            #expect(memery_crc32c(0, bytes, bytes.count) == expected, "\(bytes.count) bytes")
            #expect(memery_crc32c_portable(0, bytes, bytes.count) == expected, "\(bytes.count) bytes")
        }
        // In pieces, at every length and alignment the table's slicing meets.
        let long = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        for cut in [0, 1, 7, 8, 9, 500, 999, 1_000] {
            let first = memery_crc32c(0, long, cut)
            let whole = long.withUnsafeBytes { memery_crc32c(first, $0.baseAddress! + cut, long.count - cut) }
            #expect(whole == memery_crc32c_portable(0, long, long.count), "cut at \(cut)")
        }
    }

    @Test func aFormatThreeRecordCarriesACRC32CAndRefusesAnyChangedByte() throws {
        let event = StoredEvent(sequence: 7, batch: 7, stream: UUID(), version: 1, id: UUID(), parent: nil, type: "TextLayerEdited",
                                schemaVersion: 1, timeMilliseconds: 1_795_000_000_000, payload: Data(#"{"id":"L1","text":"hi"}"#.utf8),
                                checksum: RecordChecksum())
        let record = try EventRecord.encode(event, .crc32c)
        #expect(record.count == (try EventRecord.encode(event, .sha256)).count - 28, "4 bytes of checksum, not 32")
        let crc = record.dropFirst(4).withUnsafeBytes { memery_crc32c(0, $0.baseAddress, $0.count) }
        #expect(Array(record.prefix(4)) == withUnsafeBytes(of: crc.bigEndian, Array.init), "stored big-endian")
        let read = try record.withUnsafeBytes { try EventRecord.decode($0, sequence: 7, .crc32c) }
        #expect(read.payload == event.payload && read.id == event.id && read.checksumHex.count == 8)
        for index in record.indices {
            var damaged = record
            damaged[index] ^= 0x10
            #expect(throws: StoreError.damaged(sequence: 7, reason: "checksum mismatch")) {
                try damaged.withUnsafeBytes { try EventRecord.decode($0, sequence: 7, .crc32c) }
            }
        }
        // A format-2 record is still read as format 2 (SHA-256), and not as format 3.
        let older = try EventRecord.encode(event, .sha256)
        #expect(try older.withUnsafeBytes { try EventRecord.decode($0, sequence: 7, .sha256) }.payload == event.payload)
        #expect(throws: StoreError.self) { try older.withUnsafeBytes { try EventRecord.decode($0, sequence: 7, .crc32c) } }
    }
}
