import Foundation
import MemeryCore
import MemeryTestSupport
import Testing
@testable import MemeryRender

/// Debian's frei0r-plugins (scripts/bootstrap installs them) as frei0r.<name> filters.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/frei0r-1/invert0r.so"), "frei0r-plugins is not installed"))
struct Frei0rTests {
    let host = FilterHost(builtinDirectory: FilterHost.executableDirectory())

    @Test func everyFilterTypePluginIsListedWithItsParametersByStringId() throws {
        let frei0r = host.filters.filter { $0.origin == .frei0r }
        #expect(frei0r.count > 50, "Debian ships about 90 frei0r filters")
        #expect(frei0r.allSatisfy { $0.id.hasPrefix("frei0r.") && $0.id.count > 7 })
        let blur = try #require(host.filter("frei0r.iir-blur"))
        #expect(blur.params.map(\.id) == ["amount", "type", "edge"])
        #expect(blur.param("amount")?.kind == .number && blur.param("edge")?.kind == .boolean)
        #expect(host.filter("frei0r.addition") == nil, "mixers are not filters")
    }

    @Test func frei0rInvertMatchesTheBuiltInInvert() throws {
        let image = try decode(TestData.example("chelsea.png")).0
        let theirs = try host.apply("frei0r.invert0r", params: [:], to: image)
        let ours = try host.apply("org.memery.invert", params: [:], to: image)
        #expect(PixelDifference(theirs, ours).mean < 0.5, "odd sizes are padded to multiples of 8 and cropped back")
        #expect(theirs.width == 451 && theirs.height == 300)
    }

    /// frei0r's code is not Memery's: it is read and run in the helper process, never
    /// loaded into this one, whatever the frame's size.
    @Test func frei0rRunsInTheHelperAndIsNeverLoadedHere() throws {
        let image = try decode(TestData.example("chelsea.png")).0
        _ = try host.apply("frei0r.iir-blur", params: [:], to: image)
        #expect(host.filter("frei0r.iir-blur")?.isolated == true)
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        #expect(!maps.contains("/frei0r-1/"), "a frei0r library is mapped into the test process")
    }

    /// Past frei0r's 2048-pixel bound too.
    @Test func framesPastTwoThousandPixelsRun() throws {
        let wide = try Raster(width: 2100, height: 9)
        wide.withMutablePixels { p, stride in
            for y in 0..<9 { for x in 0..<2100 { UnsafeMutableRawPointer(p + y * stride + x * 4).storeBytes(of: UInt32(0xff00_0000 | x * 97 & 0xffffff), as: UInt32.self) } }
        }
        let theirs = try host.apply("frei0r.invert0r", params: [:], to: wide)
        let ours = try host.apply("org.memery.invert", params: [:], to: wide)
        #expect(PixelDifference(theirs, ours).mean < 0.5)
    }

    @Test func frei0rParametersAreCheckedToo() throws {
        #expect(throws: FilterError.outOfRange(filter: "frei0r.iir-blur", param: "amount", value: 2, min: 0, max: 1)) {
            try host.parse(["amount=2"], for: "frei0r.iir-blur")
        }
        let image = try decode(TestData.example("chelsea.png")).0
        let blurred = try host.apply("frei0r.iir-blur", params: try host.parse(["amount=0.6"], for: "frei0r.iir-blur"), to: image)
        #expect(PixelDifference(blurred, image).mean > 1)
    }
}

extension Frei0rTests {
    /// Distinct colours (5 bits a channel): a photo has thousands, a flattened one a handful.
    static func colours(_ raster: Raster) -> Int {
        var seen = Set<UInt32>()
        for y in Swift.stride(from: 0, to: raster.height, by: 2) {
            for x in Swift.stride(from: 0, to: raster.width, by: 2) {
                let p = raster.pixel(x: x, y: y)
                seen.insert(UInt32(p.r >> 3) << 10 | UInt32(p.g >> 3) << 5 | UInt32(p.b >> 3))
            }
        }
        return seen.count
    }

    /// frei0r keeps defaults in an instance, and some depend on its frame size: read from an
    /// 8-pixel frame, pixeliz0r's block was the whole frame and a photo became four blocks.
    @Test func pixeliz0rsDefaultPixelisesWithoutFlattening() throws {
        let image = try decode(TestData.example("chelsea.png")).0
        let out = try host.apply("frei0r.pixeliz0r", params: [:], to: image)
        #expect(PixelDifference(out, image).mean > 1, "it does something")
        #expect(Self.colours(out) > Self.colours(image) / 2, "blocks of a few pixels keep the picture: \(Self.colours(out)) colours")
    }

    /// Some frei0r filters write into their output frame rather than over it (colorhalftone
    /// ANDs its dots in; cartoon and medians leave borders): it starts as the input, so a
    /// halftone is a halftone, not a black frame.
    @Test func aFilterThatDrawsIntoItsOutputStartsFromThePicture() throws {
        let image = try decode(TestData.example("chelsea.png")).0
        let out = try host.apply("frei0r.colorhalftone", params: [:], to: image)
        #expect(Self.colours(out) > 200, "\(Self.colours(out)) colours: a black frame has one")
        #expect(PixelDifference(out, image).mean > 10, "and it is a halftone, not the photo")
    }

    /// Every frei0r filter runs at its defaults on a photo, in the helper, without failing.
    @Test func everyFrei0rFilterRunsAtItsDefaults() throws {
        let image = try decode(TestData.example("chelsea.png")).0
        var failures = [String]()
        for filter in host.filters where filter.origin == .frei0r {
            do { _ = try host.apply(filter.id, params: [:], to: image) } catch { failures.append("\(filter.id): \(error)") }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}

