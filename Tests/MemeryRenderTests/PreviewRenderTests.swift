import Foundation
import MemeryCore
import MemeryTestSupport
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// Previews composed at their own width, from pictures decoded once and scaled once, look
/// like the full render scaled down (what they stand for), and cost no decode after the first.
@Suite struct PreviewRenderTests {
    /// examples/chelsea.png at four times its size (1804x1200), as PNG: a photo big enough to scale.
    let photoData: Data
    let photo: BaseImage
    let sticker = BaseImage(blob: "sticker", width: 451, height: 300, format: "png")
    let stickerData: Data

    init() throws {
        let (cat, _) = try decode(Paths.example("chelsea.png"))
        let big = try cat.scaled(toWidth: 1804)
        photoData = try ImageEncoder.encode(big, as: .png)
        photo = BaseImage(blob: "photo", width: 1804, height: 1200, format: "png")
        stickerData = try Data(contentsOf: Paths.example("chelsea.png"))
    }

    func creation(_ commands: [CreationCommand]) throws -> Creation {
        var c = Creation(id: UUID())
        let all: [CreationCommand] = [.create(name: "p"), .importBaseImage(photo)] + commands
        for command in all { c = try c.decide(command).reduce(c) { $0.evolve($1) } }
        return c
    }

    /// The blobs, counting how often each is read.
    final class Blobs {
        var reads = 0
        let data: [String: Data]
        init(_ data: [String: Data]) { self.data = data }
        func read(_ hash: String) throws -> Data { reads += 1; return data[hash]! }
    }

    var everything: [CreationCommand] {
        get throws {
            [
                .setCaptions(top: "PREVIEWS ARE DRAWN", bottom: "AT THEIR OWN SIZE"),
                .addImage(sticker, at: Point(x: 1200, y: 700), scale: 0.8, rotation: 20, opacity: 1, flip: nil),
                .addShape(.ellipse, box: Box(x: 100, y: 500, w: 500, h: 300), fill: try Color(hex: "#0000ff"), alpha: 0.5,
                          stroke: .black, strokeWidth: 12),
                .draw(points: [Point(x: 200, y: 200), Point(x: 900, y: 400), Point(x: 1500, y: 250)], width: 30,
                      color: try Color(hex: "#ff0000"), erase: false, layer: nil),
            ]
        }
    }

    @Test func aPreviewLooksLikeTheFullPictureScaledDown() throws {
        let c = try creation(try everything)
        let blobs = Blobs(["photo": photoData, "sticker": stickerData])
        let compositor = Compositor(decoder: ImageDecoder(), cache: DecodedImageCache(budget: 256 << 20))
        let full = try Compositor(decoder: ImageDecoder()).render(c, blob: blobs.read).scaled(toWidth: 451)
        let preview = try compositor.render(c, width: 451, blob: blobs.read)
        #expect(preview.width == 451 && preview.height == 300)
        let difference = PixelDifference(preview, full)
        if let keep = ProcessInfo.processInfo.environment["MEMERY_KEEP_PREVIEW"] {
            try ImageEncoder.encode(preview, as: .png).write(to: URL(fileURLWithPath: keep + "-preview.png"))
            try ImageEncoder.encode(full, as: .png).write(to: URL(fileURLWithPath: keep + "-full.png"))
        }
        // Text and strokes set at preview size are a little sharper than scaled-down ones.
        #expect(difference.mean < 2.5 && difference.badShare < 0.03, "mean \(difference.mean), bad \(difference.badShare)")
        #expect(preview.isOpaque, "the scaled photo's edge pixels stay opaque")
        let sticker = preview.pixel(x: 300, y: 175), fullSticker = full.pixel(x: 300, y: 175)
        #expect(abs(Int(sticker.r) - Int(fullSticker.r)) < 30 && abs(Int(sticker.g) - Int(fullSticker.g)) < 30)
    }

    @Test func theNextPreviewDecodesAndScalesNothing() throws {
        let blobs = Blobs(["photo": photoData, "sticker": stickerData])
        let cache = DecodedImageCache(budget: 256 << 20)
        let compositor = Compositor(decoder: ImageDecoder(), cache: cache)
        var c = try creation(try everything)
        _ = try compositor.render(c, width: 451, blob: blobs.read)
        let first = cache.statistics
        #expect(blobs.reads == 2 && first.misses == 4, "two pictures decoded, each scaled once: \(first)")
        c = try c.decide(.setCaptions(top: "AN EDIT LATER", bottom: nil)).reduce(c) { $0.evolve($1) }
        let next = try compositor.render(c, width: 451, blob: blobs.read)
        #expect(blobs.reads == 2 && cache.statistics.misses == first.misses && cache.statistics.hits == first.hits + 4)
        #expect(first.textMisses == 2 && cache.statistics.textMisses == 3 && cache.statistics.textHits == 1,
                "the edited top caption was set again, the bottom one was not: \(cache.statistics)")
        #expect(next.width == 451)
        let plain = Compositor(decoder: ImageDecoder())
        _ = try plain.render(c, width: 451, blob: blobs.read)
        _ = try plain.render(c, width: 451, blob: blobs.read)
        #expect(blobs.reads == 6, "a one-shot command's compositor keeps nothing")
    }

    @Test func filtersRunAtThePreviewsSizeAndLookLikeTheExportScaledDown() throws {
        let host = FilterHost.shared
        let blobs = Blobs(["photo": photoData, "sticker": stickerData])
        let cache = DecodedImageCache(budget: 256 << 20)
        let compositor = Compositor(decoder: ImageDecoder(), filters: host, cache: cache)
        let gray = CreationCommand.applyFilter(filter: "org.memery.grayscale", target: .base, paramVersion: 1, params: [:])
        let onBase = try creation([gray, .setCaptions(top: "GRAY", bottom: nil)])
        let preview = try compositor.render(onBase, width: 451, blob: blobs.read)
        let reference = try Compositor(decoder: ImageDecoder(), filters: host).render(onBase, blob: blobs.read).scaled(toWidth: 451)
        #expect(PixelDifference(preview, reference).mean < 2.5)
        let filtered = cache.statistics.misses
        _ = try compositor.render(onBase, width: 451, blob: blobs.read)
        #expect(cache.statistics.misses == filtered, "the filtered base and its scaled copy were kept")
        let blur = CreationCommand.applyFilter(filter: "org.memery.gaussian-blur", target: .canvas, paramVersion: 1,
                                               params: ["radius": .number(8)])
        let onCanvas = try creation([.setCaptions(top: "BLURRED", bottom: nil), blur])
        let blurred = try compositor.render(onCanvas, width: 451, blob: blobs.read)
        let scaled = try Compositor(decoder: ImageDecoder(), filters: host).render(onCanvas, blob: blobs.read).scaled(toWidth: 451)
        // The 8 px radius is 2 px in the quarter-size preview: it blurs as much of the picture.
        let blurDifference = PixelDifference(blurred, scaled)
        #expect(blurDifference.mean < 2 && blurDifference.badShare < 0.01, "mean \(blurDifference.mean), bad \(blurDifference.badShare)")
        let unscaled = try Compositor(decoder: ImageDecoder(), filters: host)
            .render(try creation([.setCaptions(top: "BLURRED", bottom: nil), .applyFilter(filter: "org.memery.gaussian-blur", target: .canvas,
                                                                                         paramVersion: 1, params: ["radius": .number(2)])]),
                    blob: blobs.read).scaled(toWidth: 451)
        #expect(PixelDifference(blurred, unscaled).mean > blurDifference.mean, "the radius was scaled: a 2 px blur of the full picture is too little")
        // A layer's filter and a pixelation too: blocks of 40 px are blocks of 10 px in the preview.
        let blocks = CreationCommand.applyFilter(filter: "org.memery.pixelate", target: .base, paramVersion: 1, params: ["size": .number(40)])
        let pixelated = try creation([blocks])
        let small = try compositor.render(pixelated, width: 451, blob: blobs.read)
        let big = try Compositor(decoder: ImageDecoder(), filters: host).render(pixelated, blob: blobs.read).scaled(toWidth: 451)
        #expect(PixelDifference(small, big).mean < 3, "mean \(PixelDifference(small, big).mean)")
    }

    @Test func theFilterHostScalesOnlyWhatIsInPixels() throws {
        let host = FilterHost.shared
        #expect(host.parameters(["radius": .number(8)], for: "org.memery.gaussian-blur", atScale: 0.25) == ["radius": .number(2)])
        #expect(host.parameters([:], for: "org.memery.gaussian-blur", atScale: 0.5) == ["radius": .number(2.5)], "a default in pixels too")
        #expect(host.parameters(["radius": .number(2)], for: "org.memery.sharpen", atScale: 0.1)["radius"] == .number(0.5), "kept within its range")
        #expect(host.parameters(["amount": .number(0.5)], for: "org.memery.sepia", atScale: 0.1) == ["amount": .number(0.5)])
        #expect(host.parameters(["radius": .number(8)], for: "org.memery.gaussian-blur", atScale: 1) == ["radius": .number(8)])
    }

    /// Whether a picture is opaque decides JPEG or PNG for a preview: one pixel short of
    /// opaque anywhere, the first, the last or one in between, on any width, says no.
    @Test func oneTranslucentPixelAnywhereMakesAPictureNotOpaque() throws {
        for (width, height) in [(1, 1), (7, 3), (600, 400), (33, 2)] {
            let raster = try Raster(width: width, height: height)
            let pixels = [(0, 0), (width - 1, height - 1), (width / 2, height / 2)]
            func setAll(_ alpha: UInt32) {
                raster.withMutablePixels { source, stride in
                    for y in 0..<height {
                        let row = UnsafeMutableRawPointer(source + y * stride).assumingMemoryBound(to: UInt32.self)
                        for x in 0..<width { row[x] = alpha << 24 | 0x00336699 & (alpha == 255 ? 0xffffff : 0) }
                    }
                }
            }
            #expect(!raster.isOpaque, "a new raster is transparent (\(width)x\(height))")
            setAll(255)
            #expect(raster.isOpaque, "\(width)x\(height)")
            for (x, y) in pixels {
                setAll(255)
                raster.withMutablePixels { source, stride in
                    UnsafeMutableRawPointer(source + y * stride).assumingMemoryBound(to: UInt32.self)[x] = 254 << 24
                }
                #expect(!raster.isOpaque, "alpha 254 at \(x),\(y) of \(width)x\(height)")
            }
        }
    }

    @Test func aScaledOpaquePictureStaysOpaqueToItsEdges() throws {
        let (cat, _) = try decode(Paths.example("chelsea.png"))
        for width in [450, 301, 97, 13] {
            let scaled = try cat.scaled(toWidth: width)
            #expect(scaled.isOpaque, "at \(width) px")
        }
    }
}

extension PreviewRenderTests {
    /// The same filter with the same settings is the same picture, whatever id it was applied
    /// under: a filter preview mints a new id each time and must still find the kept picture.
    @Test func aFilteredBaseIsKeptByWhatTheFiltersDo() throws {
        let gray = AppliedFilter(id: "F1.aaaa", filter: "org.memery.grayscale", target: .base, paramVersion: 1, params: [:])
        var again = gray
        again.id = "F1.bbbb"
        var stronger = AppliedFilter(id: "F1.aaaa", filter: "org.memery.gaussian-blur", target: .base, paramVersion: 1, params: ["radius": .number(5)])
        #expect(try Compositor.signature(of: [gray]) == Compositor.signature(of: [again]))
        let blur = try Compositor.signature(of: [stronger])
        stronger.params["radius"] = .number(6)
        #expect(try blur != Compositor.signature(of: [stronger]))
        #expect(try Compositor.signature(of: [gray, again]) != Compositor.signature(of: [gray]))
    }
}
