import Foundation
import MemeryTestSupport
import Testing
@testable import MemeryRender

/// PNG and WebP files that record an orientation (EXIF, or XMP's tiff:Orientation) come out
/// upright, as JPEGs do: their loaders ignore it, the decoder applies it.
struct EmbeddedOrientationTests {
    /// 40x20: the left half red, the right half blue.
    static func halves() throws -> Raster {
        let raster = try Raster(width: 40, height: 20)
        raster.withMutablePixels { pixels, stride in
            for y in 0..<20 {
                for x in 0..<40 {
                    let value: UInt32 = x < 20 ? 0xFFFF_0000 : 0xFF00_00FF
                    (pixels + y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee = value }
                }
            }
        }
        return raster
    }

    /// A big-endian EXIF block (TIFF structure) holding only the orientation.
    static func exif(_ orientation: UInt16, prefixed: Bool = false) -> [UInt8] {
        (prefixed ? Array("Exif".utf8) + [0, 0] : []) + Array("MM".utf8) + [0, 42] + bigEndian(8) + [0, 1]
            + [0x01, 0x12, 0, 3] + bigEndian(1) + [UInt8(orientation >> 8), UInt8(orientation & 0xff), 0, 0] + bigEndian(0)
    }

    static func xmp(_ orientation: Int) -> [UInt8] {
        Array("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="\(orientation)"/></rdf:RDF></x:xmpmeta>
        """.utf8)
    }

    /// The PNG of `halves()` with `chunk` after its header.
    static func png(with chunk: [UInt8]) throws -> Data {
        let plain = [UInt8](try ImageEncoder.encode(try halves(), as: .png))
        return Data(plain[..<33] + chunk + plain[33...])  // signature (8) + IHDR (25)
    }

    /// The WebP of `halves()`, made extended (VP8X) with `chunk` (EXIF or XMP) after the image.
    static func webp(with type: String, _ body: [UInt8]) throws -> Data {
        let plain = [UInt8](try ImageEncoder.encode(try halves(), as: .webp, quality: 100))
        #expect(String(decoding: plain[12..<16], as: UTF8.self) != "VP8X", "the encoder now writes extended WebP: adapt the test")
        let flags: UInt8 = type == "EXIF" ? 0x08 : 0x04
        let vp8x = Array("VP8X".utf8) + littleEndian(10) + [flags, 0, 0, 0] + [39, 0, 0] + [19, 0, 0]
        var extra = Array(type.utf8) + littleEndian(UInt32(body.count)) + body
        if body.count % 2 == 1 { extra.append(0) }
        let chunks = vp8x + plain[12...] + extra
        return Data(Array("RIFF".utf8) + littleEndian(UInt32(4 + chunks.count)) + Array("WEBP".utf8) + chunks)
    }

    /// Which colour is where once upright: "red" or "blue" at the top-left and bottom-right.
    static func corners(_ data: Data) throws -> (width: Int, height: Int, topLeft: String, bottomRight: String) {
        let (image, info) = try ImageDecoder().decode(data, source: "test")
        #expect(info.width == image.width && info.height == image.height)
        func name(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> String { p.r > 200 ? "red" : p.b > 200 ? "blue" : "other" }
        return (image.width, image.height, name(image.pixel(x: 1, y: 1)), name(image.pixel(x: image.width - 2, y: image.height - 2)))
    }

    /// 1 upright, 2 mirrored, 3 half a turn, 6 a quarter turn clockwise, 8 anticlockwise.
    static let expected: [Int: (Int, Int, String, String)] = [
        1: (40, 20, "red", "blue"), 2: (40, 20, "blue", "red"), 3: (40, 20, "blue", "red"),
        6: (20, 40, "red", "blue"), 8: (20, 40, "blue", "red"),
    ]

    @Test(arguments: [1, 2, 3, 6, 8])
    func pngEXIfOrientationIsApplied(_ orientation: Int) throws {
        let got = try Self.corners(try Self.png(with: pngChunk("eXIf", Self.exif(UInt16(orientation)))))
        #expect(got == Self.expected[orientation]!, "orientation \(orientation)")
    }

    @Test func pngXMPOrientationIsApplied() throws {
        let body = Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Self.xmp(6)
        #expect(try Self.corners(try Self.png(with: pngChunk("iTXt", body))) == Self.expected[6]!)
    }

    @Test(arguments: [1, 3, 6, 8])
    func webpEXIFOrientationIsApplied(_ orientation: Int) throws {
        let got = try Self.corners(try Self.webp(with: "EXIF", Self.exif(UInt16(orientation), prefixed: orientation == 8)))
        #expect(got == Self.expected[orientation]!, "orientation \(orientation)")
    }

    @Test func webpXMPOrientationIsApplied() throws {
        #expect(try Self.corners(try Self.webp(with: "XMP ", Self.xmp(8))) == Self.expected[8]!)
    }

    @Test func nonsenseOrientationIsIgnored() throws {
        #expect(try Self.corners(try Self.png(with: pngChunk("eXIf", Self.exif(77)))) == Self.expected[1]!)
        #expect(try Self.corners(try Self.png(with: pngChunk("eXIf", Array("garbage".utf8)))) == Self.expected[1]!)
    }
}
