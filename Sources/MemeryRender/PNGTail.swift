import CZlib
import Foundation

/// A PNG whose picture is whole though its end is not: every IDAT chunk fits the file and
/// their compressed data ends (zlib says so), and then a later chunk is cut short or garbled,
/// or IEND is missing. Browsers show these pictures; the decoder is handed the chunks up to
/// the last IDAT with a fresh IEND, so the damage after the picture cannot stop it. A file
/// cut inside its picture data stays refused (`Completeness`): its bottom is missing.
enum PNGTail {
    /// IEND: no data, and its checksum.
    static let end: [UInt8] = [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]

    /// The chunks through the last IDAT and a new IEND, when the file does not reach its own
    /// IEND but its picture data is whole; nil otherwise (a whole file, not a PNG, or one truly
    /// cut short).
    static func mended(_ data: Data) -> Data? {
        data.withUnsafeBytes { bytes -> Data? in
            guard bytes.starts(with: Completeness.pngSignature) else { return nil }
            var offset = Completeness.pngSignature.count
            var pictureData = [Range<Int>](), afterPicture: Int?
            var width = 0, height = 0
            while offset + 8 <= bytes.count {
                let length = Int(be32(bytes, offset)), type = bytes[(offset + 4)..<(offset + 8)]
                if type.elementsEqual("IEND".utf8) { return nil }
                let end = offset + 12 + length  // length, type, data, checksum
                guard end <= bytes.count else { break }
                if type.elementsEqual("IHDR".utf8), length >= 8 { (width, height) = (Int(be32(bytes, offset + 8)), Int(be32(bytes, offset + 12))) }
                if type.elementsEqual("IDAT".utf8) {
                    pictureData.append((offset + 8)..<(offset + 8 + length))
                    afterPicture = end
                }
                offset = end
            }
            // What the picture's rows can take uncompressed, at most: 8 bytes a pixel and a
            // filter byte a row, twice over for interlacing; more would be a bomb, not a picture.
            let most = (width * 8 + 1) * height * 2 + (1 << 20)
            guard let afterPicture, width > 0, height > 0, streamEnds(bytes, pictureData, within: most) else { return nil }
            return Data(bytes[0..<afterPicture]) + end
        }
    }

    /// Whether the zlib stream spread over `parts` of `bytes` ends there, inflating into a
    /// scratch buffer (nothing is kept) and giving up past `most` bytes out.
    static func streamEnds(_ bytes: UnsafeRawBufferPointer, _ parts: [Range<Int>], within most: Int) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return false }
        defer { inflateEnd(&stream) }
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        for part in parts {
            stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self) + part.lowerBound)
            stream.avail_in = UInt32(part.count)
            while stream.avail_in > 0 {
                let status = scratch.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                if status == Z_STREAM_END { return true }
                guard status == Z_OK, Int(stream.total_out) <= most else { return false }
            }
        }
        return false
    }
}
