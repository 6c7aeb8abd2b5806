import Foundation
import MemeryTestSupport
import Testing
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

    @Test(arguments: ["broken.png", "broken_data_stream.png", "truncated_jpeg.jpg", "decompression_bomb.gif"])
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

@Suite struct ImageLimitTests {
    @Test func hugeDeclaredSizeIsRefusedBeforeDecoding() throws {
        let bomb = pngDeclaring(width: 60_000, height: 60_000)
        #expect(throws: RenderError.tooLarge(source: "bomb.png", width: 60_000, height: 60_000, limit: 100_000_000)) {
            try ImageDecoder().decode(bomb, source: "bomb.png")
        }
        #expect(RenderError.tooLarge(source: "bomb.png", width: 60_000, height: 60_000, limit: 100_000_000).description
            == "bomb.png declares 60000x60000 pixels (3600 megapixels), over the limit of 100 megapixels; set MEMERY_MAX_MEGAPIXELS to allow more")
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
        do {
            _ = try ImageDecoder().decode(Data("this is text, not a picture\n".utf8), source: "notes.png")
            Issue.record("text should not decode")
        } catch let error as RenderError {
            guard case .unsupportedFormat(let source, let known) = error else { Issue.record("got \(error)"); return }
            #expect(source == "notes.png")
            #expect(known.contains("png") && known.contains("jpeg"))
        }
    }

    @Test func everyTruncationOfAPNGFailsCleanlyOrDecodes() throws {
        let data = try Data(contentsOf: Paths.example("chelsea.png")).prefix(4096)
        for length in stride(from: 0, to: data.count, by: 97) {
            do {
                _ = try ImageDecoder().decode(Data(data.prefix(length)), source: "cut.png")
            } catch is RenderError {
                // a clear error is the expected outcome
            }
        }
    }
}
