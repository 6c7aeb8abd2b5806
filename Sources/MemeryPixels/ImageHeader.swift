import Foundation
import MemeryCore

/// What a picture's first bytes say before any decoder runs: its format (from its
/// signature, not its name) and, for the formats Memery accepts, the size it declares and,
/// for GIF and WebP, how many frames it holds. Checked against the limits before gdk-pixbuf sees a
/// byte, so no loader allocates for a size or a frame count that would be refused.
package struct ImageHeader: Equatable {
    /// gdk-pixbuf's name for the format (png, jpeg, gif, webp, bmp, tiff, avif), or a name
    /// for people of one Memery does not accept by default (an ICNS icon, ...); nil: unknown.
    package var format: String?
    /// What the format is called in messages: "PNG", "an ICNS icon", ...
    var kind: String
    /// The declared size, when the header gives one (the largest frame's for GIF).
    var width: Int?
    var height: Int?
    package var frames = 1
    /// How often an animated GIF plays (its NETSCAPE2.0 extension), wherever the file puts it.
    var loops: AnimationLoops = nil
    /// Why the file cannot be used whatever the limits: a variant the decoder gets wrong.
    var refusal: String?
    /// A feature of its format the decoder does not read, said plainly (a lossless JPEG).
    var unreadable: String?
    /// Damage seen in the header itself (a JPEG whose first segment is broken): said as damage,
    /// not as an unknown format.
    var damage: String?
    /// The decoder hands over this picture's colours already multiplied by alpha (an 8-bit
    /// TIFF with associated alpha) though it says they are straight.
    var premultipliedAlpha = false
    /// The decoder takes a fourth channel for alpha where the file says it is not
    /// transparency (a TIFF's "unspecified" extra sample; a 32-bit TGA with no alpha bits):
    /// those pictures are drawn opaque.
    var fourthChannelIsNotAlpha = false
    /// The gdk-pixbuf loader to use when the loaders' own sniffing would miss the format (a
    /// BigTIFF, which the TIFF loader reads but does not recognise); nil: let them sniff.
    var loader: String?
    /// No picture at all: text, a web page, a PDF (`kind` says which), refused whatever
    /// formats are let in.
    var notAPicture = false

    /// The formats `read` tells by their signature (TGA, which has none, by a header whose
    /// fields agree).
    static let signedFormats: Set<String> = ["png", "jpeg", "gif", "webp", "bmp", "tiff", "avif", "icns", "ico", "ani", "qtif", "xpm", "pnm", "xbm", "tga", "svg"]

    package static func read(_ data: Data) -> ImageHeader {
        data.withUnsafeBytes { read($0) }  // in place: a picture can be hundreds of megabytes
    }

    private static func read(_ bytes: Bytes) -> ImageHeader {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && bytes[offset..<(offset + signature.count)].elementsEqual(signature)
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }

        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            var header = ImageHeader(format: "png", kind: "PNG")
            if bytes.count >= 24, ascii("IHDR", at: 12) { (header.width, header.height) = (Int(be32(bytes, 16)), Int(be32(bytes, 20))) }
            return header
        }
        if starts([0xFF, 0xD8, 0xFF]) { return jpeg(bytes) }
        if starts([0xFF, 0xD8]), bytes.count >= 4 {
            // A JPEG's start marker, then no marker: damaged right at the start, not another format.
            var header = ImageHeader(format: "jpeg", kind: "JPEG")
            header.damage = String(format: "it breaks off right after its start: the start marker FF D8 is followed by %02X %02X where the next segment's marker should be",
                                   bytes[2], bytes[3])
            return header
        }
        if ascii("GIF87a") || ascii("GIF89a") { return gif(bytes) }
        if ascii("RIFF"), ascii("WEBP", at: 8) { return webp(bytes) }
        if ascii("BM") { return bmp(bytes) }
        if ascii("II*\u{0}") || ascii("MM\u{0}*") { return tiff(bytes, big: false) }
        if ascii("II+\u{0}") || ascii("MM\u{0}+") { return tiff(bytes, big: true) }
        if ascii("ftyp", at: 4), bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if brand == "avif" || brand == "avis" { return ImageHeader(format: "avif", kind: "AVIF") }
            return ImageHeader(format: nil, kind: "a HEIF picture (brand \(brand))")
        }
        // Formats an installed loader may read but Memery does not accept by default.
        if ascii("icns") { return ImageHeader(format: "icns", kind: "an ICNS icon") }
        // ICO and CUR: reserved 0, type 1 or 2, and at least one image (an uncompressed TGA
        // starts 00 00 02 00 too, with no colour map: 0 there).
        if starts([0, 0, 1, 0]) || starts([0, 0, 2, 0]), bytes.count >= 6, le16(bytes, 4) > 0 {
            return ImageHeader(format: "ico", kind: "an ICO icon")
        }
        if ascii("RIFF"), ascii("ACON", at: 8) { return ImageHeader(format: "ani", kind: "an animated cursor (ANI)") }
        if ["idsc", "idat", "iicc", "moov", "mdat"].contains(where: { ascii($0, at: 4) }) {
            return ImageHeader(format: "qtif", kind: "a QuickTime image (QTIF)")
        }
        if ascii("/* XPM */") { return ImageHeader(format: "xpm", kind: "an XPM picture") }
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(bytes[1]) {
            return pnm(bytes)
        }
        if ascii("#define") { return ImageHeader(format: "xbm", kind: "an XBM picture") }
        if SVGPicture.isSVG(bytes) {
            var header = ImageHeader(format: "svg", kind: "SVG")
            header.loader = "svg"
            if let own = SVGPicture.ownSize(bytes), let size = SVGPicture.rasterSize(width: own.width, height: own.height) {
                (header.width, header.height) = size
            }
            return header
        }
        // Last: TGA has no signature, only a header whose fields must agree.
        if let header = tga(bytes) { return header }
        // No picture's signature: what the bytes are, when they are certainly something else.
        // (513 bytes: one past the window tells it that the file goes on, so a character cut
        // at its end is not taken for damage.)
        if let other = NotAPicture.kind(of: Data(bytes.prefix(513))) {
            var header = ImageHeader(format: nil, kind: other)
            header.notAPicture = true
            return header
        }
        return ImageHeader(format: nil, kind: "unknown")
    }

    // MARK: Formats

    /// The first start-of-frame marker's height and width.
    private static func jpeg(_ bytes: Bytes) -> ImageHeader {
        var header = ImageHeader(format: "jpeg", kind: "JPEG")
        var offset = 2
        while offset + 9 <= bytes.count {
            guard bytes[offset] == 0xFF else { break }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            let length = Int(be16(bytes, offset + 2))
            // SOF0–SOF15, but not DHT (C4), JPG (C8) or DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                (header.height, header.width) = (Int(be16(bytes, offset + 5)), Int(be16(bytes, offset + 7)))
                // Baseline, extended, progressive and arithmetic-coded JPEGs are read; the
                // lossless and hierarchical processes, rare outside medical imaging, are not.
                if [0xC3, 0xCB].contains(marker) {
                    header.unreadable = "lossless coding, SOF\(marker - 0xC0)"
                } else if [0xC5, 0xC6, 0xC7, 0xCD, 0xCE, 0xCF].contains(marker) {
                    header.unreadable = "hierarchical coding, SOF\(marker - 0xC0)"
                }
                return header
            }
            if marker == 0xDA || length < 2 { break }  // scan data before any frame header
            offset += 2 + length
        }
        return header
    }

    /// The logical screen, and every image descriptor walked to the trailer: their count
    /// and the largest frame (a frame may declare itself larger than the screen).
    private static func gif(_ bytes: Bytes) -> ImageHeader {
        var header = ImageHeader(format: "gif", kind: "GIF")
        guard bytes.count >= 13 else { return header }
        var width = Int(le16(bytes, 6)), height = Int(le16(bytes, 8))
        (header.width, header.height) = (width, height)
        var offset = 13
        if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 0x07) + 1) }
        var frames = 0
        // The first image block, and the delay its graphic control extension gives it.
        var delay = 0, firstDelay = 0, firstCoversScreen = true
        func skipSubBlocks() {
            while offset < bytes.count {
                let size = Int(bytes[offset])
                offset += 1 + size
                if size == 0 { return }
            }
        }
        walk: while offset < bytes.count {
            switch bytes[offset] {
            case 0x2C:  // image descriptor
                guard offset + 10 <= bytes.count else { break walk }
                frames += 1
                if frames == 1 {
                    firstDelay = delay
                    firstCoversScreen = le16(bytes, offset + 1) == 0 && le16(bytes, offset + 3) == 0
                        && Int(le16(bytes, offset + 5)) >= width && Int(le16(bytes, offset + 7)) >= height
                }
                width = max(width, Int(le16(bytes, offset + 1)) + Int(le16(bytes, offset + 5)))
                height = max(height, Int(le16(bytes, offset + 3)) + Int(le16(bytes, offset + 7)))
                let flags = bytes[offset + 9]
                offset += 10
                if flags & 0x80 != 0 { offset += 3 << (Int(flags & 0x07) + 1) }
                offset += 1  // LZW minimum code size
                skipSubBlocks()
            case 0x21:  // extension
                if offset + 6 < bytes.count, bytes[offset + 1] == 0xF9 { delay = Int(le16(bytes, offset + 4)) }
                // NETSCAPE2.0: an 11-byte block naming it, then 1 and the count (0: forever).
                if offset + 18 <= bytes.count, bytes[offset + 1] == 0xFF, bytes[offset + 2] == 11,
                   bytes[(offset + 3)..<(offset + 14)].elementsEqual("NETSCAPE2.0".utf8), bytes[offset + 14] >= 3, bytes[offset + 15] == 1 {
                    header.loops = Int(le16(bytes, offset + 16))
                }
                offset += 2
                skipSubBlocks()
            default:  // the trailer, or bytes that are not GIF blocks: the decoder judges those
                break walk
            }
        }
        header.frames = max(frames, 1)
        (header.width, header.height) = (width, height)
        // Several blocks shown at once (no delay after the first) make up one picture, a way
        // to hold more than 256 colours; the decoder shows only the first block.
        if frames > 1, firstDelay == 0, !firstCoversScreen {
            header.refusal = "its first picture is made of several image blocks shown at once, which the decoder does not combine"
        }
        return header
    }

    /// The canvas of an extended file (VP8X) and, when it is animated, its frames (ANMF
    /// chunks) counted; else the lossy (VP8) or lossless (VP8L) frame.
    private static func webp(_ bytes: Bytes) -> ImageHeader {
        var header = ImageHeader(format: "webp", kind: "WebP")
        guard bytes.count >= 30 else { return header }
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8X":
            header.width = 1 + Int(le24(bytes, 24))
            header.height = 1 + Int(le24(bytes, 27))
            if bytes[20] & 0x02 != 0 {  // the animation flag
                var offset = 12, frames = 0
                while offset <= bytes.count - 8 {
                    if String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self) == "ANMF" { frames += 1 }
                    let size = Int(le32(bytes, offset + 4))
                    offset += 8 + size + (size & 1)
                }
                header.frames = max(frames, 1)
            }
        case "VP8 ":
            header.width = Int(le16(bytes, 26) & 0x3FFF)
            header.height = Int(le16(bytes, 28) & 0x3FFF)
        case "VP8L" where bytes.count >= 25:
            let bits = UInt32(bytes[21]) | UInt32(bytes[22]) << 8 | UInt32(bytes[23]) << 16 | UInt32(bytes[24]) << 24
            header.width = Int(bits & 0x3FFF) + 1
            header.height = Int((bits >> 14) & 0x3FFF) + 1
        default: break
        }
        return header
    }

    /// The DIB header's size; the variants gdk-pixbuf draws shifted are refused: pixel data
    /// placed anywhere but right after the header and palette, and V4/V5 bit-field layouts.
    private static func bmp(_ bytes: Bytes) -> ImageHeader {
        var header = ImageHeader(format: "bmp", kind: "BMP")
        guard bytes.count >= 26 else { return header }
        let dibSize = Int(le32(bytes, 14))
        let pixelOffset = Int(le32(bytes, 10))
        if dibSize == 12 {
            (header.width, header.height) = (Int(le16(bytes, 18)), Int(le16(bytes, 20)))
            if pixelOffset < 26 { header.refusal = "its pixel data starts at byte \(pixelOffset), inside its header (which ends at byte 26)" }
            return header
        }
        guard dibSize >= 16, bytes.count >= 30 else { return header }
        header.width = abs(Int(Int32(bitPattern: le32(bytes, 18))))
        header.height = abs(Int(Int32(bitPattern: le32(bytes, 22))))
        guard dibSize >= 40, bytes.count >= 54 else { return header }  // a short OS/2 header (BMPLayout)
        let bitCount = Int(le16(bytes, 28)), compression = le32(bytes, 30)
        var colours = Int(le32(bytes, 46))
        if colours == 0, bitCount <= 8 { colours = 1 << bitCount }
        if bitCount > 8 { colours = 0 }  // a palette there is only a suggestion (BMPLayout leaves it out)
        let masks = (compression == 3 || compression == 6) && dibSize == 40 ? (compression == 6 ? 16 : 12) : 0
        let expected = 14 + dibSize + masks + colours * 4
        // Pixels after a gap, or after a palette a 16- or 32-bit picture does not need, are
        // moved where the decoder reads them (BMPLayout); pixels inside the header cannot be.
        // An alpha mask: in the header from version 4 on (byte 66), after the colour masks with BI_ALPHABITFIELDS.
        let alphaMask = dibSize >= 56 ? le32(bytes, 66) : compression == 6 && bytes.count >= 70 ? le32(bytes, 66) : 0
        if bitCount == 16, compression == 3 || compression == 6, alphaMask != 0 {
            header.refusal = "it holds 16-bit pixels with transparency in bit fields, which the decoder draws opaque and in the wrong colours"
        } else if pixelOffset < expected, compression != 4, compression != 5 {  // not a JPEG or PNG inside
            header.refusal = "its pixel data starts at byte \(pixelOffset), inside its header (which ends at byte \(expected))"
        }
        return header
    }

    /// A TGA, told by its 18-byte header since it has no signature: a known image type whose
    /// colour map, pixel depth and descriptor agree with it (a TGA 2.0 file also ends with
    /// "TRUEVISION-XFILE."). The variants the decoder draws wrong are refused: a colour map of
    /// 15- or 16-bit entries (red and blue swapped, 5-bit levels not widened), one that does
    /// not start at entry 0, and 16-bit pixels with an alpha bit (drawn opaque); 32-bit pixels whose descriptor gives no alpha
    /// bits are drawn opaque, as the descriptor says.
    private static func tga(_ bytes: Bytes) -> ImageHeader? {
        guard bytes.count >= 18 else { return nil }
        let mapType = bytes[1], imageType = bytes[2], mapLength = Int(le16(bytes, 5)), entryBits = Int(bytes[7])
        let depth = Int(bytes[16]), descriptor = bytes[17], alphaBits = Int(descriptor & 0x0F)
        let mapped = imageType == 1 || imageType == 9
        let depthFits: Bool
        switch imageType {
        case 1, 9: depthFits = mapType == 1 && mapLength > 0 && [15, 16, 24, 32].contains(entryBits) && depth == 8
        case 2, 10: depthFits = [15, 16, 24, 32].contains(depth)
        case 3, 11: depthFits = depth == 8 || depth == 16
        default: return nil
        }
        let mapAgrees = mapType == 1 ? mapLength > 0 && [15, 16, 24, 32].contains(entryBits)
                                     : mapType == 0 && le16(bytes, 3) == 0 && mapLength == 0 && entryBits == 0
        guard depthFits, mapAgrees, descriptor & 0xC0 == 0, alphaBits <= 8 else { return nil }
        var header = ImageHeader(format: "tga", kind: "TGA")
        (header.width, header.height) = (Int(le16(bytes, 12)), Int(le16(bytes, 14)))
        header.loader = "tga"
        if mapped && (entryBits == 15 || entryBits == 16) {
            header.refusal = "its colour palette holds 16-bit colours, which the decoder draws in the wrong colours"
        } else if mapped && le16(bytes, 3) != 0 {
            header.refusal = "its colour palette starts at entry \(le16(bytes, 3)), which the decoder reads as entry 0 (the picture comes out black)"
        } else if depth == 16 && alphaBits > 0 && !mapped && imageType != 3 && imageType != 11 {
            header.refusal = "its 16-bit pixels carry transparency, which the decoder leaves out"
        }
        header.fourthChannelIsNotAlpha = depth == 32 && alphaBits == 0
        return header
    }

    /// Netpbm (PBM, PGM, PPM: P1 to P6): the width and height after the magic number, past
    /// white space and # comments. PAM (P7) is not one the decoder reads.
    private static func pnm(_ bytes: Bytes) -> ImageHeader {
        var header = ImageHeader(format: "pnm", kind: "a PNM picture")
        guard bytes[1] != UInt8(ascii: "7") else {
            header.format = nil
            header.kind = "a PAM picture"
            return header
        }
        var offset = 2
        func number() -> Int? {
            while offset < bytes.count {
                if bytes[offset] == UInt8(ascii: "#") {
                    while offset < bytes.count, bytes[offset] != 0x0A, bytes[offset] != 0x0D { offset += 1 }
                } else if [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains(bytes[offset]) {
                    offset += 1
                } else { break }
            }
            var value = 0, digits = 0
            while offset < bytes.count, (0x30...0x39).contains(bytes[offset]), digits < 10 {
                value = value * 10 + Int(bytes[offset] - 0x30)
                offset += 1; digits += 1
            }
            return digits > 0 ? value : nil
        }
        if let width = number(), let height = number() { (header.width, header.height) = (width, height) }
        return header
    }

    /// The first image's width and length, and the variants the decoder gets wrong: 16-bit
    /// samples with premultiplied ("associated") alpha come out about three times too dark,
    /// CIELab colours with a yellow cast. 8-bit associated alpha is handed over premultiplied.
    /// BigTIFF has 8-byte offsets and counts and 20-byte directory entries.
    private static func tiff(_ bytes: Bytes, big: Bool) -> ImageHeader {
        var header = ImageHeader(format: "tiff", kind: big ? "BigTIFF" : "TIFF")
        if big { header.loader = "tiff" }
        guard bytes.count >= (big ? 16 : 8) else { return header }
        let little = bytes[0] == UInt8(ascii: "I")
        // Offsets come from the file and may be anything: compared without adding to them.
        func u16(_ at: Int) -> Int { at >= 0 && at <= bytes.count - 2 ? Int(little ? le16(bytes, at) : be16(bytes, at)) : 0 }
        func u32(_ at: Int) -> Int { at >= 0 && at <= bytes.count - 4 ? Int(little ? le32(bytes, at) : be32(bytes, at)) : 0 }
        func u64(_ at: Int) -> Int {
            let (low, high) = (u32(at + (little ? 0 : 4)), u32(at + (little ? 4 : 0)))
            return high > 0x7FFF ? Int.max : high << 32 | low
        }
        let ifd = big ? u64(8) : u32(4)
        let countSize = big ? 8 : 2, entrySize = big ? 20 : 12, valueAt = big ? 12 : 8
        guard ifd > 0, ifd <= bytes.count - countSize else { return header }
        var bitsPerSample = 0, associatedAlpha = false, unspecifiedExtra = false, lab = false
        for index in 0..<min(big ? u64(ifd) : u16(ifd), 512) {
            let entry = ifd + countSize + index * entrySize
            guard entry + entrySize <= bytes.count else { break }
            let tag = u16(entry), type = u16(entry + 2), count = big ? u64(entry + 4) : u32(entry + 4)
            let inline = count <= (big ? 8 : 4) / (type == 3 ? 2 : 4)
            let value = type == 3 ? u16(entry + valueAt) : type == 16 ? u64(entry + valueAt) : u32(entry + valueAt)
            // The first of several SHORT values, where they do not fit in the entry.
            let first = inline ? value : u16(big ? u64(entry + valueAt) : u32(entry + valueAt))
            switch tag {
            case 256: header.width = value
            case 257: header.height = value
            case 258: bitsPerSample = first
            case 262: lab = [8, 9, 10].contains(value)  // CIELab, ICCLab, ITULab
            case 338:
                associatedAlpha = count >= 1 && first == 1
                unspecifiedExtra = count >= 1 && first == 0
            default: break
            }
        }
        if bitsPerSample == 16, associatedAlpha {
            header.refusal = "it holds 16-bit samples with premultiplied alpha, which the decoder draws about three times too dark"
        } else if lab {
            header.refusal = "it stores its colours as CIELab, which the decoder converts with a yellow cast"
        }
        header.premultipliedAlpha = associatedAlpha && bitsPerSample == 8
        header.fourthChannelIsNotAlpha = unspecifiedExtra
        return header
    }
}

private typealias Bytes = UnsafeRawBufferPointer
