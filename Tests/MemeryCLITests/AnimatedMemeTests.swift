import Foundation
import Memery
import MemeryRender
import Testing

/// Animated memes from the command line (issue 11 §4): an animated GIF or WebP keeps its
/// frames and timing, everything on top is drawn on every frame, and the limits are refused
/// before decoding. Frames are read back with libvips, a decoder of its own.
@Suite struct AnimatedMemeTests {
    static let gif = Paths.root.appendingPathComponent("Tests/Corpus/images/gif/iss634.gif").path
    static let webp = Paths.root.appendingPathComponent("Tests/Corpus/images/webp/iss634.webp").path

    /// The animation's frames (decoded by libvips) and delays.
    func frames(_ path: String) throws -> (frames: [Raster], delays: [Int]) {
        let (frames, delays, _) = try vipsFrames(of: try Data(contentsOf: URL(fileURLWithPath: path)), ext: (path as NSString).pathExtension)
        return (frames, delays)
    }

    /// Caption pixels: the white fill and the black outline, in a band of rows.
    func captionInk(_ frame: Raster, rows: Range<Int>) -> (white: Int, black: Int) {
        var white = 0, black = 0
        for y in rows {
            for x in 0..<frame.width {
                let p = frame.pixel(x: x, y: y)
                if p.r > 240 && p.g > 240 && p.b > 240 { white += 1 }
                if p.r < 20 && p.g < 20 && p.b < 20 { black += 1 }
            }
        }
        return (white, black)
    }

    @Test func aQuickMemeOfAnAnimatedGIFKeepsEveryFrameWithItsCaptions() throws {
        let s = try Sandbox()
        let out = s.path("out.gif")
        #expect(try s.ok(["quick", Self.gif, "--top", "when the gif", "--bottom", "has captions", "-o", out]) == "iss634")
        let source = try frames(Self.gif)
        let meme = try frames(out)
        #expect(meme.frames.count == 42)
        #expect(meme.delays == source.delays, "the timing is kept")
        for (index, (frame, original)) in zip(meme.frames, source.frames).enumerated() {
            let top = captionInk(frame, rows: 0..<40), bottom = captionInk(frame, rows: 205..<245)
            let before = captionInk(original, rows: 0..<40)
            #expect(top.white > before.white + 300 && top.black > before.black + 300, "frame \(index + 1) has the top caption")
            #expect(bottom.white > 300, "frame \(index + 1) has the bottom caption")
            // Between the captions, the frame's own picture (in 256 colours of its own).
            var difference = 0
            for y in 80..<160 { for x in 0..<245 {
                let p = frame.pixel(x: x, y: y), q = original.pixel(x: x, y: y)
                difference += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
            } }
            #expect(Double(difference) / Double(80 * 245 * 3) < 4, "frame \(index + 1) shows its own picture")
        }
        #expect(PixelDifferenceMean(meme.frames[0], meme.frames[21]) > 1.5, "the frames differ: it moves")
        // Frames after the first hold only what changed: about the source's size (a whole
        // palette frame each time was 956 KB, 3.4 times the 277 KB source).
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as! Int
        let sourceSize = try FileManager.default.attributesOfItem(atPath: Self.gif)[.size] as! Int
        #expect(size < sourceSize * 6 / 5, "\(size) bytes from a \(sourceSize)-byte GIF")
    }

    @Test func filtersAndShapesApplyToEveryFrameInGIFAndWebP() throws {
        let s = try Sandbox()
        try s.ok(["new", "anim", "--image", Self.webp])
        try s.ok(["filter", "apply", "anim", "org.memery.grayscale"])
        _ = try s.ok(["shape", "add", "anim", "--rect", "10,100,60,40", "--fill", "red"])
        for ext in ["gif", "webp"] {
            let out = s.path("anim.\(ext)")
            #expect(try s.run(["export", "anim", "-o", out]).stderr.isEmpty, "no note: the animation is kept")
            let result = try frames(out)
            #expect(result.frames.count == 42, "\(ext)")
            for (index, frame) in result.frames.enumerated() {
                let red = frame.pixel(x: 40, y: 120)
                #expect(red.r > 200 && red.g < 60 && red.b < 60, "\(ext) frame \(index + 1): the rectangle")
                let grey = frame.pixel(x: 200, y: 60)
                #expect(abs(Int(grey.r) - Int(grey.g)) <= 6 && abs(Int(grey.g) - Int(grey.b)) <= 6, "\(ext) frame \(index + 1): grayscale \(grey)")
            }
        }
    }

    @Test func aStillFormatTakesTheFirstFrameAndSaysSo() throws {
        let s = try Sandbox()
        try s.ok(["new", "anim", "--image", Self.gif])
        let outcome = try s.run(["export", "anim", "-o", s.path("first.png")])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("note: the creation is animated (42 frames) and PNG holds one picture, so its first frame was written; export to .gif or .webp to keep the animation"))
        let first = try ImageDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: s.path("first.png"))), source: "first").0
        #expect(PixelDifferenceMean(first, try frames(Self.gif).frames[0]) < 0.5)
        let quick = try s.run(["quick", Self.gif, "--top", "still", "-o", s.path("q.jpg")])
        #expect(quick.status == 0 && quick.stderr.contains("JPEG holds one picture"))
        #expect(try s.ok(["show", "anim"]).contains("42 frames"))
    }

    @Test func animationsOverTheLimitsAreRefusedBeforeAnythingIsKept() throws {
        let s = try Sandbox()
        _ = try s.ok(["list"])
        let before = try s.counts()
        try s.fails(["quick", Self.gif, "--top", "x", "-o", s.path("x.gif")], containing:
                    "iss634.gif holds 42 frames, more than the 10 Memery decodes in one animation; set MEMERY_MAX_FRAMES to allow more",
                    environment: ["MEMERY_MAX_FRAMES": "10"])
        try s.fails(["new", "w", "--image", Self.webp], containing:
                    "iss634.webp holds 42 frames of 245x245 (3 megapixels in all), over the limit of 1 megapixels for an animation; set MEMERY_MAX_ANIMATION_MEGAPIXELS to allow more",
                    environment: ["MEMERY_MAX_ANIMATION_MEGAPIXELS": "1"])
        #expect(try s.counts() == before)
        #expect(!FileManager.default.fileExists(atPath: s.path("x.gif")))
    }
}

/// Mean absolute difference per RGB channel of two same-sized pictures.
func PixelDifferenceMean(_ a: Raster, _ b: Raster) -> Double {
    var total = 0
    for y in 0..<a.height { for x in 0..<a.width {
        let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
        total += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
    } }
    return Double(total) / Double(a.width * a.height * 3)
}
