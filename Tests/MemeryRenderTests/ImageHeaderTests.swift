import Foundation
import MemeryTestSupport
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// Pictures refused from their header alone, before any decoder runs: each hostile class
/// made here, with the message a person gets.
@Suite struct ImageHeaderTests {
    let decoder = ImageDecoder()

    func refusal(_ bytes: [UInt8], _ decoder: ImageDecoder? = nil) -> String {
        do {
            _ = try (decoder ?? self.decoder).decode(Data(bytes), source: "x.bin")
            return "decoded"
        } catch {
            return "\(error)"
        }
    }

    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(width) + be(height)
            + [8, 6, 0, 0, 0] + be(0) + be(0) + Array("IEND".utf8) + be(0)
    }

    /// A GIF of `frames` 1x1 frames on a 1x1 screen.
    static func gif(frames: Int) -> [UInt8] {
        var bytes = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
        for _ in 0..<frames { bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0] }
        return bytes + [0x3B]
    }

    @Test func iconsAndWrappersAreNotAcceptedByDefault() {
        let icns = Array("icns".utf8) + [0, 0, 0, 43] + Array("ic08".utf8) + [0, 0, 0, 35] + [UInt8](repeating: 0, count: 27)
        let message = refusal(icns)
        #expect(message == "x.bin is an ICNS icon, which Memery does not accept by default (the decoder gives a smaller picture than the largest the icon holds, and unpacks it before any size is checked); convert it to PNG, or set MEMERY_IMAGE_FORMATS=icns to let the installed decoder try")
        let qtif = [0, 0, 0, 0x56] + Array("idsc".utf8) + [UInt8](repeating: 0, count: 80)
        #expect(refusal(qtif).contains("is a QuickTime image (QTIF), which Memery does not accept by default (it wraps another picture"))
        #expect(refusal([0, 0, 1, 0, 1, 0, 16, 16]) == "x.bin is a damaged ICO image: its directory names no picture inside the file")
        // Bytes no signature or header tells are refused before any decoder sniffs them.
        let unknown: [UInt8] = [0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 24, 0, 0, 0, 255]
        #expect(refusal(unknown) == "x.bin is not in an image format Memery accepts (AVIF, BMP, GIF, ICO, JPEG, PNG, PNM, SVG, TGA, TIFF, WEBP); convert it to PNG, or set MEMERY_IMAGE_FORMATS=all to let the installed decoders try the others they read")
        // Asked for, the installed decoder gets to try (this one is no icon at all).
        #expect(!refusal(icns, ImageDecoder(alsoAccepted: ["icns"])).contains("does not accept"))
    }

    /// What a server may hand a browser as a picture: judged by the signature, and never an
    /// SVG (it can carry script) or a format browsers do not show.
    @Test func browserMediaTypesComeFromTheBytes() {
        #expect(ImageDecoder.browserMediaType(of: Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16])) == "image/jpeg")
        #expect(ImageDecoder.browserMediaType(of: Data(Self.png(width: 1, height: 1))) == "image/png")
        #expect(ImageDecoder.browserMediaType(of: Data(Self.gif(frames: 1))) == "image/gif")
        #expect(ImageDecoder.browserMediaType(of: Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == nil)
        #expect(ImageDecoder.browserMediaType(of: Data("BM".utf8) + Data(count: 60)) == nil)
        #expect(ImageDecoder.browserMediaType(of: Data("<html>".utf8)) == nil)
    }

    /// TGA has no signature: its header's fields must agree (a known image type, a pixel depth
    /// and colour map that fit it), and its size is read from there.
    @Test func aTGAIsToldByItsHeader() {
        let truecolour: [UInt8] = [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 2, 0, 24, 0] + [UInt8](repeating: 255, count: 18)
        let header = ImageHeader.read(Data(truecolour))
        #expect(header.format == "tga" && header.width == 3 && header.height == 2 && header.refusal == nil)
        // A palette picture needs a colour map; an image type 7 does not exist.
        var mapless = truecolour; mapless[2] = 1; mapless[16] = 8
        #expect(ImageHeader.read(Data(mapless)).format == nil)
        var unknownType = truecolour; unknownType[2] = 7
        #expect(ImageHeader.read(Data(unknownType)).format == nil)
        var huge = truecolour; huge[12] = 0x40; huge[13] = 0x9C; huge[14] = 0x40; huge[15] = 0x9C  // 40000x40000
        #expect(refusal(huge).contains("declares 40000x40000 pixels"))
        // 32 bits a pixel with no alpha bits in the descriptor: the fourth byte is not alpha.
        var noAlpha = truecolour; noAlpha[16] = 32
        #expect(ImageHeader.read(Data(noAlpha)).fourthChannelIsNotAlpha)
        noAlpha[17] = 8
        #expect(!ImageHeader.read(Data(noAlpha)).fourthChannelIsNotAlpha)
        // A palette that starts at entry 5: the decoder reads it as entry 0 and draws black.
        let mapped: [UInt8] = [0, 1, 1, 5, 0, 2, 0, 24, 0, 0, 0, 0, 1, 0, 1, 0, 8, 0] + [255, 0, 0, 0, 255, 0] + [5]
        #expect(refusal(mapped).contains("its colour palette starts at entry 5, which the decoder reads as entry 0"))
    }

    /// An OS/2 bitmap whose pixels would start inside its own header is refused, as a Windows
    /// one is (it was drawn black).
    @Test func anOS2BitmapWithPixelsInsideItsHeaderIsRefused() {
        var bmp = Array("BM".utf8) + [30, 0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0] + [12, 0, 0, 0, 1, 0, 1, 0, 1, 0, 24, 0] + [0, 0, 255, 0]
        #expect(refusal(bmp).contains("its pixel data starts at byte 20, inside its header (which ends at byte 26)"))
        bmp[10] = 26
        #expect(!refusal(bmp).contains("inside its header"))
    }

    /// A lossless or hierarchical JPEG is refused from its frame marker, as what it is (it was
    /// "a damaged JPEG image").
    @Test func aJPEGProcessTheDecoderDoesNotReadIsNamed() {
        func jpeg(_ marker: UInt8) -> [UInt8] { [0xFF, 0xD8, 0xFF, marker, 0, 11, 8, 0, 16, 0, 16, 1, 1, 0x11, 0] + [0xFF, 0xD9] }
        #expect(refusal(jpeg(0xC3)) == "x.bin uses a feature of the JPEG format that the decoder does not read (lossless coding, SOF3); convert it to PNG")
        #expect(refusal(jpeg(0xC5)).contains("(hierarchical coding, SOF5)"))
        #expect(ImageHeader.read(Data(jpeg(0xC0))).unreadable == nil)
        #expect(ImageHeader.read(Data(jpeg(0xC2))).unreadable == nil, "progressive is read")
        #expect(ImageHeader.read(Data(jpeg(0xC9))).unreadable == nil, "arithmetic coding is read")
    }

    /// FF D8 and then no marker: a JPEG damaged at its start, said as such (it was "not in an
    /// image format Memery accepts (…, JPEG, …)").
    @Test func aJPEGDamagedRightAfterItsStartIsCalledADamagedJPEG() {
        #expect(refusal([0xFF, 0xD8, 0x00, 0x13, 0x4A, 0x46, 0x49, 0x46, 0, 1]) == "x.bin is a damaged JPEG image: it breaks off right after its start: the start marker FF D8 is followed by 00 13 where the next segment's marker should be")
    }

    @Test func sizesWithNoPixelsOrSidesTooLongAreRefusedInPlainWords() {
        #expect(refusal(Self.png(width: 65535, height: 1)) == "x.bin declares 65535x1 pixels: a side longer than 32767 pixels is more than Memery can draw")
        #expect(refusal(Self.png(width: 0, height: 0)) == "x.bin declares 0x0 pixels: a picture needs at least one pixel each way")
        #expect(refusal(Self.png(width: 20_000, height: 20_000)).hasPrefix("x.bin declares 20000x20000 pixels (400 megapixels), over the limit of 100 megapixels"))
    }

    /// A 16383x16383 WebP reached 947 MB before its refusal; its VP8X header says the size.
    @Test func aHugeWebPIsRefusedFromItsHeader() {
        func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
        let webp = Array("RIFF".utf8) + [30, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0] + le24(16382) + le24(16382)
        let header = ImageHeader.read(Data(webp))
        #expect(header.format == "webp" && header.width == 16383 && header.height == 16383)
        #expect(refusal(webp).contains("declares 16383x16383 pixels (268 megapixels), over the limit"))
    }

    @Test func aGIFWithTooManyFramesIsRefusedBeforeDecoding() {
        #expect(ImageHeader.read(Data(Self.gif(frames: 3))).frames == 3)
        #expect(refusal(Self.gif(frames: 10_001)) == "x.bin holds 10001 frames, more than the 10000 Memery decodes in one animation; set MEMERY_MAX_FRAMES to allow more")
        // 1,001 frames on a 1000x1000 screen: a gigapixel to compose, draw on and encode.
        var wide = Self.gif(frames: 1_001)
        wide[6] = 0xE8; wide[7] = 0x03; wide[8] = 0xE8; wide[9] = 0x03
        #expect(refusal(wide) == "x.bin holds 1001 frames of 1000x1000 (1001 megapixels in all), over the limit of 1000 megapixels for an animation; set MEMERY_MAX_ANIMATION_MEGAPIXELS to allow more")
        // A frame larger than the screen counts at its own size.
        var big = Self.gif(frames: 1)
        big[18] = 0xFF; big[19] = 0x7F  // the frame's width: 32767
        big[20] = 0xFF; big[21] = 0x7F
        #expect(refusal(big).contains("declares 32767x32767 pixels"))
    }

    @Test func variantsTheDecoderDrawsWrongAreRefused() {
        func le(_ v: UInt32, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(v >> (8 * UInt32($0)) & 0xFF) } }
        // A BMP with a version-5 header laying out 16-bit pixels with transparency in bit fields (4444).
        var v5 = Array("BM".utf8) + le(14 + 124 + 8, 4) + le(0, 4) + le(14 + 124, 4)
        v5 += le(124, 4) + le(2, 4) + le(2, 4) + le(1, 2) + le(16, 2) + le(3, 4) + [UInt8](repeating: 0, count: 20)
        v5 += le(0x0F00, 4) + le(0x00F0, 4) + le(0x000F, 4) + le(0xF000, 4) + [UInt8](repeating: 0, count: 124 - 56)
        v5 += [UInt8](repeating: 0xFF, count: 8)
        #expect(refusal(v5).contains("is a BMP picture Memery refuses: it holds 16-bit pixels with transparency in bit fields"))
        // A 16-bit TIFF with premultiplied ("associated") alpha.
        var tiff = Array("II*\u{0}".utf8) + le(8, 4) + le(4, 2)
        for (tag, value) in [(256, 1), (257, 1), (258, 16), (338, 1)] as [(UInt32, UInt32)] { tiff += le(tag, 2) + le(3, 2) + le(1, 4) + le(value, 4) }
        tiff += le(0, 4)
        #expect(refusal(tiff).contains("is a TIFF picture Memery refuses: it holds 16-bit samples with premultiplied alpha"))
        #expect(refusal(tiff, ImageDecoder(alsoAccepted: ["all"])).contains("refuses") == false)
    }

    @Test(.enabled(if: Paths.sharedAvailable, "../shared/testdata is absent"),
          arguments: ["hopper.png", "hopper.jpg", "hopper.gif", "hopper.bmp", "hopper.tif", "hopper.webp"])
    func theSharedPicturesDeclareTheirSize(_ file: String) throws {
        let header = ImageHeader.read(try Data(contentsOf: Paths.edge(file)))
        #expect(header.width == 128 && header.height == 128 && header.refusal == nil, "\(header)")
    }
}

/// A TIFF's extra sample is alpha only when the file says so (ExtraSamples 1 or 2); one it
/// calls unspecified (0) was drawn as transparency, 85% of a picture see-through.
@Suite struct TIFFExtraSampleTests {
    /// A 2x1 little-endian RGB TIFF with one extra 8-bit sample of `extra` per pixel, the
    /// ExtraSamples tag saying `kind`.
    static func tiff(extra: UInt8, kind: UInt16) -> Data {
        var bytes: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0]
        func u16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        let entries: [(UInt16, UInt16, UInt32, UInt32)] = [  // tag, type (3 SHORT, 4 LONG), count, value or offset
            (256, 3, 1, 2), (257, 3, 1, 1), (258, 3, 4, 0 /* patched: offset of 8,8,8,8 */), (259, 3, 1, 1), (262, 3, 1, 2),
            (273, 4, 1, 0 /* patched: pixels */), (277, 3, 1, 4), (278, 3, 1, 1), (279, 4, 1, 8), (338, 3, 1, UInt32(kind)),
        ]
        let ifdSize = 2 + entries.count * 12 + 4
        let bitsAt = UInt32(8 + ifdSize), pixelsAt = bitsAt + 8
        bytes += u16(UInt16(entries.count))
        for (tag, type, count, value) in entries {
            let v = tag == 258 ? bitsAt : tag == 273 ? pixelsAt : value
            bytes += u16(tag) + u16(type) + u32(count) + (type == 3 && count == 1 ? u16(UInt16(v)) + [0, 0] : u32(v))
        }
        bytes += u32(0) + u16(8) + u16(8) + u16(8) + u16(8)
        bytes += [200, 40, 10, extra, 10, 40, 200, extra]
        return Data(bytes)
    }

    @Test func anUnspecifiedExtraSampleIsNotTransparency() throws {
        let (raster, _) = try ImageDecoder().decode(Self.tiff(extra: 30, kind: 0), source: "scan.tiff")
        let left = raster.pixel(x: 0, y: 0), right = raster.pixel(x: 1, y: 0)
        #expect(left.a == 255 && right.a == 255, "\(left) \(right)")
        #expect((left.r, left.g, left.b) == (200, 40, 10) && (right.r, right.g, right.b) == (10, 40, 200), "\(left) \(right)")
        // Said to be alpha, it is (straight alpha of 30: the colour scaled by 30/255 once premultiplied).
        let (alpha, _) = try ImageDecoder().decode(Self.tiff(extra: 30, kind: 2), source: "cutout.tiff")
        #expect(alpha.pixel(x: 0, y: 0).a == 30, "\(alpha.pixel(x: 0, y: 0))")
    }
}

/// An icon (a favicon as a sticker) gives its largest picture, whichever order its directory
/// lists them in and whether they are PNGs or bitmaps; gdk-pixbuf's loader took a smaller one.
@Suite struct IconTests {
    static func solid(_ size: Int, _ argb: UInt32) throws -> Raster {
        let raster = try Raster(width: size, height: size)
        raster.withMutablePixels { pixels, stride in
            for y in 0..<size { for x in 0..<size {
                (pixels + y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee = argb }
            } }
        }
        return raster
    }

    /// A 32-bit bitmap entry: its header (twice the height: colours, then the AND mask), BGRA rows bottom up, an empty mask.
    static func bitmap(_ size: Int, blue: UInt8, green: UInt8, red: UInt8) -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(v >> (8 * $0) & 0xFF) } }
        var bytes: [UInt8] = le(40, 4) + le(size, 4) + le(size * 2, 4)
        bytes += le(1, 2) + le(32, 2) + [UInt8](repeating: 0, count: 24)
        for _ in 0..<(size * size) { bytes += [blue, green, red, 255] }
        let maskBytes: Int = ((size + 31) / 32) * 4 * size
        return bytes + [UInt8](repeating: 0, count: maskBytes)
    }

    static func icon(_ entries: [(size: Int, data: [UInt8])]) -> Data {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(v >> (8 * $0) & 0xFF) } }
        var directory = [UInt8](), body = [UInt8](), offset = 6 + 16 * entries.count
        for entry in entries {
            directory += [UInt8(entry.size % 256), UInt8(entry.size % 256), 0, 0] + le(1, 2) + le(32, 2) + le(entry.data.count, 4) + le(offset, 4)
            body += entry.data
            offset += entry.data.count
        }
        return Data([0, 0, 1, 0] + le(entries.count, 2) + directory + body)
    }

    @Test func thePNGEntryThatIsLargestIsTaken() throws {
        let small = [UInt8](try ImageEncoder.encode(try Self.solid(16, 0xFFFF_0000), as: .png))
        let large = [UInt8](try ImageEncoder.encode(try Self.solid(48, 0xFF00_00FF), as: .png))
        let (raster, _) = try ImageDecoder().decode(Self.icon([(16, small), (48, large), (16, small)]), source: "favicon.ico")
        #expect(raster.width == 48 && raster.height == 48)
        #expect(raster.pixel(x: 24, y: 24) == (0, 0, 255, 255))
    }

    @Test func theBitmapEntryThatIsLargestIsTaken() throws {
        let icon = Self.icon([(32, Self.bitmap(32, blue: 0, green: 200, red: 0)), (16, Self.bitmap(16, blue: 0, green: 0, red: 200))])
        let (raster, _) = try ImageDecoder().decode(icon, source: "favicon.ico")
        #expect(raster.width == 32 && raster.height == 32, "\(raster.width)x\(raster.height)")
        #expect(raster.pixel(x: 3, y: 3) == (0, 200, 0, 255), "\(raster.pixel(x: 3, y: 3))")
        let reversed = Self.icon([(16, Self.bitmap(16, blue: 0, green: 0, red: 200)), (32, Self.bitmap(32, blue: 0, green: 200, red: 0))])
        #expect(try ImageDecoder().decode(reversed, source: "favicon.ico").0.width == 32)
    }
}

/// Netpbm pictures (what scientific and scanning tools write) are taken by default, their
/// size read from the header first like every other format's.
@Suite struct PNMTests {
    func pixels(_ text: String, _ binary: [UInt8] = []) throws -> (Int, Int, [(UInt8, UInt8, UInt8, UInt8)]) {
        let (raster, info) = try ImageDecoder().decode(Data(Array(text.utf8) + binary), source: "scan.pnm")
        #expect(info.format == "pnm")
        return (raster.width, raster.height, (0..<raster.width).map { x in let p = raster.pixel(x: x, y: 0); return (p.r, p.g, p.b, p.a) })
    }

    @Test func binaryAndPlainPicturesDecode() throws {
        let colour = try pixels("P6\n# from a scanner\n2 1\n255\n", [255, 0, 0, 0, 0, 255])
        #expect(colour.0 == 2 && colour.1 == 1 && colour.2[0] == (255, 0, 0, 255) && colour.2[1] == (0, 0, 255, 255))
        let grey = try pixels("P5 2 1 255\n", [0, 200])
        #expect(grey.2[0] == (0, 0, 0, 255) && grey.2[1] == (200, 200, 200, 255))
        let plain = try pixels("P3\n2 1\n255\n10 20 30  40 50 60\n")
        #expect(plain.2[0] == (10, 20, 30, 255) && plain.2[1] == (40, 50, 60, 255))
    }

    @Test func aHugeDeclaredSizeIsRefusedBeforeDecoding() {
        #expect(throws: RenderError.self) { try ImageDecoder().decode(Data("P6\n30000 30000\n255\n".utf8), source: "bomb.ppm") }
        do { _ = try ImageDecoder().decode(Data("P6\n30000 30000\n255\n".utf8), source: "bomb.ppm") } catch {
            #expect("\(error)".hasPrefix("bomb.ppm declares 30000x30000 pixels (900 megapixels), over the limit"), "\(error)")
        }
    }
}


/// BMPs the decoder drew shifted because it reads pixels right after the header whatever the
/// file says: a version 4 or 5 header with bit fields and alpha (what GIMP and Windows
/// write), with a gap before the pixels, or a 16-bit 565 picture carrying a palette.
@Suite struct BMPLayoutTests {
    static func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(v >> (8 * $0) & 0xFF) } }

    /// 2x1, bottom-up, pixels `gap` bytes after the header (and `palette` unused colours before them).
    static func bmp(bits: Int, masks: [Int], pixels: [UInt8], dib: Int = 124, gap: Int = 0, palette: Int = 0) -> Data {
        let offset = 14 + dib + palette * 4 + gap
        var bytes = Array("BM".utf8) + le(offset + pixels.count, 4) + le(0, 4) + le(offset, 4)
        bytes += le(dib, 4) + le(2, 4) + le(1, 4) + le(1, 2) + le(bits, 2) + le(3, 4) + le(pixels.count, 4)
        bytes += le(2835, 4) + le(2835, 4) + le(palette, 4) + le(0, 4)
        for mask in masks { bytes += le(mask, 4) }
        bytes += [UInt8](repeating: 0, count: 14 + dib - bytes.count)
        bytes += [UInt8](repeating: 0x55, count: palette * 4 + gap)  // neither is a pixel
        return Data(bytes + pixels)
    }

    func decoded(_ data: Data) throws -> [(UInt8, UInt8, UInt8, UInt8)] {
        let (raster, _) = try ImageDecoder().decode(data, source: "x.bmp")
        return (0..<2).map { let p = raster.pixel(x: $0, y: 0); return (p.r, p.g, p.b, p.a) }
    }

    @Test func alphaInBitFieldsIsDrawnRightWithOrWithoutAGap() throws {
        let pixels = Self.le(0x80FF_0000, 4) + Self.le(0xFF00_00FF, 4)  // half-transparent red, blue
        let masks = [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, -16_777_216 & 0xFFFF_FFFF]
        for (dib, gap) in [(124, 0), (108, 0), (124, 16)] {
            let got = try decoded(Self.bmp(bits: 32, masks: masks, pixels: pixels, dib: dib, gap: gap))
            #expect(got[0] == (255, 0, 0, 128) && got[1] == (0, 0, 255, 255), "header \(dib), gap \(gap): \(got)")
        }
    }

    @Test func a565PictureWithAPaletteIsNotShifted() throws {
        let pixels = Self.le(0xF800, 2) + Self.le(0x07E0, 2)  // red, green
        let got = try decoded(Self.bmp(bits: 16, masks: [0xF800, 0x07E0, 0x001F, 0], pixels: pixels, palette: 4))
        #expect(got[0] == (255, 0, 0, 255) && got[1] == (0, 255, 0, 255), "\(got)")
    }
}
