import Foundation

/// A record checked and read where it lies in the map: its envelope's fields are read from
/// the record's bytes when asked, and its type and payload are pointers into them. Nothing
/// is copied or allocated, so a scan that looks at most records and decodes few (the
/// gallery's, a replay's) pays for what it uses. `stored()` copies it into a `StoredEvent`.
///
/// It lives only inside the scan's closure that was handed it: the bytes belong to LMDB's
/// read transaction, which ends with the scan. (A `~Escapable` type would let the compiler
/// say so; in Swift 6.3 that still needs an experimental feature.)
public struct BorrowedEvent {
    /// Position in the global log: the key it was stored under, which the record repeats.
    public let sequence: UInt64
    /// The record after its checksum: header length, header, payload.
    private let body: UnsafeRawBufferPointer
    private let headerSize: Int
    private let typeLength: Int
    private let storedChecksum: UnsafeRawBufferPointer

    // Offsets in `body`, after the header length (4): seq 8, batch 8, stream 16, version 8,
    // schema 4, time 8, type length 2, type, then (format 2) id 16 and parent 16.
    private static let batchOffset = 12, streamOffset = 20, versionOffset = 36, schemaOffset = 44, timeOffset = 48
    private static let typeOffset = 4 + EventRecord.fixedHeaderSize

    /// Checks `record` (the value stored under `sequence`) and reads it in place, or throws
    /// `StoreError.damaged` naming what does not hold.
    init(_ record: UnsafeRawBufferPointer, sequence: UInt64, _ checksum: EventRecord.Checksum) throws {
        func damaged(_ reason: String) -> StoreError { .damaged(sequence: sequence, reason: reason) }
        guard record.count >= checksum.size + 4 + EventRecord.fixedHeaderSize else { throw damaged("record too short (\(record.count) bytes)") }
        let body = UnsafeRawBufferPointer(rebasing: record[checksum.size...])
        storedChecksum = UnsafeRawBufferPointer(rebasing: record[..<checksum.size])
        guard checksum.matches(storedChecksum, body) else { throw damaged("checksum mismatch") }
        let headerSize = Int(UInt32(bigEndian: body.loadUnaligned(as: UInt32.self)))
        guard headerSize >= EventRecord.fixedHeaderSize, headerSize <= body.count - 4 else { throw damaged("header length \(headerSize) does not fit") }
        let typeLength = Int(UInt16(bigEndian: body.loadUnaligned(fromByteOffset: Self.typeOffset - 2, as: UInt16.self)))
        guard EventRecord.fixedHeaderSize + typeLength <= headerSize else { throw damaged("type name past the header") }
        let seq = UInt64(bigEndian: body.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
        guard seq == sequence else { throw damaged("record says sequence \(seq)") }
        (self.sequence, self.body, self.headerSize, self.typeLength) = (sequence, body, headerSize, typeLength)
    }

    public var batch: UInt64 { integer(at: Self.batchOffset) }
    public var stream: UUID { uuid(at: Self.streamOffset) }
    public var version: UInt64 { integer(at: Self.versionOffset) }
    public var schemaVersion: Int { Int(integer(at: Self.schemaOffset) as UInt32) }
    public var timeMilliseconds: Int64 { Int64(bitPattern: integer(at: Self.timeOffset)) }

    /// The type name's UTF-8 bytes, in place.
    public var typeUTF8: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: body[Self.typeOffset..<(Self.typeOffset + typeLength)]) }
    public var type: String { String(decoding: typeUTF8, as: UTF8.self) }

    /// The payload's JSON bytes, in place.
    public var payload: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: body[(4 + headerSize)...]) }

    /// Format 2 and later store the ids after the type; a format-1 record's are derived.
    private var storesIDs: Bool { headerSize >= EventRecord.fixedHeaderSize + typeLength + EventRecord.idsSize }

    public var id: UUID {
        // Derived only for a format-1 record: hashing it for every record, to be overwritten
        // by the stored id, was half of the 2026-11-22 slowdown of replay.
        storesIDs ? uuid(at: Self.typeOffset + typeLength) : EventIdentity.formatOneID(stream: stream, version: version)
    }

    public var parent: UUID? {
        let at = Self.typeOffset + typeLength + 16
        guard storesIDs, body.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self) != .zero else { return nil }  // zeros: none
        return uuid(at: at)
    }

    public var isPurged: Bool { typeUTF8.elementsEqual(StoredEvent.purgedType.utf8) }

    /// A copy that outlives the scan.
    public func stored() -> StoredEvent {
        StoredEvent(sequence: sequence, batch: batch, stream: stream, version: version, id: id, parent: parent,
                    type: type, schemaVersion: schemaVersion, timeMilliseconds: timeMilliseconds,
                    payload: Data(payload), checksum: RecordChecksum(storedChecksum, size: storedChecksum.count))
    }

    @inline(__always) private func integer<T: FixedWidthInteger>(at offset: Int) -> T {
        T(bigEndian: body.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    @inline(__always) private func uuid(at offset: Int) -> UUID {
        UUID(uuid: body.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))
    }
}
