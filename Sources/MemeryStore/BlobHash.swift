import Crypto
import Foundation

/// Content address of a blob: the SHA-256 of its bytes, as lower-case hex.
public enum BlobHash {
    public static func of(_ data: Data) -> String {
        hex(SHA256.hash(data: data))
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

    /// Lower-case hex, by table (`String(format:)` costs microseconds a byte).
    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
