import Foundation

/// Where a BMP's pixels are. gdk-pixbuf's loader reads them right after the header (and the
/// palette of a picture with one), ignoring the offset the file gives, so a BMP with a gap
/// there, or a 16- or 32-bit one that carries a palette it does not need, came out shifted,
/// while browsers honour the offset. The copy handed to the loader has the pixels where it
/// reads them.
///
/// OS/2 files are made plain too: a version 1 header (12 bytes) whose palette is shorter than
/// its bit depth allows gets the missing entries (the loader read the pixels as palette and
/// drew black), and a version 2 header cut to fewer than 40 bytes, which the loader refuses,
/// becomes a 40-byte header with the fields it left out set to their defaults.
enum BMPLayout {
    /// The file as the loader reads it right, or nil when it already does.
    static func mended(_ data: Data) -> Data? {
        let plain = os2(data)
        return contiguous(plain ?? data) ?? plain
    }

    /// An OS/2 header the loader misreads, rewritten; nil for any other.
    static func os2(_ data: Data) -> Data? {
        data.withUnsafeBytes { bytes -> Data? in
            guard bytes.count >= 30, bytes[0] == UInt8(ascii: "B"), bytes[1] == UInt8(ascii: "M") else { return nil }
            let dibSize = Int(le32(bytes, 14)), pixelOffset = Int(le32(bytes, 10))
            guard pixelOffset <= bytes.count else { return nil }
            if dibSize == 12 {
                let bitCount = Int(le16(bytes, 24))
                guard bitCount <= 8, pixelOffset >= 26 else { return nil }
                let missing = (1 << bitCount) - (pixelOffset - 26) / 3
                guard missing > 0, (pixelOffset - 26) % 3 == 0 else { return nil }
                return rewritten(bytes, header: [UInt8](bytes[0..<pixelOffset]) + [UInt8](repeating: 0, count: missing * 3), pixelsFrom: pixelOffset)
            }
            guard dibSize >= 16, dibSize < 40, pixelOffset >= 14 + dibSize, bytes.count >= 14 + dibSize else { return nil }
            // Width, height, planes and bit depth are where version 3 has them; what follows
            // (compression, sizes, colours used) is kept where the short header has it.
            var header = [UInt8](bytes[0..<(14 + dibSize)]) + [UInt8](repeating: 0, count: 40 - dibSize)
            header[14] = 40
            if dibSize >= 20, le32(bytes, 30) > 2 { return nil }  // OS/2's Huffman or RLE24: the loader cannot
            return rewritten(bytes, header: header + [UInt8](bytes[(14 + dibSize)..<pixelOffset]), pixelsFrom: pixelOffset)
        }
    }

    /// `header` (which ends where the pixels will start) and the pixels from `pixelsFrom`, with
    /// the file size and pixel offset set to match.
    private static func rewritten(_ bytes: UnsafeRawBufferPointer, header: [UInt8], pixelsFrom: Int) -> Data {
        var header = header
        for (index, value) in [(10, header.count), (2, header.count + bytes.count - pixelsFrom)] {
            for byte in 0..<4 { header[index + byte] = UInt8(value >> (8 * byte) & 0xFF) }
        }
        return Data(header) + Data(bytes[pixelsFrom...])
    }

    /// The file with its pixels moved to right after the header; nil when they are there
    /// already or the header cannot be read (the loader then judges it as it is).
    static func contiguous(_ data: Data) -> Data? {
        data.withUnsafeBytes { bytes -> Data? in
            guard bytes.count >= 54, bytes[0] == UInt8(ascii: "B"), bytes[1] == UInt8(ascii: "M") else { return nil }
            let dibSize = Int(le32(bytes, 14)), pixelOffset = Int(le32(bytes, 10))
            guard dibSize >= 40, dibSize <= 124 else { return nil }
            let bitCount = Int(le16(bytes, 28)), compression = le32(bytes, 30)
            guard compression != 4, compression != 5 else { return nil }  // a JPEG or PNG inside: the loader's
            // Bit masks follow a version 3 header; later versions hold them inside.
            let masks = dibSize == 40 ? (compression == 3 ? 12 : compression == 6 ? 16 : 0) : 0
            var colours = Int(le32(bytes, 46))
            if bitCount <= 8, colours == 0 { colours = 1 << bitCount }
            if bitCount > 8 { colours = 0 }  // a palette is only a suggestion there: left out
            let headerEnd = 14 + dibSize + masks + colours * 4
            guard headerEnd <= bytes.count, pixelOffset < bytes.count else { return nil }
            let paletteDropped = bitCount > 8 && le32(bytes, 46) != 0
            guard pixelOffset > headerEnd || paletteDropped else { return nil }
            guard pixelOffset >= headerEnd else { return nil }  // pixels inside the header: left to the refusal
            var header = [UInt8](bytes[0..<headerEnd])
            if bitCount > 8 { for byte in 0..<4 { header[46 + byte] = 0 } }  // no palette
            return rewritten(bytes, header: header, pixelsFrom: pixelOffset)
        }
    }
}
