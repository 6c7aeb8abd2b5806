import Foundation
import MemeryTestSupport
import Testing
@testable import MemeryPixels
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

/// AVIF's rotation (irot) and mirror (imir), every combination avifenc writes, come out as
/// browsers show them (Debian's libavif-gdk-pixbuf 0.11 applies them itself: a guard that it
/// goes on doing so, and that nothing here turns them twice). Files made by libavif's own
/// avifenc, lossless.
@Suite struct AVIFOrientationTests {
    /// 40x20 in four quadrants: red, blue over green, white.
    static func quadrants() throws -> Raster {
        let raster = try Raster(width: 40, height: 20)
        raster.withMutablePixels { pixels, stride in
            for y in 0..<20 {
                for x in 0..<40 {
                    let value: UInt32 = y < 10 ? (x < 20 ? 0xFFFF_0000 : 0xFF00_00FF) : (x < 20 ? 0xFF00_FF00 : 0xFFFF_FFFF)
                    (pixels + y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee = value }
                }
            }
        }
        return raster
    }

    static func avif(_ options: [String]) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("in.png"), avif = folder.appendingPathComponent("out.avif")
        try ImageEncoder.encode(try quadrants(), as: .png).write(to: png)
        let encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: "/usr/bin/avifenc")  // Debian's libavif-bin (scripts/bootstrap)
        encoder.arguments = ["--lossless"] + options + [png.path, avif.path]
        encoder.standardOutput = FileHandle.nullDevice
        try encoder.run()
        encoder.waitUntilExit()
        try #require(encoder.terminationStatus == 0, "avifenc \(options)")
        return try Data(contentsOf: avif)
    }

    /// The colours at the four corners, top-left first, clockwise, and the size.
    static func corners(_ data: Data) throws -> String {
        let (image, _) = try ImageDecoder().decode(data, source: "test.avif")
        func name(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> String {
            p.r > 200 && p.g > 200 ? "white" : p.r > 200 ? "red" : p.g > 200 ? "green" : p.b > 200 ? "blue" : "other"
        }
        let (w, h) = (image.width, image.height)
        return "\(w)x\(h) " + [(1, 1), (w - 2, 1), (w - 2, h - 2), (1, h - 2)].map { name(image.pixel(x: $0.0, y: $0.1)) }.joined(separator: " ")
    }

    @Test(arguments: [
        ([String](), "40x20 red blue white green"),
        (["--irot", "1"], "20x40 blue white green red"),          // a quarter turn anticlockwise
        (["--irot", "2"], "40x20 white green red blue"),
        (["--irot", "3"], "20x40 green red blue white"),
        (["--imir", "1"], "40x20 blue red green white"),          // left and right exchanged
        (["--imir", "0"], "40x20 green white blue red"),          // top and bottom exchanged
        (["--irot", "1", "--imir", "1"], "20x40 white blue red green"),
    ])
    func rotationAndMirrorAreApplied(_ options: [String], _ expected: String) throws {
        let got = try Self.corners(try Self.avif(options))
        #expect(got == expected, "\(options): \(got)")
    }
}
