import Foundation

/// gdk-pixbuf decodes a PNG, a JPEG, a WebP or a BMP cut short without an error, filling what is missing
/// with grey; a picture that silently lost its bottom is worse than a refusal (Pillow refuses
/// them too). So the end is looked for before decoding:
/// - a PNG is whole when its chunks, walked by their lengths, reach IEND within the file
///   (one whose picture data is whole but whose end is damaged is mended first: `PNGTail`);
/// - a JPEG is whole when an end-of-image marker (FF D9) follows its first scan: the
///   compressed data escapes every FF, so the pair appears there only as the marker, and a
///   thumbnail's own end marker sits before the main scan, in its EXIF block;
/// - a WebP is whole when the file holds as many bytes as its RIFF header declares;
/// - an uncompressed BMP is whole when its rows, from where its pixels start, fit the file
///   (run-length BMPs have no size to check; the decoder judges those).
enum Completeness {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The plain words for a picture cut short.
    static func cutShort(at bytes: Int) -> String {
        "the file ends before the picture does (it was cut short at \(bytes) bytes, probably while being copied or downloaded)"
    }

    /// Why the picture in `data` is incomplete, with its format, or nil when it is whole (or
    /// none of those).
    static func problem(_ data: Data) -> (format: String, reason: String)? {
        data.withUnsafeBytes { bytes in
            if bytes.starts(with: pngSignature) {
                switch png(bytes) {
                case .whole: return nil
                case .cut: return ("png", cutShort(at: bytes.count))
                case .damaged(let offset): return ("png", damaged(at: offset))
                }
            }
            if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return jpeg(bytes) ? nil : ("jpeg", cutShort(at: bytes.count)) }
            if bytes.count >= 12, bytes.starts(with: "RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
                return bytes.count >= 8 + Int(le32(bytes, 4)) ? nil : ("webp", cutShort(at: bytes.count))
            }
            if bytes.starts(with: "BM".utf8) { return bmp(bytes) ? nil : ("bmp", cutShort(at: bytes.count)) }
            return nil
        }
    }

    /// The plain words for a picture whose bytes stop making sense before its end.
    static func damaged(at offset: Int) -> String {
        "its bytes stop making sense at byte \(offset) (the file was changed or broken there, not cut short): take the picture again from where it came"
    }

    enum PNGEnd: Equatable { case whole, cut, damaged(at: Int) }

    /// Walks the chunks by their lengths to IEND. A chunk whose type is not four letters (as
    /// every PNG chunk's is) was reached through a damaged length or damaged data: the file
    /// was broken, not cut short, and saying "cut short" of a file of its whole size misleads.
    static func png(_ bytes: UnsafeRawBufferPointer) -> PNGEnd {
        var offset = pngSignature.count
        while offset + 8 <= bytes.count {
            let length = Int(be32(bytes, offset))
            let end = offset + 12 + length  // length, type, data, CRC
            let type = bytes[(offset + 4)..<(offset + 8)]
            guard type.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { return .damaged(at: offset) }
            if type.elementsEqual("IEND".utf8) { return .whole }
            guard end <= bytes.count else { return .cut }
            offset = end
        }
        return .cut
    }

    private static func bmp(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 30 else { return false }
        let pixelOffset = Int(le32(bytes, 10)), dibSize = Int(le32(bytes, 14))
        let width: Int, height: Int, bitCount: Int
        if dibSize == 12 {
            (width, height, bitCount) = (Int(le16(bytes, 18)), Int(le16(bytes, 20)), Int(le16(bytes, 24)))
        } else {
            guard dibSize >= 16 else { return false }
            // A short OS/2 header may end before the compression field: none.
            let compression = dibSize >= 20 && bytes.count >= 34 ? le32(bytes, 30) : 0
            guard compression == 0 || compression == 3 || compression == 6 else { return true }
            width = abs(Int(Int32(bitPattern: le32(bytes, 18))))
            height = abs(Int(Int32(bitPattern: le32(bytes, 22))))
            bitCount = Int(le16(bytes, 28))
        }
        // Declared sizes can be anything: a product that overflows cannot fit the file either.
        let rowBytes = (bitCount * width + 31) / 32 * 4
        let (pixelBytes, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        return !overflow && pixelBytes <= bytes.count - pixelOffset
    }

    /// Walks the markers to the first start of scan, then looks for FF D9 after it.
    private static func jpeg(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return true }  // not marker structure: the decoder judges
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            if marker == 0xD9 { return true }
            let segmentEnd = offset + 2 + Int(be16(bytes, offset + 2))
            if marker == 0xDA {
                // From the end backwards: a whole file ends with the marker, or a few bytes
                // after it, so the search is short where it is not refused.
                var at = bytes.count - 2
                while at >= segmentEnd {
                    if bytes[at] == 0xFF, bytes[at + 1] == 0xD9 { return true }
                    at -= 1
                }
                return false
            }
            offset = segmentEnd
        }
        return false
    }
}
