import Foundation

/// Keys sort as bytes in LMDB, so numbers are stored big-endian.
enum KeyEncoding {
    static func bigEndian(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    static func uint64(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard bytes.count == 8 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func uint64(_ bytes: [UInt8]) -> UInt64? {
        bytes.withUnsafeBytes { uint64($0) }
    }

    static func uuid(_ id: UUID) -> [UInt8] {
        withUnsafeBytes(of: id.uuid) { Array($0) }
    }

    static func uuid(_ bytes: some Collection<UInt8>) -> UUID? {
        guard bytes.count == 16 else { return nil }
        let b = Array(bytes)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// The stream index key: stream id, then version.
    static func streamKey(_ stream: UUID, _ version: UInt64) -> [UInt8] {
        uuid(stream) + bigEndian(version)
    }

    /// The stream index key in a stack buffer, for the duration of `body`.
    static func withStreamKey<R>(_ stream: UUID, _ version: UInt64, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: 24, alignment: 8) { key in
            withUnsafeBytes(of: stream.uuid) { key.copyMemory(from: $0) }
            key.storeBytes(of: version.bigEndian, toByteOffset: 16, as: UInt64.self)
            return try body(UnsafeRawBufferPointer(key))
        }
    }
}
