import Foundation

/// gdk-pixbuf decodes a PNG cut short without an error, filling what is missing with grey;
/// a picture that silently lost its bottom is worse than a refusal. A PNG is whole when its
/// chunks, walked by their lengths, reach IEND within the file.
enum PNGCompleteness {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Why the PNG in `data` is incomplete, or nil when it is whole (or not a PNG).
    static func problem(_ data: Data) -> String? {
        guard data.starts(with: signature) else { return nil }
        return data.withUnsafeBytes { bytes -> String? in
            var offset = signature.count
            while offset + 8 <= bytes.count {
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).bigEndian)
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                let end = offset + 12 + length  // length, type, data, CRC
                if type == "IEND" { return nil }
                guard end <= bytes.count else { break }
                offset = end
            }
            return "the image data ends early (the file was cut short at \(bytes.count) bytes)"
        }
    }
}
