import CPangoCairo
import Foundation
import MemeryCore
import Testing
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
