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

    func caption(_ id: String, _ role: TextContent.Role, _ text: String, style: TextStyle? = nil) -> Layer {
        let box = TextContent.captionBox(role, width: 451, height: 300)
        return Layer(id: id, content: .text(TextContent(role: role, text: text, width: box.w, height: box.h,
                                                        style: style ?? .meme(canvasHeight: 300))),
                     transform: Transform(x: box.x + box.w / 2, y: box.y + box.h / 2))
    }

    /// A creation on the example photo (or on a transparent canvas) with these layers.
    func creation(_ layers: [Layer], transparent: Bool = false) -> Creation {
        var creation = Creation(id: UUID())
        creation.canvas = Canvas(width: 451, height: 300, background: Canvas.transparent)
        if !transparent {
            creation.baseImage = BaseImage(blob: "base", width: 451, height: 300, format: "png")
            creation.basePlacement = Transform(x: 225.5, y: 150)
        }
        creation.layers = layers
        return creation
    }

    func compose(_ layers: [Layer], transparent: Bool = false) throws -> Raster {
        try compositor.compose(creation(layers, transparent: transparent), images: ["base": base])
    }

    @Test func topAndBottomMemeOnAPhoto() throws {
        let meme = try compose([caption("L1", .top, "when the tests pass"), caption("L2", .bottom, "on the first try")])
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
        let alone = try compose([layer], transparent: true)
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

        let text = try #require(layer.text)
        let fit = try #require(MemeText.measure(text)).fit
        #expect(fit.size < text.style.maxSize)
        #expect(fit.size > 10)
        #expect(fit.height > fit.size * 2)  // more than one line

        try expectMatchesGolden(try compose([layer]), "meme-long-caption")
    }

    @Test func cjkCaptionRendersAsRealGlyphs() throws {
        let layer = caption("L1", .top, "日本語のミーム 中文字幕 한국어 자막")
        #expect(MemeText.measure(layer.text!)?.unknownGlyphs == 0)
        try expectMatchesGolden(try compose([layer]), "meme-cjk")
    }

    @Test func longCJKCaptionWrapsBetweenCharacters() throws {
        // No spaces at all: the lines must break between ideographs, not shrink to nothing.
        let layer = caption("L1", .top, "吾輩は猫である名前はまだ無いどこで生れたかとんと見当がつかぬ何でも薄暗いじめじめした所で")
        let measured = try #require(MemeText.measure(layer.text!))
        #expect(measured.unknownGlyphs == 0)
        #expect(measured.fit.height > measured.fit.size * 1.5)  // more than one line
        #expect(measured.fit.size > 15)
    }

    @Test func emojiCaptionRendersInColour() throws {
        let layer = caption("L1", .bottom, "🎉 party 😀🔥")
        #expect(MemeText.measure(layer.text!)?.unknownGlyphs == 0)
        let alone = try compose([layer], transparent: true)
        var yellow = 0
        for y in 200..<300 {
            for x in 0..<451 {
                let p = alone.pixel(x: x, y: y)
                if p.a > 200 && p.r > 200 && p.g > 140 && p.b < 90 { yellow += 1 }
            }
        }
        #expect(yellow > 50)
        try expectMatchesGolden(try compose([layer]), "meme-emoji")
    }

    @Test func textWithoutAnyFontIsReportedAsUnknownGlyphs() {
        // U+0378 is unassigned: no font has it, so the check above can fail.
        #expect((MemeText.measure(caption("L1", .top, "\u{0378}").text!)?.unknownGlyphs ?? 0) > 0)
    }
}
