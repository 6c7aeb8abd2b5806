import Foundation
import MemeryCore
import MemeryTestSupport
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// Debian's frei0r-plugins (scripts/bootstrap installs them) as frei0r.<name> filters.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/frei0r-1/invert0r.so"), "frei0r-plugins is not installed"))
struct Frei0rTests {
    let host = FilterHost(builtinDirectory: InstallLayout.executableDirectory())

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

    /// Every frei0r filter Memery offers shows on a photo, at its defaults, what it does:
    /// it runs in the helper, changes the picture and does not flatten or blank it — but for
    /// those named here, each with the reason. (frei0r's own defaults left 29 filters doing
    /// nothing to a photo and 9 flattening it: Frei0rStills gives them Memery's own.)
    @Test func everyFrei0rFilterShowsWhatItDoesAtItsDefaults() throws {
        let needsWhatThePhotoLacks = [
            "frei0r.alpha0ps": "works on transparency, which a photo has none of",
            "frei0r.premultiply-or-unpremultiply": "works on transparency",
            "frei0r.bluescreen0r": "keys out green, which this photo has none of",
            "frei0r.select0r": "keys out a colour (green), which this photo has none of",
            "frei0r.facebl0r": "blurs faces: this photo is a cat's (see theFaceFiltersFindAFace)",
        ]
        let fewColoursByDesign = ["frei0r.threshold0r", "frei0r.twolay0r", "frei0r.threelay0r", "frei0r.primaries"]
        let image = try decode(TestData.example("chelsea.png")).0
        var failures = [String]()
        let offered = host.filters.filter { $0.origin == .frei0r }
        for filter in offered {
            let out: Raster
            do { out = try host.apply(filter.id, params: [:], to: image) } catch { failures.append("\(filter.id): \(error)"); continue }
            let difference = PixelDifference(out, image).mean, colours = Self.visibleColours(out)
            if difference < 1 && needsWhatThePhotoLacks[filter.id] == nil {
                failures.append("\(filter.id) does nothing at its defaults (mean difference \(difference))")
            }
            if colours < 16 && !fewColoursByDesign.contains(filter.id) {
                failures.append("\(filter.id) flattens the photo at its defaults (\(colours) visible colours)")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(offered.count > 70, "\(offered.count) offered")
    }

    /// Distinct colours (5 bits a channel) of the pixels that are not wholly transparent;
    /// a picture more than nine tenths transparent counts as blank.
    static func visibleColours(_ raster: Raster) -> Int {
        var seen = Set<UInt32>(), clear = 0, all = 0
        for y in Swift.stride(from: 0, to: raster.height, by: 2) {
            for x in Swift.stride(from: 0, to: raster.width, by: 2) {
                let p = raster.pixel(x: x, y: y)
                all += 1
                guard p.a > 0 else { clear += 1; continue }
                seen.insert(UInt32(p.r >> 3) << 15 | UInt32(p.g >> 3) << 10 | UInt32(p.b >> 3) << 5 | UInt32(p.a >> 3))
            }
        }
        return clear * 10 > all * 9 ? 0 : seen.count
    }

    /// The defaults Memery gives are the ones the installed frei0r takes: a parameter
    /// renamed by a newer frei0r-plugins shows up here, not as a filter gone quiet.
    @Test func memerysDefaultsNameParametersTheInstalledFrei0rHas() throws {
        for (id, defaults) in Frei0rStills.defaults {
            let filter = try #require(host.filter(id), "\(id) is not installed")
            for (param, value) in defaults {
                #expect(filter.param(param)?.defaultValue == value, "\(id) \(param)")
            }
        }
    }

    /// facebl0r and facedetect find faces with OpenCV's model, which Debian keeps where
    /// neither looks (scripts/bootstrap installs opencv-data; Memery points them at it).
    @Test(.enabled(if: TestData.sharedAvailable, "../shared/testdata/images is absent: the face filters are not tried"))
    func theFaceFiltersFindAFace() throws {
        try #require(FileManager.default.fileExists(atPath: Frei0rStills.faceModel), "opencv-data is not installed: run scripts/bootstrap")
        let photo = try decode(TestData.photo("astronaut.png")).0
        let face = (x: 200..<320, y: 60..<200), elsewhere = (x: 0..<100, y: 300..<400)
        for id in ["frei0r.facebl0r", "frei0r.opencvfacedetect"] {
            let out = try host.apply(id, params: [:], to: photo)
            func changed(_ area: (x: Range<Int>, y: Range<Int>)) -> Double {
                var total = 0.0
                for y in area.y { for x in area.x {
                    let p = out.pixel(x: x, y: y), q = photo.pixel(x: x, y: y)
                    total += Double(abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))) / 3
                } }
                return total / Double(area.x.count * area.y.count)
            }
            #expect(changed(face) > 8, "\(id) leaves the face as it was: \(changed(face))")
            #expect(changed(elsewhere) < 1, "\(id) changes what is not a face: \(changed(elsewhere))")
        }
    }

    /// frei0r filters that work across a video's frames are not offered: on one picture
    /// they showed nothing, darkened it or blanked it. Asking for one says why.
    @Test func videoOnlyFiltersAreNotOfferedAndSayWhy() throws {
        #expect(host.filter("frei0r.nervous") == nil && host.filter("frei0r.bgsubtract0r") == nil)
        #expect(!host.filters.contains { Frei0rStills.videoOnly[$0.id] != nil })
        let told = host.notInstalled("frei0r.bgsubtract0r").description
        #expect(told.contains("note: frei0r.bgsubtract0r is not offered: it takes the first frame as the background and removes it from the rest, so on one picture it shows nothing of itself"), "\(told)")
    }
}
