import CPangoCairo
import Foundation
import MemeryTestSupport
import MemeryCore
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// Animated GIF and WebP (issue 11 §4): every frame decoded as browsers show it, checked
/// against Pillow's frames (Tests/Corpus/reference/frames, made by make-references.py) and
/// libvips's; frames, timing and loops kept through Memery's own GIF and WebP writers, read
/// back by libvips.
@Suite struct AnimationTests {
    static let corpus = TestData.root.appendingPathComponent("Tests/Corpus/images")
    /// Checked against Pillow's frames.
    static let pillowChecked = ["gif/dispose_prev.gif", "gif/transparent_dispose.gif",
                                "gif/animated_loop_interlaced.gif", "gif/missing_background.gif"]
    /// Checked against libvips: 42 frames that cover the screen.
    static let vipsChecked = ["gif/iss634.gif", "webp/iss634.webp"]

    static func data(_ path: String) throws -> Data { try Data(contentsOf: corpus.appendingPathComponent(path)) }

    /// Every frame and its delay, decoded by Memery.
    static func frames(_ data: Data, format: String) throws -> (frames: [AnimationFrame], loops: AnimationLoops) {
        let source = try Animations.open(data, format: format, source: "test")
        var frames = [AnimationFrame]()
        while let frame = try source.next() { frames.append(frame) }
        #expect(frames.count == source.frameCount)
        return (frames, source.loops)
    }

    static func vipsFrames(_ data: Data, ext: String) throws -> (frames: [Raster], delays: [Int], loop: Int) {
        try MemeryTestSupport.vipsFrames(of: data, ext: ext)
    }

    @Test(arguments: pillowChecked)
    func everyFrameDecodesAsABrowserShowsIt(_ path: String) throws {
        let (ours, loops) = try Self.frames(try Self.data(path), format: (path as NSString).pathExtension)
        let reference = TestData.root.appendingPathComponent("Tests/Corpus/reference/frames/\(path)")
        let strip = try ImageDecoder().decode(try Data(contentsOf: reference.appendingPathExtension("png")), source: "reference").0
        let sidecar = try JSONSerialization.jsonObject(with: try Data(contentsOf: reference.appendingPathExtension("json"))) as! [String: Any]
        #expect(ours.map(\.delay) == sidecar["delays"] as? [Int], "the frames' timing")
        #expect(loops == sidecar["loop"] as? Int)
        #expect(ours.count * (ours.first?.raster.height ?? 0) == strip.height)
        for (index, frame) in ours.enumerated() {
            let expected = try band(of: strip, from: index * frame.raster.height, height: frame.raster.height)
            let difference = PixelDifference(frame.raster, expected)
            #expect(difference.mean == 0, "frame \(index + 1): \(difference)")
        }
    }

    /// Disposal to the background clears the frame's rectangle to transparent, as browsers
    /// do (Pillow paints it black, libvips the background colour).
    @Test func disposalToTheBackgroundClearsToTransparent() throws {
        let (frames, _) = try Self.frames(try Self.data("gif/dispose_bgnd.gif"), format: "gif")
        #expect(frames.count == 5)
        // Frame 2 draws a balloon at (5, 10, 32x32) and is disposed to the background.
        #expect(frames[1].raster.pixel(x: 10, y: 15).a == 255)
        #expect(frames[2].raster.pixel(x: 10, y: 15).a == 0, "cleared once frame 2 is over")
        #expect(frames[2].raster.pixel(x: 20, y: 20).a == 0)
        #expect(frames[2].raster.pixel(x: 90, y: 5) == frames[0].raster.pixel(x: 90, y: 5), "the rest stays")
        #expect(frames[2].raster.pixel(x: 50, y: 45).a == 255, "frame 3 draws its own block")
    }

    @Test(arguments: vipsChecked)
    func everyFrameDecodesAsLibvipsDecodesIt(_ path: String) throws {
        let data = try Self.data(path)
        let ext = (path as NSString).pathExtension
        let (ours, loops) = try Self.frames(data, format: ext)
        let reference = try Self.vipsFrames(data, ext: ext)
        #expect(ours.count == reference.frames.count)
        #expect(ours.map(\.delay) == reference.delays, "the frames' timing")
        #expect(loops == 0 && reference.loop == 0, "played forever")
        for (index, (frame, expected)) in zip(ours, reference.frames).enumerated() {
            let difference = PixelDifference(frame.raster, expected)
            #expect(difference.mean <= 0.5 && difference.badShare <= 0.001, "frame \(index + 1): \(difference)")
        }
    }

    @Test func webPFramesAreCountedFromTheHeaderSoLimitsApplyBeforeDecoding() throws {
        let webp = try Self.data("webp/iss634.webp"), gif = try Self.data("gif/iss634.gif")
        #expect(ImageHeader.read(webp).frames == 42)
        #expect(ImageHeader.read(gif).frames == 42)
        #expect(ImageHeader.read(try Self.data("webp/hopper.webp")).frames == 1)
        for (data, name) in [(webp, "a.webp"), (gif, "a.gif")] {
            let error = try #require(throws: RenderError.self) { try ImageDecoder(maxFrames: 41).decode(data, source: name) }
            #expect(error.description == "\(name) holds 42 frames, more than the 41 Memery decodes in one animation; set MEMERY_MAX_FRAMES to allow more")
            // 42 frames of 245x245: 2.5 megapixels in all.
            let total = try #require(throws: RenderError.self) { try ImageDecoder(maxAnimationPixels: 2_000_000).decode(data, source: name) }
            #expect(total.description.contains("holds 42 frames of 245x245 (3 megapixels in all), over the limit of 2 megapixels for an animation; set MEMERY_MAX_ANIMATION_MEGAPIXELS"))
        }
        let (first, info) = try ImageDecoder(maxFrames: 42).decode(webp, source: "a.webp")
        #expect(info.frames == 42 && first.width == 245)
    }

    @Test func gifExportKeepsEveryFrameItsTimingAndLoops() throws {
        let (source, loops) = try Self.frames(try Self.data("gif/iss634.gif"), format: "gif")
        #expect(loops == 0, "it plays forever")
        let encoder = try AnimationEncoder(.gif, width: 245, height: 245, loops: loops, quality: 90)
        for frame in source { try encoder.add(frame.raster, delay: frame.delay) }
        let written = try encoder.finish()
        let reference = try Self.vipsFrames(written, ext: "gif")
        #expect(reference.frames.count == 42)
        #expect(reference.delays == source.map(\.delay))
        #expect(reference.loop == 0)
        #expect(try Self.frames(written, format: "gif").loops == 0)
        for (index, (frame, back)) in zip(source, reference.frames).enumerated() {
            let difference = PixelDifference(frame.raster, back)
            // A photo-like frame in 256 colours of its own: a level or two off on average.
            #expect(difference.mean <= 2.5 && difference.badShare <= 0.002, "frame \(index + 1): \(difference)")
        }
    }

    @Test func aFrameWithFewColoursKeepsThemExactlyAndTransparencyStays() throws {
        for path in ["gif/dispose_bgnd.gif", "gif/transparent_dispose.gif"] {
            let (source, loops) = try Self.frames(try Self.data(path), format: "gif")
            let encoder = try AnimationEncoder(.gif, width: source[0].raster.width, height: source[0].raster.height, loops: loops, quality: 90)
            for frame in source { try encoder.add(frame.raster, delay: frame.delay) }
            let back = try Self.frames(try encoder.finish(), format: "gif")
            #expect(back.loops == loops)
            #expect(back.frames.map(\.delay) == source.map(\.delay))
            for (frame, decoded) in zip(source, back.frames) {
                #expect(PixelDifference(frame.raster, decoded.raster).mean == 0, "\(path): the frame's own colours, and its clear pixels clear")
            }
        }
    }

    /// Two frames with 4096 colours each, one in reds, one in blues: a palette chosen for
    /// each frame keeps both close; one fixed palette (or the first frame's) could not.
    @Test func eachFrameGetsAPaletteChosenForIt() throws {
        func gradient(_ colour: (Int, Int) -> UInt32) throws -> Raster {
            let raster = try Raster(width: 64, height: 64)
            raster.withMutablePixels { pixels, stride in
                for y in 0..<64 {
                    let row = UnsafeMutableRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<64 { row[x] = 0xff00_0000 | colour(x, y) }
                }
            }
            return raster
        }
        let reds = try gradient { x, y in UInt32(128 + x * 2) << 16 | UInt32(y) << 8 | UInt32(x / 2) }
        let blues = try gradient { x, y in UInt32(y / 2) << 16 | UInt32(x) << 8 | UInt32(128 + y * 2) }
        let encoder = try AnimationEncoder(.gif, width: 64, height: 64, loops: 0, quality: 90)
        try encoder.add(reds, delay: 100)
        try encoder.add(blues, delay: 100)
        let back = try Self.vipsFrames(try encoder.finish(), ext: "gif").frames
        #expect(back.count == 2)
        #expect(PixelDifference(reds, back[0]).mean <= 1.5, "\(PixelDifference(reds, back[0]))")
        #expect(PixelDifference(blues, back[1]).mean <= 1.5, "\(PixelDifference(blues, back[1]))")
    }

    @Test func webPExportKeepsEveryFrameAndItsTiming() throws {
        let (source, loops) = try Self.frames(try Self.data("webp/iss634.webp"), format: "webp")
        let encoder = try AnimationEncoder(.webp, width: 245, height: 245, loops: loops, quality: 90)
        for frame in source { try encoder.add(frame.raster, delay: frame.delay) }
        let written = try encoder.finish()
        let reference = try Self.vipsFrames(written, ext: "webp")
        #expect(reference.frames.count == 42)
        // A frame of 10 ms or less is shown for 100 ms, as browsers show such GIF frames.
        #expect(reference.delays == source.map { $0.delay <= 10 ? 100 : $0.delay })
        #expect(reference.loop == 0)
        for (index, (frame, back)) in zip(source, reference.frames).enumerated() {
            let difference = PixelDifference(frame.raster, back)
            #expect(difference.mean <= 3 && difference.badShare <= 0.002, "frame \(index + 1): \(difference)")
        }
    }

    @Test func aStillGIFIsOneFrameWithItsTransparency() throws {
        let raster = try Raster(width: 20, height: 10)
        raster.draw { cr in
            cairo_set_source_rgb(cr, 1, 0, 0)
            cairo_rectangle(cr, 0, 0, 10, 10)
            cairo_fill(cr)
        }
        let gif = try ImageEncoder.encode(raster, as: .gif)
        #expect(gif.starts(with: Array("GIF89a".utf8)))
        let (back, info) = try ImageDecoder().decode(gif, source: "still.gif")
        #expect(info.frames == 1)
        #expect(back.pixel(x: 2, y: 2) == (255, 0, 0, 255))
        #expect(back.pixel(x: 15, y: 2).a == 0)
    }
}
