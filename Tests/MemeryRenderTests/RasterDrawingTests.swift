import CPangoCairo
import Foundation
import MemeryLocks
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// A raster owns its pixels and knows nothing of Cairo (MemeryPixels, which memery-helper
/// links alone); MemeryRender makes a Cairo surface over the same pixels when it first draws.
/// What one side writes, the other must read: Cairo's drawing lands before the pixels are
/// read, and pixels written directly are what Cairo paints from next.
@Suite struct RasterDrawingTests {
    @Test func cairosDrawingIsSeenInThePixelsAndPixelsWrittenDirectlyAreWhatCairoPaints() throws {
        let raster = try Raster(width: 8, height: 6)
        #expect(raster.stride == 32 && raster.pixel(x: 3, y: 3) == (0, 0, 0, 0), "a new raster is transparent")
        raster.draw { cr in
            cairo_set_source_rgb(cr, 1, 0, 0)
            cairo_paint(cr)
        }
        #expect(raster.pixel(x: 7, y: 5) == (255, 0, 0, 255))
        raster.withMutablePixels { pixels, stride in
            for y in 0..<6 { for x in 0..<8 { (pixels + y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee = 0xff00_00ff } } }
        }
        #expect(raster.pixel(x: 0, y: 0) == (0, 0, 255, 255))
        let copy = try Raster(width: 8, height: 6)
        copy.draw { cr in
            cairo_set_source_surface(cr, raster.surface, 0, 0)
            cairo_paint(cr)
        }
        #expect(copy.pixel(x: 4, y: 2) == (0, 0, 255, 255), "Cairo painted from the pixels as written, not from what it drew")
        #expect(try ImageEncoder.encode(copy, as: .png) == ImageEncoder.encode(raster, as: .png))
    }

    @Test func aSurfaceIsMadeOnceAndGoesBeforeThePixelsItDrawsOn() throws {
        let released = Locked(0)
        var raster: Raster? = try Raster(wrapping: try #require(calloc(4 * 3, 4)), width: 4, height: 3, stride: 16) {
            released.withLock { $0 += 1 }
        }
        let first = raster!.surface
        #expect(raster!.surface == first, "one surface per raster")
        #expect(Int(cairo_image_surface_get_stride(first)) == 16 && cairo_surface_status(first) == CAIRO_STATUS_SUCCESS)
        raster!.draw { cr in cairo_set_source_rgb(cr, 0, 1, 0); cairo_paint(cr) }
        #expect(raster!.pixel(x: 3, y: 2) == (0, 255, 0, 255))
        raster = nil
        #expect(released.withLock { $0 } == 1)
    }

    /// A pattern made from a raster's surface outlives the raster: the pixels must stay
    /// until Cairo lets the surface go. At 64 MB the pixels are a mapping of their own, which
    /// freeing unmaps, so reading them after would crash the test, not pass it by chance.
    @Test func aPatternThatOutlivesItsRasterStillPaintsItsPixels() throws {
        var source: Raster? = try Raster(width: 4096, height: 4096)
        source!.draw { cr in
            cairo_set_source_rgb(cr, 0, 0, 1)
            cairo_rectangle(cr, 0, 0, 4, 4)
            cairo_fill(cr)
        }
        let pattern = try #require(cairo_pattern_create_for_surface(source!.surface))
        defer { cairo_pattern_destroy(pattern) }
        source = nil
        let target = try Raster(width: 4, height: 4)
        target.draw { cr in
            cairo_set_source(cr, pattern)
            cairo_paint(cr)
        }
        #expect(target.pixel(x: 3, y: 3) == (0, 0, 255, 255))
    }

    @Test func sidesCairoCannotDrawAreRefusedBeforeAnyMemoryIsTaken() {
        for (width, height) in [(0, 5), (5, 0), (32768, 1), (1, 32768), (-1, 4)] {
            #expect(throws: RenderError.outOfMemory(width: width, height: height)) { try Raster(width: width, height: height) }
        }
    }
}
