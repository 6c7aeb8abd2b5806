import Foundation
import MemeryCore
import MemeryTestSupport
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// Third-party and frei0r filters in warm helpers (issue 34): one helper runs one filter after
/// another, and one whose filter failed is let go.
@Suite struct WarmPluginHelpersTests {
    static func threePixels() throws -> Raster {
        let image = try Raster(width: 3, height: 1)
        image.withMutablePixels { p, _ in
            let words = UnsafeMutableRawPointer(p).assumingMemoryBound(to: UInt32.self)
            words[0] = 0xff10_2030; words[1] = 0xff80_8080; words[2] = 0xffF0_E0D0
        }
        return image
    }

    @Test func aWarmHelperRunsOneFilterAfterAnother() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let host = FilterHost(builtinDirectory: nil)
        host.loadIsolated(try PluginLoadingTests().build("posterize.c", in: dir), origin: .user)
        let pool = WarmHelpers(.plugins, keep: 1)
        let params = try host.parse(["levels=2"], for: "org.example.posterize")
        for _ in 0..<3 {
            let out = try host.apply("org.example.posterize", params: params, to: try Self.threePixels(), warm: pool)
            #expect(out.pixel(x: 0, y: 0) == (0, 0, 0, 255) && out.pixel(x: 2, y: 0) == (255, 255, 255, 255))
        }
        #expect(pool.served.count == 3 && Set(pool.served).count == 1, "\(pool.served)")
    }

    @Test func aHelperWhoseFilterFailedIsLetGo() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let host = FilterHost(builtinDirectory: nil)
        host.loadIsolated(try PluginLoadingTests().build("broken.c", defines: ["BROKEN=5"], in: dir), origin: .user)
        let pool = WarmHelpers(.plugins, keep: 1)
        for _ in 0..<2 {
            #expect(throws: FilterError.failed(filter: "org.example.failing", status: 5, message: "the moon is in the wrong phase")) {
                try host.apply("org.example.failing", params: [:], to: try Raster(width: 2, height: 2), warm: pool)
            }
        }
        let served = pool.served
        try #require(served.count == 2, "both runs went to warm helpers: \(served)")
        #expect(served[1] != served[0], "the helper whose filter failed was let go: \(served)")
    }

    /// One plugin's code never runs in a helper that another plugin's pictures go to.
    @Test func eachPluginLibraryHasHelpersOfItsOwn() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let host = FilterHost(builtinDirectory: nil)
        let plugins = PluginLoadingTests()
        host.loadIsolated(try plugins.build("posterize.c", in: dir), origin: .user)
        host.loadIsolated(try plugins.build("versioned.c", defines: ["VERSION=2"], in: dir), origin: .user)
        try #require(host.filter("org.example.tint") != nil, "\(host.warnings)")
        let pool = WarmHelpers(.plugins, keep: 2)
        let params = try host.parse(["levels=2"], for: "org.example.posterize")
        for _ in 0..<2 {
            _ = try host.apply("org.example.posterize", params: params, to: try Self.threePixels(), warm: pool)
            _ = try host.apply("org.example.tint", params: [:], to: try Self.threePixels(), warm: pool)
        }
        let served = pool.served
        try #require(served.count == 4, "\(served)")
        #expect(served[0] == served[2] && served[1] == served[3], "each library's helper stayed warm: \(served)")
        #expect(served[0] != served[1], "two libraries shared a helper: \(served)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/frei0r-1/invert0r.so"), "frei0r-plugins is not installed"))
    func frei0rRunsInAWarmHelperAsInAHelperOfItsOwn() throws {
        let host = FilterHost(builtinDirectory: nil)
        let image = try decode(TestData.example("chelsea.png")).0
        let pool = WarmHelpers(.plugins, keep: 1)
        let own = try host.apply("frei0r.invert0r", params: [:], to: image)
        for _ in 0..<2 {
            let warm = try host.apply("frei0r.invert0r", params: [:], to: image, warm: pool)
            #expect(warm.width == 451 && PixelDifference(warm, own).mean == 0)
        }
        #expect(pool.served.count == 2 && Set(pool.served).count == 1, "\(pool.served)")
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        #expect(!maps.contains("/frei0r-1/"), "a frei0r library is mapped into the test process")
    }
}
