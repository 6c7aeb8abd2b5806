import Foundation
import MemeryCore
import Testing
@testable import MemeryRender

/// Meme text on examples/chelsea.png (451x300), compared with goldens in Golden/.
@Suite struct MemeTextTests {
    let base: Raster
    let compositor = Compositor(decoder: ImageDecoder())

    init() throws {
        base = try decode(Paths.example("chelsea.png")).0
    }

    func caption(_ id: String, _ role: TextLayer.Role, _ text: String, style: TextStyle? = nil) -> TextLayer {
        TextLayer(id: id, role: role, text: text, box: TextLayer.captionBox(role, width: 451, height: 300),
                  style: style ?? .meme(canvasHeight: 300))
    }

    @Test func topAndBottomMemeOnAPhoto() throws {
        let meme = try compositor.compose(base: base, layers: [
            caption("L1", .top, "when the tests pass"), caption("L2", .bottom, "on the first try"),
        ])
        try expectMatchesGolden(meme, "meme-top-bottom")
        // White fill inside a black outline in the top caption's band.
        var white = 0, black = 0
        for y in 6..<60 {
            for x in 14..<437 {
                let p = meme.pixel(x: x, y: y)
                if p.r > 240 && p.g > 240 && p.b > 240 { white += 1 }
                if p.r < 15 && p.g < 15 && p.b < 15 { black += 1 }
            }
        }
        #expect(white > 1000)
        #expect(black > 1000)
    }

    @Test func longCaptionWrapsAndShrinksInsideItsBox() throws {
        let long = "when you finally fix the bug at three in the morning and the fix breaks forty other tests you never knew existed"
        let layer = caption("L1", .top, long)
        let transparent = try Raster(width: 451, height: 300)
        let alone = try compositor.compose(base: transparent, layers: [layer])
        // Nothing drawn outside the box (a pixel of antialiasing allowed).
        let box = layer.box
        var outside = 0
        for y in 0..<300 {
            for x in 0..<451 where alone.pixel(x: x, y: y).a > 0 {
                if Double(x) < box.x - 1 || Double(x) > box.x + box.w + 1 || Double(y) < box.y - 1 || Double(y) > box.y + box.h + 1 {
                    outside += 1
                }
            }
        }
        #expect(outside == 0)

        let fit = try #require(MemeText.measure(layer)).fit
        #expect(fit.size < layer.style.maxSize)
        #expect(fit.size > 10)
        #expect(fit.height > fit.size * 2)  // more than one line

        try expectMatchesGolden(try compositor.compose(base: base, layers: [layer]), "meme-long-caption")
    }

    @Test func cjkCaptionRendersAsRealGlyphs() throws {
        let layer = caption("L1", .top, "日本語のミーム 中文字幕 한국어 자막")
        #expect(MemeText.measure(layer)?.unknownGlyphs == 0)
        try expectMatchesGolden(try compositor.compose(base: base, layers: [layer]), "meme-cjk")
    }

    @Test func longCJKCaptionWrapsBetweenCharacters() throws {
        // No spaces at all: the lines must break between ideographs, not shrink to nothing.
        let layer = caption("L1", .top, "吾輩は猫である名前はまだ無いどこで生れたかとんと見当がつかぬ何でも薄暗いじめじめした所で")
        let measured = try #require(MemeText.measure(layer))
        #expect(measured.unknownGlyphs == 0)
        #expect(measured.fit.height > measured.fit.size * 1.5)  // more than one line
        #expect(measured.fit.size > 15)
    }

    @Test func emojiCaptionRendersInColour() throws {
        let layer = caption("L1", .bottom, "🎉 party 😀🔥")
        #expect(MemeText.measure(layer)?.unknownGlyphs == 0)
        let transparent = try Raster(width: 451, height: 300)
        let alone = try compositor.compose(base: transparent, layers: [layer])
        var yellow = 0
        for y in 200..<300 {
            for x in 0..<451 {
                let p = alone.pixel(x: x, y: y)
                if p.a > 200 && p.r > 200 && p.g > 140 && p.b < 90 { yellow += 1 }
            }
        }
        #expect(yellow > 50)
        try expectMatchesGolden(try compositor.compose(base: base, layers: [layer]), "meme-emoji")
    }

    @Test func textWithoutAnyFontIsReportedAsUnknownGlyphs() {
        // U+0378 is unassigned: no font has it, so the check above can fail.
        #expect((MemeText.measure(caption("L1", .top, "\u{0378}"))?.unknownGlyphs ?? 0) > 0)
    }
}
