import MemeryCore
import Foundation
import Testing
@testable import MemeryPixels
@testable import MemeryRender

@Suite struct ImageEncoderTests {
    let photo: Raster

    init() throws {
        photo = try decode(Paths.example("chelsea.png")).0
    }

    @Test func pngRoundTripIsExact() throws {
        let data = try ImageEncoder.encode(photo, as: .png)
        #expect(data.starts(with: [0x89, 0x50, 0x4e, 0x47]))
        let (back, info) = try ImageDecoder().decode(data, source: "out.png")
        #expect(info.format == "png")
        #expect(PixelDifference(back, photo).mean == 0)
    }

    @Test func jpegQualityTradesSizeForFidelity() throws {
        let low = try ImageEncoder.encode(photo, as: .jpeg, quality: 10)
        let high = try ImageEncoder.encode(photo, as: .jpeg, quality: 95)
        #expect(low.starts(with: [0xff, 0xd8]))
        #expect(low.count * 2 < high.count)
        let lowError = PixelDifference(try ImageDecoder().decode(low, source: "low.jpg").0, photo).mean
        let highError = PixelDifference(try ImageDecoder().decode(high, source: "high.jpg").0, photo).mean
        #expect(highError < lowError)
        #expect(highError < 3)
    }

    @Test func jpegFlattensTransparencyOntoWhite() throws {
        let clear = try Raster(width: 16, height: 16)
        let (back, _) = try ImageDecoder().decode(try ImageEncoder.encode(clear, as: .jpeg), source: "clear.jpg")
        let p = back.pixel(x: 8, y: 8)
        #expect(p.r > 250 && p.g > 250 && p.b > 250 && p.a == 255)
    }

    @Test func webpRoundTripKeepsThePicture() throws {
        let data = try ImageEncoder.encode(photo, as: .webp, quality: 90)
        #expect(data.prefix(4) == Data("RIFF".utf8))
        let (back, info) = try ImageDecoder().decode(data, source: "out.webp")
        #expect(info.format == "webp")
        #expect(PixelDifference(back, photo).mean < 4)
    }

    @Test func pngKeepsTransparency() throws {
        let clear = try Raster(width: 4, height: 4)
        let (back, _) = try ImageDecoder().decode(try ImageEncoder.encode(clear, as: .png), source: "clear.png")
        #expect(back.pixel(x: 1, y: 1).a == 0)
    }

    @Test func formatFollowsTheExtension() {
        #expect(ExportFormat(pathExtension: "JPG") == .jpeg)
        #expect(ExportFormat(pathExtension: "jpeg") == .jpeg)
        #expect(ExportFormat(pathExtension: "png") == .png)
        #expect(ExportFormat(pathExtension: "webp") == .webp)
        #expect(ExportFormat(pathExtension: "gif") == .gif)
        #expect(ExportFormat(pathExtension: "tga") == nil)
    }

    @Test func atomicWriteReplacesWholeOrReportsWhy() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("memery-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("out.bin")
        try AtomicFile.write(Data(repeating: 1, count: 100), to: target)
        try AtomicFile.write(Data(repeating: 2, count: 10), to: target)
        #expect(try Data(contentsOf: target) == Data(repeating: 2, count: 10))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.bin"])

        let nowhere = dir.appendingPathComponent("missing/out.png")
        #expect(throws: RenderError.writeFailed(path: nowhere.path, reason: "No such file or directory")) {
            try AtomicFile.write(Data([1]), to: nowhere)
        }
    }
}
