import Foundation

/// The orientation a PNG or WebP file records for itself — an EXIF block (PNG's eXIf chunk,
/// WebP's EXIF chunk) or, failing that, XMP's tiff:Orientation — which their gdk-pixbuf
/// loaders ignore while the JPEG and TIFF loaders apply theirs. Read here so every picture
/// comes out upright, as a camera or phone meant it (and as Pillow's exif_transpose gives).
enum EmbeddedOrientation {
    /// 2...8 when the file asks to be turned or flipped; nil when upright or unsaid.
    static func read(_ data: Data, format: String) -> Int? {
        let found: Int? = data.withUnsafeBytes { bytes in
            switch format {
            case "png": return png(bytes)
            case "webp": return webp(bytes)
            default: return nil
            }
        }
        guard let found, (2...8).contains(found) else { return nil }
        return found
    }

    /// A JPEG's EXIF orientation (its first APP1 Exif segment), which gdk-pixbuf's loader
    /// applies: the fast decoder (`JPEGDecoder`) leaves turned pictures to it.
    static func jpeg(_ data: Data) -> Int? {
        data.withUnsafeBytes { bytes in
            var offset = 2
            while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
                let marker = bytes[offset + 1]
                if marker == 0xDA || marker == 0xD9 { return nil }  // the picture starts: no EXIF before it
                let length = Int(be16(bytes, offset + 2))
                guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
                if marker == 0xE1, length >= 8, bytes[(offset + 4)..<(offset + 10)].elementsEqual(Array("Exif\0\0".utf8)) {
                    return exif(UnsafeRawBufferPointer(rebasing: bytes[(offset + 10)..<(offset + 2 + length)]))
                }
                offset += 2 + length
            }
            return nil
        }
    }

    /// eXIf first; else an iTXt or tEXt chunk keyed XML:com.adobe.xmp. Chunks after the
    /// image data count too: eXIf may come late.
    private static func png(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var offset = 8, xmp: Int?
        while offset + 12 <= bytes.count {
            let length = Int(be32(bytes, offset))
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let body = offset + 8
            guard length <= bytes.count - body else { break }
            let content = UnsafeRawBufferPointer(rebasing: bytes[body..<(body + length)])
            switch type {
            case "eXIf":
                if let value = exif(content) { return value }
            case "iTXt", "tEXt":
                let key = Array("XML:com.adobe.xmp".utf8) + [0]
                if xmp == nil, content.starts(with: key) { xmp = xmpOrientation(UnsafeRawBufferPointer(rebasing: content[key.count...])) }
            case "IEND":
                return xmp
            default: break
            }
            offset = body + length + 4
        }
        return xmp
    }

    /// RIFF chunks after the header: EXIF first, else XMP.
    private static func webp(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var offset = 12, xmp: Int?
        while offset + 8 <= bytes.count {
            let type = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let length = Int(le32(bytes, offset + 4))
            let body = offset + 8
            guard length <= bytes.count - body else { break }
            let content = UnsafeRawBufferPointer(rebasing: bytes[body..<(body + length)])
            if type == "EXIF", let value = exif(content) { return value }
            if type == "XMP ", xmp == nil { xmp = xmpOrientation(content) }
            offset = body + length + (length & 1)  // chunks are padded to an even length
        }
        return xmp
    }

    /// Tag 0x0112 in the first IFD of a TIFF-structured EXIF block, with or without the
    /// "Exif\0\0" prefix JPEG uses (some writers keep it).
    static func exif(_ block: UnsafeRawBufferPointer) -> Int? {
        var tiff = block
        if tiff.starts(with: Array("Exif".utf8) + [0, 0]) { tiff = UnsafeRawBufferPointer(rebasing: tiff[6...]) }
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int { Int(little ? le16(tiff, at) : be16(tiff, at)) }
        let ifd = Int(little ? le32(tiff, 4) : be32(tiff, 4))
        guard ifd >= 8, ifd <= tiff.count - 2 else { return nil }
        for index in 0..<u16(ifd) {
            let entry = ifd + 2 + index * 12
            guard entry + 12 <= tiff.count else { return nil }
            if u16(entry) == 0x0112, u16(entry + 2) == 3 { return u16(entry + 8) }  // SHORT
        }
        return nil
    }

    /// tiff:Orientation="6" or <tiff:Orientation>6</tiff:Orientation>.
    static func xmpOrientation(_ text: UnsafeRawBufferPointer) -> Int? {
        let xml = String(decoding: text.prefix(1 << 20), as: UTF8.self)
        guard let range = xml.range(of: "tiff:Orientation") else { return nil }
        let after = xml[range.upperBound...].drop { $0 == "=" || $0 == "\"" || $0 == "'" || $0 == ">" || $0 == " " }
        return after.first?.wholeNumberValue
    }
}
