import CPangoCairo
import Foundation
import MemeryCore
import MemeryTestSupport
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// JPEG written while the picture is decoded (issue 11 §6): the same bytes as encoding the
/// finished picture, however the rows come and whenever decoding starts over.
@Suite struct StreamedJPEGTests {
    /// A picture of noise, so that the compressed bytes outgrow the writer's first buffer.
    static func noise(width: Int, height: Int, seed: UInt64) throws -> Raster {
        var generator = SeededGenerator(seed: seed)
        let raster = try Raster(width: width, height: height)
        raster.withMutablePixels { pixels, stride in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width { row[x] = 0xff00_0000 | UInt32(truncatingIfNeeded: generator.next()) & 0xff_ffff }
            }
        }
        return raster
    }

    static func creation(width: Int, height: Int) throws -> Creation {
        var creation = Creation(id: UUID())
        let image = BaseImage(blob: "0", width: width, height: height, format: "jpeg")
        for command: CreationCommand in [.create(name: "s"), .importBaseImage(image),
                                         .setCaptions(top: "ROWS AS THEY COME", bottom: "AND A BOTTOM LINE", style: TextStyleChanges())] {
            try creation.decide(command).forEach { creation = creation.evolve($0) }
        }
        return creation
    }

    @Test func aWriterGivenUpPartWayFreesWhatItHolds() throws {
        let raster = try Self.noise(width: 1000, height: 600, seed: 1)
        for rows in [0, 1, 300, 599] {
            let writer = try JPEGWriter(width: 1000, height: 600, quality: 90)
            try raster.withMutablePixels { pixels, stride in try writer.write(pixels, stride: stride, rows: rows) }
            // Dropped here: its buffer has grown several times (noise compresses badly).
        }
        let writer = try JPEGWriter(width: 1000, height: 600, quality: 90)
        #expect(throws: RenderError.self) { try writer.finish() }
    }

    @Test(arguments: [1, 7, 64, 600])
    func rowsInAnyBandsGiveTheBytesOfTheWholePicture(_ band: Int) throws {
        let compositor = Compositor()
        let creation = try Self.creation(width: 800, height: 600)
        let whole = try ImageEncoder.encode(try compositor.compose(creation, drawingOn: try Self.noise(width: 800, height: 600, seed: 2)), as: .jpeg)
        let picture = try Self.noise(width: 800, height: 600, seed: 2)
        let streamer = try #require(try StreamedJPEG(creation, width: 800, height: 600, quality: 90, compositor: compositor))
        for rows in Swift.stride(from: band, through: 600, by: band) { try streamer.rowsReady(rows, of: picture) }
        try streamer.rowsReady(600, of: picture)
        #expect(try streamer.finish() == whole)
    }

    @Test func startingOverPartWayGivesTheBytesOfTheFinalPicture() throws {
        let compositor = Compositor()
        let creation = try Self.creation(width: 800, height: 600)
        let final = try Self.noise(width: 800, height: 600, seed: 3)
        let whole = try ImageEncoder.encode(try compositor.compose(creation, drawingOn: try Self.noise(width: 800, height: 600, seed: 3)), as: .jpeg)
        let first = try Self.noise(width: 800, height: 600, seed: 4)  // what a decoder that gave up left
        let streamer = try #require(try StreamedJPEG(creation, width: 800, height: 600, quality: 90, compositor: compositor))
        try streamer.rowsReady(450, of: first)
        try streamer.startOver()
        try streamer.rowsReady(600, of: final)
        #expect(try streamer.finish() == whole)
    }

    @Test func aCaptionsRowsAreWhereItsInkIs() throws {
        let compositor = Compositor()
        let creation = try Self.creation(width: 800, height: 600)
        let bands = creation.layers.map { compositor.rows(touchedBy: $0, canvasWidth: 800, canvasHeight: 600) }
        #expect(bands.count == 2)
        #expect(bands[0].lowerBound < 40 && bands[0].upperBound < 200, "the top caption: \(bands[0])")
        #expect(bands[1].lowerBound > 400 && bands[1].upperBound > 560, "the bottom caption: \(bands[1])")
        // Every pixel the captions change lies in their rows.
        let plain = try Self.noise(width: 800, height: 600, seed: 5)
        let drawn = try compositor.compose(creation, drawingOn: try Self.noise(width: 800, height: 600, seed: 5))
        for y in 0..<600 where !bands.contains(where: { $0.contains(y) }) {
            for x in Swift.stride(from: 0, to: 800, by: 3) where plain.pixel(x: x, y: y) != drawn.pixel(x: x, y: y) {
                Issue.record("row \(y) changed outside the captions' rows")
                return
            }
        }
    }
}
