import Crypto
import Foundation

enum SHA256Digest {
    static func of(_ data: Data) -> [UInt8] { Array(SHA256.hash(data: data)) }
    static func of(_ text: String) -> [UInt8] { Array(SHA256.hash(data: Data(text.utf8))) }
}
