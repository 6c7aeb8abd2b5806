import Foundation
import MemeryTestSupport
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// Damaged pictures are refused in plain words: what is wrong with the file, not the
/// decoder library's state machine.
struct DecoderWordsTests {
    static let jargon = ["Improper call", "in state", "Fatal error", "Bogus", "CRC", "chunk type", "BMFF", "Huffman"]

    @Test(arguments: [
        ("Error interpreting JPEG image file (Improper call to JPEG library in state 201)", "the file ends before the picture does"),
        ("Fatal error reading PNG image file: K[D2]B[11]: invalid chunk type", "its compressed picture data is garbled"),
        ("Fatal error reading PNG image file: IDAT: CRC error", "a checksum does not match"),
        ("Not all frames of the GIF image were loaded.", "the file ends before the picture does"),
        ("Couldn't decode image: BMFF parsing failed", "its data is damaged or cut short"),
        ("BMP image has bogus header data", "its header is damaged"),
        ("BMP image has oversize palette", "its colour palette is damaged"),
        ("Dimensions do not match data", "the size it declares does not match its data"),
        ("Insufficient memory to load image, try exiting some applications to free memory", "the decoder ran out of memory"),
        ("memory allocation of 8589934592 bytes failed", "the decoder ran out of memory"),  // Rust's, from librsvg
        ("the spline reticulator overflowed", "the decoder could not read it (it said: the spline reticulator overflowed)"),
        // libavif's words, as the AVIF loader passes them on.
        ("Couldn't decode image: Invalid ftyp", "its header is damaged"),
        ("Couldn't decode image: Missing or empty image item", "it holds no picture"),
        ("Failed to decode all frames: Decoding of color planes failed", "its compressed picture data is garbled"),
        ("Failed to decode all frames: Truncated data", "the file ends before the picture does"),
        ("Couldn't decode image: Plane sizes don't match ispe values", "the size it declares does not match its data"),
        ("Couldn't decode image: Invalid image grid", "its picture is made of tiles that do not fit together"),
        ("Transformed AVIF has zero width or height", "its crop or turn leaves no pixels"),
    ])
    func libraryWordsBecomePlainWords(_ said: String, _ meaning: String) {
        #expect(DecoderWords.plain(said).hasPrefix(meaning))
    }

    /// A file the decoder declines is not called damaged: it uses something the decoder does
    /// not read, and the message says what.
    @Test func aFeatureTheDecoderDoesNotReadIsNotCalledDamage() {
        #expect(DecoderWords.meansUnsupported("Image sequences not yet implemented"))
        #expect(DecoderWords.meansUnsupported("Unsupported JPEG process: SOF type 0xc3"))
        #expect(!DecoderWords.meansUnsupported("Fatal error reading PNG image file: IDAT: CRC error"))
        #expect(!DecoderWords.meansUnsupported("Couldn't decode image: Out of memory"))
        #expect(DecoderWords.feature("Image sequences not yet implemented") == "an animation: AVIF image sequences are not read")
        let error = RenderError.unsupportedFeature(source: "seq.avif", format: "avif", feature: "an animation: AVIF image sequences are not read")
        #expect(error.description == "seq.avif uses a feature of the AVIF format that the decoder does not read (an animation: AVIF image sequences are not read); convert it to PNG")
    }

    /// An uncompressed 24-bit bottom-up BMP of `raster` (the encoder writes none).
    static func bmp(_ raster: Raster) -> Data {
        let rowBytes = (raster.width * 3 + 3) / 4 * 4
        var bytes = Array("BM".utf8) + littleEndian(UInt32(54 + rowBytes * raster.height)) + [0, 0, 0, 0] + littleEndian(54)
        bytes += littleEndian(40) + littleEndian(UInt32(raster.width)) + littleEndian(UInt32(raster.height)) + [1, 0, 24, 0]
        bytes += [UInt8](repeating: 0, count: 24)
        for y in (0..<raster.height).reversed() {
            for x in 0..<raster.width {
                let p = raster.pixel(x: x, y: y)
                bytes += [p.b, p.g, p.r]
            }
            bytes += [UInt8](repeating: 0, count: rowBytes - raster.width * 3)
        }
        return Data(bytes)
    }

    @Test func aWholeBMPDecodesToThePicture() throws {
        let (raster, _) = try ImageDecoder().decode(try Data(contentsOf: TestData.example()), source: "chelsea.png")
        let (image, info) = try ImageDecoder().decode(Self.bmp(raster), source: "whole.bmp")
        #expect(info.format == "bmp" && image.width == raster.width && image.height == raster.height)
        #expect(image.pixel(x: 100, y: 200) == raster.pixel(x: 100, y: 200))
    }

    /// The example photo, damaged three ways, and the words each refusal uses.
    @Test func damagedFilesAreRefusedInPlainWords() throws {
        let png = try Data(contentsOf: TestData.example())
        let (raster, _) = try ImageDecoder().decode(png, source: "chelsea.png")
        let jpeg = try ImageEncoder.encode(raster, as: .jpeg)
        var flipped = [UInt8](png)
        flipped[png.count / 2] ^= 0x5A  // inside the image data: its chunk's CRC no longer matches
        let cases: [(String, Data, String)] = [
            ("cut.jpg", jpeg.prefix(jpeg.count / 2), "cut.jpg is a damaged JPEG image: the file ends before the picture does"),
            ("flipped.png", Data(flipped), "flipped.png is a damaged PNG image: a checksum does not match"),
            ("cut.webp", try ImageEncoder.encode(raster, as: .webp).prefix(300), "cut.webp is a damaged WebP image: the file ends before the picture does"),
            ("cut.bmp", try Self.bmp(raster).prefix(5_000), "cut.bmp is a damaged BMP image: the file ends before the picture does"),
        ]
        for (name, data, message) in cases {
            let error = try #require(throws: RenderError.self) { try ImageDecoder().decode(data, source: name) }
            #expect(error.description.hasPrefix(message), "\(error)")
            #expect(!Self.jargon.contains(where: error.description.contains), "\(error)")
        }
    }
}
