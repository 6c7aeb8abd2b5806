import Foundation

/// Where a BMP's pixels are. gdk-pixbuf's loader reads them right after the header (and the
/// palette of a picture with one), ignoring the offset the file gives, so a BMP with a gap
/// there, or a 16- or 32-bit one that carries a palette it does not need, came out shifted,
/// while browsers honour the offset. The copy handed to the loader has the pixels where it
/// reads them.
enum BMPLayout {
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
            for (index, value) in [(10, headerEnd), (2, headerEnd + bytes.count - pixelOffset)] {
                for byte in 0..<4 { header[index + byte] = UInt8(value >> (8 * byte) & 0xFF) }
            }
            if bitCount > 8 { for byte in 0..<4 { header[46 + byte] = 0 } }  // no palette
            return Data(header) + Data(bytes[pixelOffset...])
        }
    }
}
