import CZlib
import Foundation

/// A PNG whose picture is whole though its end is not: every IDAT chunk fits the file and
/// their compressed data ends (zlib says so) holding every row, and then a later chunk is cut
/// short or garbled, or IEND is missing. Browsers show these pictures; the decoder is handed the chunks up to
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
            var needed: Int?
            while offset + 8 <= bytes.count {
                let length = Int(be32(bytes, offset)), type = bytes[(offset + 4)..<(offset + 8)]
                if type.elementsEqual("IEND".utf8) { return nil }
                let end = offset + 12 + length  // length, type, data, checksum
                guard end <= bytes.count else { break }
                if type.elementsEqual("IHDR".utf8), length >= 13 {
                    needed = rowBytes(width: Int(be32(bytes, offset + 8)), height: Int(be32(bytes, offset + 12)), depth: Int(bytes[offset + 16]),
                                      colourType: Int(bytes[offset + 17]), interlaced: bytes[offset + 20] == 1)
                }
                if type.elementsEqual("IDAT".utf8) {
                    pictureData.append((offset + 8)..<(offset + 8 + length))
                    afterPicture = end
                }
                offset = end
            }
            // The stream must hold every row (a shorter one would be drawn grey at the bottom),
            // and not much more: past that it would be a bomb, not a picture.
            guard let afterPicture, let needed, needed > 0,
                  let out = streamLength(bytes, pictureData, within: needed * 2 + (1 << 20)), out >= needed else { return nil }
            return Data(bytes[0..<afterPicture]) + end
        }
    }

    /// The bytes the rows take uncompressed: a filter byte and the pixels of each row, of each
    /// of Adam7's seven passes when interlaced; nil for a header PNG does not allow.
    static func rowBytes(width: Int, height: Int, depth: Int, colourType: Int, interlaced: Bool) -> Int? {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colourType]
        guard let channels, [1, 2, 4, 8, 16].contains(depth), width > 0, height > 0, width <= 1 << 24, height <= 1 << 24 else { return nil }
        func rows(_ columns: Int, _ count: Int) -> Int { columns > 0 && count > 0 ? count * (1 + (columns * depth * channels + 7) / 8) : 0 }
        guard interlaced else { return rows(width, height) }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.reduce(0) { sum, pass in
            sum + rows((width - pass.0 + pass.2 - 1) / pass.2, (height - pass.1 + pass.3 - 1) / pass.3)
        }
    }

    /// How many bytes the zlib stream spread over `parts` of `bytes` inflates to, when it ends
    /// there; nil when it does not, or is damaged, or passes `most` (nothing is kept).
    static func streamLength(_ bytes: UnsafeRawBufferPointer, _ parts: [Range<Int>], within most: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
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
                if status == Z_STREAM_END { return Int(stream.total_out) }
                guard status == Z_OK, Int(stream.total_out) <= most else { return nil }
            }
        }
        return nil
    }
}
