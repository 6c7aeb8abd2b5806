import Foundation
import MemeryTestSupport
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// A PNG whose picture is whole but whose end is damaged is shown, as browsers show it (issue
/// 32 §4: it was refused as "the file ends before the picture does"); one cut inside its
/// picture data is still refused.
@Suite struct PNGTailTests {
    /// A 64x48 gradient as Memery writes it: signature, IHDR, IDAT, IEND.
    static func whole() throws -> (raster: Raster, png: [UInt8]) {
        let raster = try Raster(width: 64, height: 48)
        raster.withMutablePixels { pixels, stride in
            for y in 0..<48 {
                let row = UnsafeMutableRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<64 { row[x] = 0xff00_0000 | UInt32(x * 4) << 16 | UInt32(y * 5) << 8 | 128 }
            }
        }
        let png = [UInt8](try ImageEncoder.encode(raster, as: .png))
        #expect(png.suffix(12).elementsEqual(PNGTail.end), "ends with IEND")
        return (raster, png)
    }

    @Test func aDamagedEndAfterAWholePictureIsShown() throws {
        let (raster, png) = try Self.whole()
        let body = Array(png.dropLast(12))
        let damaged: [(String, [UInt8])] = [
            ("IEND cut short", Array(png.dropLast(6))),
            ("no IEND", body),
            ("a text chunk longer than the file", body + [0, 1, 0x86, 0xA0] + Array("tEXtabc".utf8)),
            ("garbage after the picture", body + [0x13, 0x37] + Array("garbage bytes".utf8)),
        ]
        for (what, bytes) in damaged {
            #expect(PNGTail.mended(Data(bytes)) != nil, "\(what)")
            let (decoded, info) = try ImageDecoder().decode(Data(bytes), source: "tail.png")
            #expect(info.format == "png")
            #expect(PixelDifference(decoded, raster).mean == 0, "\(what): every pixel")
        }
        #expect(PNGTail.mended(Data(png)) == nil, "a whole file is left as it is")
    }

    /// A stream that ends, but holds fewer rows than the picture has, is refused: the missing
    /// rows would be drawn grey. (Its IDAT is that of a picture half as tall.)
    @Test func aStreamThatEndsBeforeTheLastRowIsRefused() throws {
        func chunks(_ png: [UInt8]) -> [(type: String, bytes: ArraySlice<UInt8>)] {
            var offset = 8, found = [(type: String, bytes: ArraySlice<UInt8>)]()
            while offset + 8 <= png.count {
                let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
                found.append((String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self), png[offset..<(offset + 12 + length)]))
                offset += 12 + length
            }
            return found
        }
        let tall = [UInt8](try ImageEncoder.encode(try Raster(width: 64, height: 64), as: .png))
        let short = [UInt8](try ImageEncoder.encode(try Raster(width: 64, height: 32), as: .png))
        let header = chunks(tall).filter { $0.type == "IHDR" }.flatMap(\.bytes)
        let rows = chunks(short).filter { $0.type == "IDAT" }.flatMap(\.bytes)
        let halfDrawn = Data(Array(tall.prefix(8)) + header + rows)
        #expect(PNGTail.mended(halfDrawn) == nil)
        let error = try #require(throws: RenderError.self) { try ImageDecoder().decode(halfDrawn, source: "half.png") }
        #expect(error.description.hasPrefix("half.png is a damaged PNG image: the file ends before the picture does"))
        #expect(PNGTail.rowBytes(width: 64, height: 64, depth: 8, colourType: 6, interlaced: false) == 64 * (1 + 256))
        // Adam7's seven passes of an 8x8 grey picture: 1+1+2+4+8+16+32 pixels, a filter byte a row.
        #expect(PNGTail.rowBytes(width: 8, height: 8, depth: 8, colourType: 0, interlaced: true) == (1 + 1) + (1 + 1) + (1 + 2) + 2 * (1 + 2) + 2 * (1 + 4) + 4 * (1 + 4) + 4 * (1 + 8))
    }

    @Test func aPictureCutShortStaysRefused() throws {
        let png = try Self.whole().png
        let idat = try #require((0..<png.count - 4).first { png[$0..<($0 + 4)].elementsEqual("IDAT".utf8) }) - 4
        let length = Int(png[idat]) << 24 | Int(png[idat + 1]) << 16 | Int(png[idat + 2]) << 8 | Int(png[idat + 3])
        // Inside the picture data.
        let cut = Array(png.prefix(idat + 8 + length / 2))
        // A whole IDAT chunk (its checksum is not what is judged) holding half the stream.
        let halfLength = length / 2
        let half = Array(png.prefix(idat)) + [24, 16, 8, 0].map { UInt8(halfLength >> $0 & 0xFF) } + Array("IDAT".utf8)
            + Array(png[(idat + 8)..<(idat + 8 + halfLength)]) + [0, 0, 0, 0]
        for bytes in [cut, half] {
            #expect(PNGTail.mended(Data(bytes)) == nil)
            let error = try #require(throws: RenderError.self) { try ImageDecoder().decode(Data(bytes), source: "cut.png") }
            #expect(error.description.hasPrefix("cut.png is a damaged PNG image: the file ends before the picture does"))
        }
    }
}
