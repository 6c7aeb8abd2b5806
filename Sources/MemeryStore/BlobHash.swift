import Crypto
import Foundation

/// Content address of a blob: the SHA-256 of its bytes, as lower-case hex.
public enum BlobHash {
    public static func of(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    static func key(_ hex: String) -> [UInt8]? {
        guard hex.count == 64 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    static func hex(_ key: UnsafeRawBufferPointer) -> String {
        key.map { String(format: "%02x", $0) }.joined()
    }
}
