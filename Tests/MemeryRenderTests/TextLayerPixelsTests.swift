import CPangoCairo
import Foundation
import MemeryCore
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// Text layers drawn through pixels of their own (`TextLayerPixels`): the same picture as
/// drawn straight on, the same bytes whether kept or not, and kept only within reason.
@Suite struct TextLayerPixelsTests {
    let base: Raster

    init() throws {
        base = try decode(Paths.example("chelsea.png")).0
    }

    func caption(_ id: String, _ text: String, _ transform: Transform, opacity: Double = 1) -> Layer {
        let box = TextContent.captionBox(.top, width: 451, height: 300)
        return Layer(id: id, content: .text(TextContent(role: .top, text: text, width: box.w, height: box.h, style: .meme(canvasHeight: 300))),
                     transform: transform, opacity: opacity)
    }

    func creation(_ layers: [Layer]) -> Creation {
        var creation = Creation(id: UUID())
        creation.canvas = Canvas(width: 451, height: 300, background: Canvas.transparent)
        creation.baseImage = BaseImage(blob: "base", width: 451, height: 300, format: "png")
        creation.basePlacement = Transform(x: 225.5, y: 150)
        creation.layers = layers
        return creation
    }

    /// The largest difference in any channel of any pixel.
    func largestDifference(_ a: Raster, _ b: Raster) -> Int {
        var largest = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                largest = max(largest, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
            }
        }
        return largest
    }

    func bytes(_ raster: Raster) -> Data {
        raster.withMutablePixels { pixels, stride in Data(bytes: pixels, count: stride * raster.height) }
    }

    @Test(arguments: [
        Transform(x: 225.5, y: 40),
        Transform(x: 200.37, y: 151.81),  // between pixels
        Transform(x: 230, y: 150, scale: 0.7, rotation: 30, flipH: true),
        Transform(x: 225.5, y: 290, scale: 1.6, rotation: -12, flipV: true),  // partly off the picture
    ])
    func drawnThroughItsOwnPixelsAsIfStraightOn(_ transform: Transform) throws {
        let layer = caption("L1", "pixels of its own", transform)
        guard case .text(let text) = layer.content else { return }
        let drawn = try Compositor(decoder: ImageDecoder()).compose(creation([layer]), images: ["base": base])
        // The reference: the photo, and the text set and stroked straight onto it.
        let straight = try Compositor(decoder: ImageDecoder()).compose(creation([]), images: ["base": base])
        straight.draw { cr in
            cairo_translate(cr, transform.x, transform.y)
            cairo_rotate(cr, transform.rotation * .pi / 180)
            cairo_scale(cr, transform.scale * (transform.flipH ? -1 : 1), transform.scale * (transform.flipV ? -1 : 1))
            cairo_translate(cr, -text.width / 2, -text.height / 2)
            MemeText.draw(text, on: cr, legible: MemeText.legibleSize(canvasHeight: 300) / transform.scale)
        }
        #expect(largestDifference(drawn, straight) <= 2, "only the last bit of a channel's rounding may differ")
        #expect(PixelDifference(drawn, try Compositor(decoder: ImageDecoder()).compose(creation([]), images: ["base": base])).mean > 1,
                "the text was drawn at all")
    }

    /// A layer on a 451x300 canvas of one colour, drawn at `width` with `opacity`.
    struct Case: Sendable, CustomTestStringConvertible {
        var transform: Transform
        var opacity: Double
        var width: Int
        var testDescription: String { "\(transform) at opacity \(opacity), \(width) px wide" }
    }

    @Test(arguments: [
        Case(transform: Transform(x: 225.5, y: 40), opacity: 1, width: 300),  // a preview, scaled down
        Case(transform: Transform(x: 225.5, y: 285, scale: 1.3, rotation: 8), opacity: 0.5, width: 451),  // faded, partly off
        Case(transform: Transform(x: 20.3, y: 150.6, rotation: 90, flipV: true), opacity: 0.7, width: 200),
    ])
    func scaledAndFadedAsIfStraightOn(_ given: Case) throws {
        let layer = caption("L1", "pixels of its own", given.transform, opacity: given.opacity)
        guard case .text(let text) = layer.content else { return }
        var meme = Creation(id: UUID())
        let background = try Color(hex: "#336699")
        meme.canvas = Canvas(width: 451, height: 300, background: background)
        meme.layers = [layer]
        let cache = DecodedImageCache(budget: 64 << 20)
        let drawn = try Compositor(decoder: ImageDecoder(), cache: cache).render(meme, width: given.width) { _ in Data() }
        #expect(cache.statistics.textMisses == 1, "\(cache.statistics)")
        let size = Raster.size(of: (451, 300), scaledToWidth: given.width)
        let straight = try Raster(width: size.width, height: size.height)
        straight.draw { cr in
            cairo_scale(cr, Double(size.width) / 451, Double(size.height) / 300)
            MemeText.setSource(cr, background)
            cairo_paint(cr)
            let t = given.transform
            cairo_translate(cr, t.x, t.y)
            cairo_rotate(cr, t.rotation * .pi / 180)
            cairo_scale(cr, t.scale * (t.flipH ? -1 : 1), t.scale * (t.flipV ? -1 : 1))
            cairo_translate(cr, -text.width / 2, -text.height / 2)
            cairo_push_group(cr)
            MemeText.draw(text, on: cr, legible: MemeText.legibleSize(canvasHeight: 300) / t.scale)
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, given.opacity)
        }
        #expect(drawn.width == straight.width && drawn.height == straight.height)
        #expect(largestDifference(drawn, straight) <= 2, "only the last bit of a channel's rounding may differ")
    }

    @Test func whateverChangesTheLayersLookIsSetAgain() throws {
        let cache = DecodedImageCache(budget: 64 << 20)
        let compositor = Compositor(decoder: ImageDecoder(), cache: cache)
        var meme = Creation(id: UUID())
        meme.canvas = Canvas(width: 451, height: 300, background: try Color(hex: "#ffffff"))
        meme.layers = [caption("L1", "the same words", Transform(x: 225.5, y: 40))]
        let first = try compositor.render(meme, width: 400) { _ in Data() }
        guard case .text(var text) = meme.layers[0].content else { return }
        text.style.fill = try Color(hex: "#ff0000")
        meme.layers[0].content = .text(text)
        let red = try compositor.render(meme, width: 400) { _ in Data() }
        #expect(cache.statistics.textMisses == 2 && cache.statistics.textHits == 0, "another fill is another picture: \(cache.statistics)")
        #expect(bytes(first) != bytes(red))
        _ = try compositor.render(meme, width: 300) { _ in Data() }
        #expect(cache.statistics.textMisses == 3 && cache.statistics.textHits == 0, "another width too: \(cache.statistics)")
        _ = try compositor.render(meme, width: 400) { _ in Data() }
        #expect(cache.statistics.textHits == 1)
    }

    @Test func aLayerPlacedFarOffThePictureDrawsNothing() throws {
        let cache = DecodedImageCache(budget: 64 << 20)
        var meme = Creation(id: UUID())
        meme.canvas = Canvas(width: 451, height: 300, background: try Color(hex: "#ffffff"))
        meme.layers = [caption("L1", "far right", Transform(x: 1e300, y: 40)), caption("L2", "far left", Transform(x: -1e300, y: -1e300)),
                       caption("L3", "huge", Transform(x: 225, y: 150, scale: 1e300))]
        let compositor = Compositor(decoder: ImageDecoder(), cache: cache)
        var empty = Creation(id: UUID())
        empty.canvas = meme.canvas
        let blank = try Compositor(decoder: ImageDecoder()).render(empty) { _ in Data() }
        #expect(bytes(try compositor.render(meme) { _ in Data() }) == bytes(blank))
        #expect(bytes(try compositor.render(meme, width: 200) { _ in Data() }).count > 0)
        // The export's bands ask which rows a layer touches: none for one far above.
        #expect(compositor.rows(touchedBy: meme.layers[1], canvasWidth: 451, canvasHeight: 300).isEmpty)
        #expect(compositor.rows(touchedBy: meme.layers[0], canvasWidth: 451, canvasHeight: 300).count < 60, "far right, but on these rows")
    }

    @Test func textHoldsAtMostAnEighthOfTheBudget() throws {
        let cache = DecodedImageCache(budget: 8 << 20)
        let compositor = Compositor(decoder: ImageDecoder(), cache: cache)
        var meme = Creation(id: UUID())
        meme.canvas = Canvas(width: 451, height: 300, background: try Color(hex: "#ffffff"))
        for step in 0..<40 {
            // A caption dragged across the picture: each place is new pixels.
            meme.layers = [caption("L1", "dragged along", Transform(x: 100 + Double(step) * 7.5, y: 40))]
            _ = try compositor.render(meme) { _ in Data() }
            #expect(cache.statistics.textBytes <= 1 << 20, "step \(step): \(cache.statistics)")
        }
        #expect(cache.statistics.textMisses == 40 && cache.statistics.textBytes > 0)
        cache.setBudget(4 << 20)
        #expect(cache.statistics.textBytes <= 512 << 10, "a smaller budget, a smaller share: \(cache.statistics)")
    }

    @Test func aWarmCacheDrawsTheSameBytesAsNone() throws {
        let layers = [caption("L1", "kept", Transform(x: 225.5, y: 40)),
                      caption("L2", "faded and turned", Transform(x: 210.25, y: 200.5, scale: 0.8, rotation: 15), opacity: 0.6)]
        let cache = DecodedImageCache(budget: 64 << 20)
        let warm = Compositor(decoder: ImageDecoder(), cache: cache)
        let blob = { (_: String) throws -> Data in try Data(contentsOf: Paths.example("chelsea.png")) }
        let cold = try warm.render(creation(layers), blob: blob)
        #expect(cache.statistics.textMisses == 2 && cache.statistics.textHits == 0, "\(cache.statistics)")
        let again = try warm.render(creation(layers), blob: blob)
        #expect(cache.statistics.textMisses == 2 && cache.statistics.textHits == 2, "both captions' pixels were kept: \(cache.statistics)")
        let none = try Compositor(decoder: ImageDecoder()).render(creation(layers), blob: blob)
        #expect(bytes(cold) == bytes(again) && bytes(again) == bytes(none))
        // Moved by a pixel and a half: set again, drawn where it now is.
        var moved = layers
        moved[0].transform.x += 1.5
        let afterMove = try warm.render(creation(moved), blob: blob)
        #expect(cache.statistics.textMisses == 3 && cache.statistics.textHits == 3, "\(cache.statistics)")
        #expect(bytes(afterMove) == bytes(try Compositor(decoder: ImageDecoder()).render(creation(moved), blob: blob)))
        #expect(bytes(afterMove) != bytes(again))
    }

    @Test func textPastASixteenthOfTheBudgetIsNotKept() throws {
        // A caption across the 451 px picture is far more than 1/16 of 200 KB (12.5 KB).
        let cache = DecodedImageCache(budget: 200_000)
        let compositor = Compositor(decoder: ImageDecoder(), cache: cache)
        let blob = { (_: String) throws -> Data in try Data(contentsOf: Paths.example("chelsea.png")) }
        let meme = creation([caption("L1", "too big to keep", Transform(x: 225.5, y: 40))])
        _ = try compositor.render(meme, blob: blob)
        _ = try compositor.render(meme, blob: blob)
        #expect(cache.statistics.textMisses == 2 && cache.statistics.textHits == 0, "\(cache.statistics)")
    }
}
