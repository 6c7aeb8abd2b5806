import Foundation
import MemeryCRC32C
@testable import MemeryStore
import Testing

/// A record's bytes, spelled out here field by field rather than by the store's own writer,
/// so that the writer and the reader (`BorrowedEvent`) are each held to the layout in
/// docs/store-format.md, and every way a record can be cut or bent is refused by name.
@Suite struct EventRecordTests {
    static let stream = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!
    static let id = UUID(uuidString: "0190F3A1-0000-7000-8000-00000000002A")!
    static let parent = UUID(uuidString: "0190F3A1-0000-7000-8000-000000000029")!

    /// The body (everything after the checksum) of a format-3 record, written by hand.
    static func body(sequence: UInt64 = 9, headerLength: UInt32? = nil, typeLength: UInt16? = nil, ids: Bool = true,
                     parent: UUID? = Self.parent) -> [UInt8] {
        func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
        func bytes(_ uuid: UUID) -> [UInt8] { withUnsafeBytes(of: uuid.uuid, Array.init) }
        let type = Array("TextLayerEdited".utf8)
        var header = bigEndian(sequence) + bigEndian(UInt64(7)) + bytes(stream) + bigEndian(UInt64(3))
        header += bigEndian(UInt32(1)) + bigEndian(UInt64(1_795_000_000_123)) + bigEndian(typeLength ?? UInt16(type.count)) + type
        if ids { header += bytes(id) + (parent.map(bytes) ?? [UInt8](repeating: 0, count: 16)) }
        return bigEndian(headerLength ?? UInt32(header.count)) + header + Array(#"{"id":"L1","text":"hi"}"#.utf8)
    }

    static func sealed(_ body: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: memery_crc32c(0, body, body.count).bigEndian, Array.init) + body
    }

    @Test func theWriterWritesTheDocumentedBytes() throws {
        let event = StoredEvent(sequence: 9, batch: 7, stream: Self.stream, version: 3, id: Self.id, parent: Self.parent,
                                type: "TextLayerEdited", schemaVersion: 1, timeMilliseconds: 1_795_000_000_123,
                                payload: Data(#"{"id":"L1","text":"hi"}"#.utf8), checksum: RecordChecksum())
        #expect(try EventRecord.encode(event, .crc32c) == Self.sealed(Self.body()))
    }

    @Test func theReaderReadsEachFieldFromItsPlace() throws {
        let record = Self.sealed(Self.body())
        let read = try record.withUnsafeBytes { try EventRecord.decode($0, sequence: 9, .crc32c) }
        #expect(read.sequence == 9 && read.batch == 7 && read.stream == Self.stream && read.version == 3)
        #expect(read.id == Self.id && read.parent == Self.parent && read.type == "TextLayerEdited" && read.schemaVersion == 1)
        #expect(read.timeMilliseconds == 1_795_000_000_123 && read.payload == Data(#"{"id":"L1","text":"hi"}"#.utf8))
        #expect(read.checksum.bytes == Array(record.prefix(4)))
        // Sixteen zeros are no parent; a format-1 header (no ids) has its id derived and no parent.
        let orphan = try Self.sealed(Self.body(parent: nil)).withUnsafeBytes { try EventRecord.decode($0, sequence: 9, .crc32c) }
        #expect(orphan.parent == nil && orphan.id == Self.id)
        let formatOne = try Self.sealed(Self.body(ids: false)).withUnsafeBytes { try EventRecord.decode($0, sequence: 9, .crc32c) }
        #expect(formatOne.id == EventIdentity.formatOneID(stream: Self.stream, version: 3) && formatOne.parent == nil)
        #expect(formatOne.payload == read.payload)
    }

    @Test func aRecordCutOrBentIsRefusedByName() throws {
        func refusal(_ record: [UInt8], sequence: UInt64 = 9) -> String? {
            do {
                _ = try record.withUnsafeBytes { try EventRecord.decode($0, sequence: sequence, .crc32c) }
                return nil
            } catch StoreError.damaged(let at, let reason) {
                return at == sequence ? reason : "at \(String(describing: at)): \(reason)"
            } catch {
                return "\(error)"
            }
        }
        let body = Self.body()
        #expect(refusal(Array(Self.sealed(body).prefix(40))) == "record too short (40 bytes)")
        #expect(refusal(Self.sealed(Self.body(headerLength: 40))) == "header length 40 does not fit")
        #expect(refusal(Self.sealed(Self.body(headerLength: UInt32(body.count)))) == "header length \(body.count) does not fit")
        #expect(refusal(Self.sealed(Self.body(typeLength: 200))) == "type name past the header")
        #expect(refusal(Self.sealed(body), sequence: 10) == "record says sequence 9")
        var flipped = Self.sealed(body)
        flipped[30] ^= 1
        #expect(refusal(flipped) == "checksum mismatch", "checked before anything else is read")
    }

    @Test func aFormatTwoRecordWithAChangedByteIsRefused() throws {
        let event = try StoredEvent.decodeRecord(Self.sealed(Self.body()), sequence: 9)
        var older = try EventRecord.encode(event, .sha256)
        #expect(try older.withUnsafeBytes { try EventRecord.decode($0, sequence: 9, .sha256) } == event.withChecksum(of: older))
        older[older.count - 3] ^= 0x20
        #expect(throws: StoreError.damaged(sequence: 9, reason: "checksum mismatch")) {
            try older.withUnsafeBytes { try EventRecord.decode($0, sequence: 9, .sha256) }
        }
    }
}

extension StoredEvent {
    /// This event as read from `record`, whose first 32 bytes are its SHA-256.
    fileprivate func withChecksum(of record: [UInt8]) -> StoredEvent {
        var event = self
        event.checksum = record.withUnsafeBytes { RecordChecksum($0, size: 32) }
        return event
    }
}
