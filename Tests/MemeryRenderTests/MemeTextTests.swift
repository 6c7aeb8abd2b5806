import Foundation
import MemeryCore
import Testing
@testable import MemeryPixels
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
        #expect(fit.lines >= 2)

        try expectMatchesGolden(try compose([layer]), "meme-long-caption")
    }

    /// Rows of `picture` with anything drawn in columns `xs`, as runs of (first, last) row.
    func inkedRowRuns(_ picture: Raster, rows: Range<Int>, columns: Range<Int>) -> [(Int, Int)] {
        var runs = [(Int, Int)]()
        for y in rows where columns.contains(where: { picture.pixel(x: $0, y: y).a > 0 }) {
            if let last = runs.last, last.1 == y - 1 { runs[runs.count - 1].1 = y } else { runs.append((y, y)) }
        }
        return runs
    }

    /// "OOOO" as the top caption of a transparent canvas, and the pattern across the middle
    /// of its letters: '#' inked, '.' clear, '+' partly.
    func middleRow(canvasWidth: Int, canvasHeight: Int) throws -> (fit: MemeText.Fit, row: String) {
        let box = TextContent.captionBox(.top, width: canvasWidth, height: canvasHeight)
        let text = TextContent(role: .top, text: "OOOO", width: box.w, height: box.h, style: .meme(canvasHeight: canvasHeight))
        var creation = creation([], transparent: true)
        creation.canvas = Canvas(width: canvasWidth, height: canvasHeight, background: Canvas.transparent)
        creation.layers = [Layer(id: "L1", content: .text(text), transform: Transform(x: box.x + box.w / 2, y: box.y + box.h / 2))]
        let alone = try compositor.compose(creation, images: [:])
        let band = try #require(inkedRowRuns(alone, rows: 0..<canvasHeight / 2, columns: 0..<canvasWidth).first)
        let y = (band.0 + band.1) / 2
        let row = (0..<canvasWidth).map { x -> String in
            let a = alone.pixel(x: x, y: y).a
            return a > 200 ? "#" : a == 0 ? "." : "+"
        }.joined()
        return (try #require(MemeText.measure(text)).fit, row.trimmingCharacters(in: CharacterSet(charactersIn: ".")))
    }

    @Test func theOutlineKeepsLettersApartAndTheirHolesOpen() throws {
        // At 43 px the outline is 2.15 px, as memegen's 3 px at 66 px: the letters are not one band.
        let small = try middleRow(canvasWidth: 451, canvasHeight: 300)
        #expect(small.fit.size == 43 && abs(small.fit.outline - 43.0 / 20) < 1e-9)
        #expect(small.row.split(separator: "#", omittingEmptySubsequences: true).count >= 3,
                "a gap between each pair of letters: \(small.row)")
        // At 114 px each O's hole shows through its outline.
        let large = try middleRow(canvasWidth: 1200, canvasHeight: 800)
        let clear = large.row.split(separator: "#", omittingEmptySubsequences: true).filter { $0.contains(".") }
        #expect(clear.count >= 4, "the holes of the four O's and the gaps between them are clear: \(large.row)")
    }

    @Test func twoLinesBreakAtTheMostBalancedSpaceAndTheirOutlinesDoNotTouch() throws {
        let box = TextContent.captionBox(.top, width: 300, height: 400)
        let text = TextContent(role: .top, text: "one does not simply walk into mordor", width: box.w, height: box.h, style: .meme(canvasHeight: 400))
        let fit = try #require(MemeText.measure(text)).fit
        #expect(fit.lines == 2)
        #expect(fit.setting.text == "ONE DOES NOT SIMPLY\nWALK INTO MORDOR")
        #expect(try inkBands(text, canvasWidth: 300, canvasHeight: 400).count == 2, "two bands of ink with clear rows between them")
        // Descenders over accented capitals, in a face that has both: still apart.
        var mixed = text
        mixed.text = "Ångström jumpy quaggy Éclair gypsy"
        mixed.style = TextStyle(font: "DejaVu Sans", maxSize: 40, uppercase: false)
        #expect(try #require(MemeText.measure(mixed)).fit.lines == 2)
        let mixedBands = try inkBands(mixed, canvasWidth: 300, canvasHeight: 400)
        #expect(mixedBands.count == 2, "\(mixedBands) \(String(describing: MemeText.measure(mixed)))")
    }

    /// The runs of rows with ink when `text` is the top caption of a transparent canvas.
    func inkBands(_ text: TextContent, canvasWidth: Int, canvasHeight: Int) throws -> [(Int, Int)] {
        let box = TextContent.captionBox(.top, width: canvasWidth, height: canvasHeight)
        var creation = creation([], transparent: true)
        creation.canvas = Canvas(width: canvasWidth, height: canvasHeight, background: Canvas.transparent)
        creation.layers = [Layer(id: "L1", content: .text(text), transform: Transform(x: box.x + box.w / 2, y: box.y + box.h / 2))]
        return inkedRowRuns(try compositor.compose(creation, images: [:]), rows: 0..<canvasHeight / 2, columns: 0..<canvasWidth)
    }

    @Test func aWordTooLongForTheBoxBreaksInsideRatherThanShrinkingPastLegible() throws {
        let word = String(repeating: "supercalifragilistic", count: 3).prefix(45)
        let text = TextContent(role: .free, text: String(word), width: 120, height: 100, style: .meme(canvasHeight: 300))
        let fit = try #require(MemeText.measure(text, legible: MemeText.legibleSize(canvasHeight: 300))).fit
        #expect(fit.size >= 10, "not the 4 px it shrank to")
        #expect(fit.lines > 1)
        #expect(fit.width <= 120)
        #expect(MemeText.legibleSize(canvasHeight: 300) == 10 && MemeText.legibleSize(canvasHeight: 4000) == 100)
    }

    @Test func mixedCaseInTheDefaultFaceIsSetInTheMixedCaseFace() throws {
        // Bebas Neue has no lower case: with caps off, the words are set in Lato's heaviest weight.
        var asTyped = TextStyle.meme(canvasHeight: 300)
        asTyped.uppercase = false
        #expect(asTyped.face == TextStyle.mixedCaseFont)
        var lato = asTyped
        lato.font = TextStyle.mixedCaseFont
        let inDefault = try compose([caption("L1", .top, "Mixed case words", style: asTyped)], transparent: true)
        let inLato = try compose([caption("L1", .top, "Mixed case words", style: lato)], transparent: true)
        let inCaps = try compose([caption("L1", .top, "Mixed case words")], transparent: true)
        #expect(PixelDifference(inDefault, inLato).mean == 0)
        #expect(PixelDifference(inDefault, inCaps).mean > 1, "lower case looks different from capitals")
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
