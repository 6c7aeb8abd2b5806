import MemeryCore
import Foundation
import MemeryTestSupport
import Testing
@testable import MemeryPixels
@testable import MemeryRender

@Suite(.enabled(if: Paths.sharedAvailable, "../shared/testdata is absent: the decoder tests need its images"))
struct ImageDecoderTests {
    @Test(arguments: ["hopper.png", "hopper.jpg", "hopper.gif", "hopper.bmp", "hopper.tif", "hopper.webp", "hopper.avif"])
    func everyInstalledFormatDecodesToTheSamePicture(_ file: String) throws {
        let (reference, _) = try decode(Paths.edge("hopper.png"))
        let (image, info) = try decode(Paths.edge(file))
        #expect(info.width == 128 && info.height == 128)
        #expect(info.format == (file.hasSuffix(".jpg") ? "jpeg" : file.hasSuffix(".tif") ? "tiff" : String(file.split(separator: ".").last!)))
        // GIF is palette-reduced and JPEG/WebP/AVIF lossy: close, not equal.
        #expect(PixelDifference(image, reference).mean < 12)
    }

    @Test func greyscaleJPEGBecomesRGB() throws {
        let (image, info) = try decode(Paths.edge("hopper_gray.jpg"))
        #expect(info.format == "jpeg")
        let p = image.pixel(x: 64, y: 64)
        #expect(p.r == p.g && p.g == p.b && p.a == 255)
    }

    /// As Pillow's own test of these files: once their EXIF orientation is applied they
    /// match hopper.jpg.
    @Test(arguments: [3, 6, 8])
    func exifOrientationIsApplied(_ orientation: Int) throws {
        let (upright, _) = try decode(Paths.edge("hopper.jpg"))
        let (image, _) = try decode(Paths.edge("hopper_orientation_\(orientation).jpg"))
        #expect(PixelDifference(image, upright).mean < 17)
        // And not by accident: the same file turned once more no longer matches.
        #expect(PixelDifference(try rotated(image, quarterTurns: 1), upright).mean > 30)
    }

    @Test func sixteenBitPNGIsDownConverted() throws {
        let (image, info) = try decode(Paths.edge("mode_16bit.png"))
        #expect(info.width == 128 && info.height == 64)
        #expect(image.width == 128)
    }

    @Test func tRNSTransparencyIsKept() throws {
        let (image, _) = try decode(Paths.edge("1_trns.png"))
        var transparent = 0, opaque = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                if image.pixel(x: x, y: y).a == 0 { transparent += 1 } else { opaque += 1 }
            }
        }
        #expect(transparent > 0)
        #expect(opaque > 0)
    }

    /// Its still image uses only palette entry 0, which tRNS marks opaque red (the
    /// transparent entry is used by APNG frames, which a still import does not show).
    @Test func paletteAlphaIsReadFromTRNS() throws {
        let (image, _) = try decode(Paths.edge("mode_palette_alpha.png"))
        let p = image.pixel(x: 10, y: 10)
        #expect(p.r == 255 && p.g == 0 && p.b == 0 && p.a == 255)
    }

    @Test func cmykJPEGDecodesWithPlausibleColours() throws {
        // Red letters on black, as Pillow decodes it too (an inverted CMYK would be cyan on white).
        let (image, _) = try decode(Paths.edge("pil_sample_cmyk.jpg"))
        #expect(image.width == 100 && image.height == 100)
        let corner = image.pixel(x: 5, y: 5)
        #expect(corner.r < 20 && corner.g < 20 && corner.b < 20)
        var red = 0
        for y in 0..<100 {
            for x in 0..<100 {
                let p = image.pixel(x: x, y: y)
                if p.r > 180 && p.g < 80 && p.b < 80 { red += 1 }
            }
        }
        #expect(red > 100)
    }

    @Test(arguments: ["broken.png", "broken_data_stream.png", "truncated_jpeg.jpg"])
    func damagedFilesGiveAClearErrorNamingTheFile(_ file: String) throws {
        do {
            _ = try decode(Paths.edge(file))
            Issue.record("\(file) should not decode")
        } catch let error as RenderError {
            #expect(error.description.contains(file))
            #expect(error.description.contains("damaged"))
        }
    }
}

/// A PNG cut short is refused, never imported with grey where its bottom was (JPEGs: DecoderWordsTests).
@Suite struct TruncatedPNGTests {
    @Test(arguments: [100, 20_000, 200_000])
    func aPNGCutShortIsRefused(keeping bytes: Int) throws {
        let whole = try Data(contentsOf: Paths.example("chelsea.png"))
        let cut = whole.prefix(bytes)
        do {
            _ = try ImageDecoder().decode(Data(cut), source: "cut.png")
            Issue.record("a PNG cut at \(bytes) bytes decoded")
        } catch let error as RenderError {
            #expect(error.description.contains("cut.png"))
            #expect(error.description.contains("the file ends before the picture does (it was cut short at"), "\(error)")
        }
        #expect(Completeness.problem(whole) == nil, "the whole file is whole")
    }

    /// A file of its whole size whose bytes were changed (as ../shared's broken_data_stream.png)
    /// is said to be damaged where it is, not "cut short at" its own length.
    @Test func aPNGWhoseChunksStopMakingSenseIsDamagedNotCut() throws {
        var bytes = [UInt8](try Data(contentsOf: Paths.example("chelsea.png")))
        // The third chunk's type and first data bytes overwritten, the length kept.
        var offset = Completeness.pngSignature.count
        for _ in 0..<2 { offset += 12 + Int(UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])) }
        for i in (offset + 4)..<(offset + 12) { bytes[i] = 0x8F }
        do {
            _ = try ImageDecoder().decode(Data(bytes), source: "changed.png")
            Issue.record("a PNG with damaged chunks decoded")
        } catch let error as RenderError {
            #expect(error.description.contains("changed.png") && error.description.contains("its bytes stop making sense at byte \(offset) "), "\(error)")
            #expect(!error.description.contains("the file ends before the picture does"), "\(error)")
        }
    }
}

@Suite struct ImageLimitTests {
    @Test func hugeDeclaredSizeIsRefusedBeforeDecoding() throws {
        let bomb = pngDeclaring(width: 30_000, height: 30_000)
        #expect(throws: RenderError.tooLarge(source: "bomb.png", width: 30_000, height: 30_000, limit: 100_000_000)) {
            try ImageDecoder().decode(bomb, source: "bomb.png")
        }
        #expect(RenderError.tooLarge(source: "bomb.png", width: 30_000, height: 30_000, limit: 100_000_000).description
            == "bomb.png declares 30000x30000 pixels (900 megapixels), over the limit of 100 megapixels; set MEMERY_MAX_MEGAPIXELS to allow more")
    }

    @Test func pixelLimitIsConfigurable() throws {
        let data = try Data(contentsOf: Paths.example("chelsea.png"))
        #expect(throws: RenderError.tooLarge(source: "chelsea.png", width: 451, height: 300, limit: 100_000)) {
            try ImageDecoder(maxPixels: 100_000).decode(data, source: "chelsea.png")
        }
        #expect(try ImageDecoder(maxPixels: 451 * 300).decode(data, source: "chelsea.png").1.width == 451)
    }

    @Test func emptyAndNonImageBytesAreRefused() throws {
        #expect(throws: RenderError.empty(source: "zero.png")) { try ImageDecoder().decode(Data(), source: "zero.png") }
        // Text is said to be text, whatever its name, not a format to convert.
        #expect(throws: RenderError.notAPicture(source: "notes.png", kind: "text")) {
            try ImageDecoder().decode(Data("this is text, not a picture\n".utf8), source: "notes.png")
        }
        #expect(RenderError.notAPicture(source: "notes.txt", kind: "text").description
            == "notes.txt is text, not a picture: choose a picture (PNG, JPEG, WebP or GIF, as a phone or a camera saves them)")
        // Bytes of no kind known are still an unknown format, with the formats taken.
        do {
            _ = try ImageDecoder().decode(Data([0x00, 0x07, 0x00, 0x01, 0xFE, 0x80, 0x00, 0x02]), source: "x.raw")
            Issue.record("unknown bytes should not decode")
        } catch let error as RenderError {
            guard case .unsupportedFormat(let source, let known) = error else { Issue.record("got \(error)"); return }
            #expect(source == "x.raw")
            #expect(known.contains("png") && known.contains("jpeg"))
        }
    }

    /// A small picture in each format the encoder writes, cut at every length: each cut
    /// decodes or fails with a RenderError, never anything worse.
    @Test(arguments: [ExportFormat.png, .jpeg, .webp])
    func everyTruncationOfASmallFileFailsCleanlyOrDecodes(_ format: ExportFormat) throws {
        let small = try Raster(width: 24, height: 16)
        small.withMutablePixels { p, stride in
            for y in 0..<16 { for x in 0..<24 { UnsafeMutableRawPointer(p + y * stride + x * 4).storeBytes(of: UInt32(0xff00_0000 | (x * 10) << 16 | (y * 15) << 8), as: UInt32.self) } }
        }
        let data = try ImageEncoder.encode(small, as: format)
        var decoded = 0, refused = 0
        for length in 0..<data.count {
            do {
                _ = try ImageDecoder().decode(Data(data.prefix(length)), source: "cut.\(format.rawValue)")
                decoded += 1
            } catch is RenderError {
                refused += 1
            }
        }
        #expect(refused > 0 && decoded + refused == data.count)
        #expect(try ImageDecoder().decode(data, source: "whole").0.width == 24)
    }

    @Test func hugeDeclaredSizesInOtherFormatsAreRefusedBeforeDecoding() throws {
        // A GIF and a BMP whose headers declare 40000 x 40000 pixels and carry almost nothing.
        var gif = Data("GIF89a".utf8) + Data([0x40, 0x9c, 0x40, 0x9c, 0x00, 0x00, 0x00])
        gif += Data([0x2c, 0, 0, 0, 0, 0x40, 0x9c, 0x40, 0x9c, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b])
        var bmp = Data("BM".utf8) + Data([0x36, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0])
        bmp += Data([40, 0, 0, 0, 0x40, 0x9c, 0, 0, 0x40, 0x9c, 0, 0, 1, 0, 24, 0]) + Data(count: 24)
        for (name, bytes) in [("bomb.gif", gif), ("bomb.bmp", bmp)] {
            do {
                _ = try ImageDecoder().decode(bytes, source: name)
                Issue.record("\(name) should not decode")
            } catch let error as RenderError {
                #expect(error.description.contains(name))
            }
        }
    }

    /// Every cut of a PNG is refused as a damaged or cut-short file, except the cuts after its
    /// picture data ends (inside IEND), which show the whole picture (`PNGTail`): none decodes
    /// to anything else.
    @Test func everyTruncationOfAPNGIsRefusedOrIsTheWholePicture() throws {
        let whole = try ImageDecoder().decode(try Data(contentsOf: Paths.example("chelsea.png")), source: "chelsea.png").0
        let small = try whole.scaled(toWidth: 60)
        let png = try ImageEncoder.encode(small, as: .png)
        let pictureEnds = png.count - 12  // IEND is the last 12 bytes
        for length in 1..<png.count {
            let cut = Data(png.prefix(length))
            if length >= pictureEnds {
                let decoded = try ImageDecoder().decode(cut, source: "cut.png").0
                #expect(PixelDifference(decoded, small).mean == 0, "cut at \(length): the whole picture")
            } else {
                let error = try #require(throws: RenderError.self, "cut at \(length)") { try ImageDecoder().decode(cut, source: "cut.png") }
                #expect(error.description.hasPrefix("cut.png "), "cut at \(length): \(error)")
            }
        }
    }
}
