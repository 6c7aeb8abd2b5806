import Foundation
import MemeryCore
import MemeryTestSupport
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// The built-in filters on a 160x120 piece of examples/chelsea.png, and the plugin loader's checks.
@Suite struct FilterTests {
    let host = FilterHost.shared
    let photo: Raster

    init() throws {
        let (full, _) = try decode(Paths.example("chelsea.png"))
        var creation = Creation(id: UUID())
        creation.canvas = Canvas(width: 160, height: 120, background: Canvas.transparent)
        creation.baseImage = BaseImage(blob: "base", width: 451, height: 300, format: "png")
        creation.basePlacement = Transform(x: 225.5 - 150, y: 150 - 60)  // the eyes
        photo = try Compositor(decoder: ImageDecoder(), filters: FilterHost(builtinDirectory: nil)).compose(creation, images: ["base": full])
    }

    func apply(_ id: String, _ settings: [String] = [], to raster: Raster? = nil) throws -> Raster {
        try host.apply(id, params: try host.parse(settings, for: id), to: raster ?? photo)
    }

    /// A render nobody waits for any more (the web editor's page closed): a built-in asked
    /// through progress() stops, and the error says why; the same call uncancelled runs.
    @Test func aCancelledRenderStopsABuiltInFilter() throws {
        let cancellation = RenderCancellation()
        cancellation.cancel()
        #expect(throws: FilterError.cancelled(filter: "org.memery.gaussian-blur")) {
            try RenderCancellation.during(cancellation) { try apply("org.memery.gaussian-blur", ["radius=8"]) }
        }
        let waitedFor = try RenderCancellation.during(RenderCancellation()) { try apply("org.memery.gaussian-blur", ["radius=8"]) }
        #expect(PixelDifference(waitedFor, photo).mean > 1)
        #expect(PixelDifference(try apply("org.memery.gaussian-blur", ["radius=8"]), waitedFor).mean == 0, "a cancellation ends with its render")
    }

    @Test func theTenBuiltInsAreInstalledWithTheirParameters() {
        #expect(host.warnings.isEmpty, "\(host.warnings)")
        let builtins = host.filters.filter { $0.origin == .builtin }
        #expect(builtins.map(\.id) == ["org.memery.grayscale", "org.memery.sepia", "org.memery.invert",
                                           "org.memery.brightness-contrast", "org.memery.saturation", "org.memery.gaussian-blur",
                                           "org.memery.sharpen", "org.memery.pixelate", "org.memery.vignette", "org.memery.deep-fry"])
        #expect(builtins.allSatisfy { $0.deterministic && $0.paramVersion == 1 })
        let blur = host.filter("org.memery.gaussian-blur")?.param("radius")
        #expect(blur?.unit == .pixels && blur?.min == 0 && blur?.max == 500 && blur?.defaultValue == .number(5))
    }

    @Test(arguments: [
        ("org.memery.grayscale", [String]()), ("org.memery.sepia", []), ("org.memery.invert", []),
        ("org.memery.brightness-contrast", ["brightness=0.2", "contrast=0.5"]), ("org.memery.saturation", ["saturation=2.5"]),
        ("org.memery.gaussian-blur", ["radius=8"]), ("org.memery.sharpen", ["amount=2"]), ("org.memery.pixelate", ["size=12"]),
        ("org.memery.vignette", ["strength=0.8"]), ("org.memery.deep-fry", []),
    ])
    func eachBuiltInMatchesItsGoldenAndIsDeterministic(_ id: String, _ settings: [String]) throws {
        let once = try apply(id, settings), twice = try apply(id, settings)
        #expect(PixelDifference(once, twice).mean == 0, "deterministic")
        #expect(PixelDifference(once, photo).mean > 1, "it changed the picture")
        try expectMatchesGolden(once, "filter-" + id.replacingOccurrences(of: "org.memery.", with: ""))
    }

    @Test func filtersDoWhatTheirNamesSay() throws {
        let gray = try apply("org.memery.grayscale")
        let p = gray.pixel(x: 80, y: 60)
        #expect(p.r == p.g && p.g == p.b)
        #expect(PixelDifference(try apply("org.memery.invert", to: try apply("org.memery.invert")), photo).mean < 0.5, "invert twice is identity")
        #expect(PixelDifference(try apply("org.memery.gaussian-blur", ["radius=0"]), photo).mean < 0.5, "radius 0 changes nothing")
        #expect(PixelDifference(try apply("org.memery.grayscale", ["amount=0"]), photo).mean < 0.5)
        let blocks = try apply("org.memery.pixelate", ["size=10"])
        #expect(blocks.pixel(x: 10, y: 10) == blocks.pixel(x: 19, y: 19))
        let dark = try apply("org.memery.vignette", ["strength=1"])
        #expect(dark.pixel(x: 0, y: 0).r < photo.pixel(x: 0, y: 0).r / 2, "corners darken")
        #expect(dark.pixel(x: 80, y: 60) == photo.pixel(x: 80, y: 60), "the centre does not")
        // A big blur is still fast: the box passes do not grow with the radius.
        let start = Date()
        _ = try apply("org.memery.gaussian-blur", ["radius=400"])
        #expect(Date().timeIntervalSince(start) < 20)
    }

    /// The blur works in strips of 128 columns, each reading the margin its three box passes
    /// reach: the same picture with 64 columns cut off its left side, strips then falling
    /// elsewhere, blurs to the same pixels once past the new edge's reach.
    @Test func blurStripsLeaveNoSeams() throws {
        let width = 600, height = 90, cut = 64
        let noisy = try Raster(width: width, height: height), cropped = try Raster(width: width - cut, height: height)
        var seed: UInt32 = 7
        noisy.withMutablePixels { pixels, stride in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    seed = seed &* 1_664_525 &+ 1_013_904_223
                    row[x] = 0xff00_0000 | (seed >> 8 & 0xff_ffff)
                }
            }
        }
        noisy.withMutablePixels { source, sourceStride in
            cropped.withMutablePixels { target, targetStride in
                for y in 0..<height { (target + y * targetStride).update(from: source + y * sourceStride + cut * 4, count: (width - cut) * 4) }
            }
        }
        let whole = try apply("org.memery.gaussian-blur", ["radius=20"], to: noisy)
        let part = try apply("org.memery.gaussian-blur", ["radius=20"], to: cropped)
        var worst = 0
        for y in 0..<height {
            for x in (cut + 40)..<width {  // box radius 10, three passes: the new edge reaches 30 columns
                let a = whole.pixel(x: x, y: y), b = part.pixel(x: x - cut, y: y)
                worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
            }
        }
        #expect(worst <= 1, "largest difference \(worst) (float sums may round one level apart)")
    }

    @Test func transparencyIsKeptAndBlurDoesNotDarkenEdges() throws {
        let clear = try Raster(width: 20, height: 20)
        for id in ["org.memery.sepia", "org.memery.invert", "org.memery.deep-fry", "org.memery.gaussian-blur"] {
            #expect(try apply(id, to: clear).pixel(x: 5, y: 5).a == 0, "\(id)")
        }
    }

    /// `swift build --product memery` alone leaves the built-in library out: asking for a
    /// built-in filter then says so and how to build it, instead of "not installed".
    @Test func aMissingBuiltInLibraryIsNamedWithHowToBuildIt() throws {
        let empty = try TemporaryDirectory(); defer { empty.cleanup() }
        let bare = FilterHost(builtinDirectory: empty.url.path)
        #expect(bare.builtinProblem?.contains("no libmemery-builtins.so in \(empty.url.path)") == true)
        #expect {
            try bare.parse([], for: "org.memery.sepia")
        } throws: { error in
            (error as? FilterError)?.description.contains("org.memery.sepia is a built-in filter, but the built-in filters are not installed") == true
                && "\(error)".contains("swift build -c release --product memery-builtins")
        }
        #expect(bare.missing(["org.example.x", "org.memery.vignette"]) == .builtinsMissing(filter: "org.memery.vignette", problem: bare.builtinProblem!))
        #expect(bare.missing(["org.example.x"]) == .missing(["org.example.x"], skipped: bare.warnings), "a third-party filter is only missing")
        #expect(FilterHost.shared.builtinProblem == nil, "the tests' own build has them")
    }

    /// A command that draws no filter (history, undo, list) does not load the plugin: it is
    /// loaded at the first question about filters, not when the host is made.
    @Test func theBuiltInPluginIsLoadedAtTheFirstQuestionAboutFilters() throws {
        let folder = try TemporaryDirectory(); defer { folder.cleanup() }
        let installed = try #require(InstallLayout.builtinDirectory)
        // A copy at a path of its own, so that the plugin the other tests loaded does not count.
        try FileManager.default.copyItem(atPath: installed + "/" + FilterHost.builtinLibraryName,
                                         toPath: folder.url.appendingPathComponent(FilterHost.builtinLibraryName).path)
        let copy = folder.url.appendingPathComponent(FilterHost.builtinLibraryName).path
        // Asks the dynamic loader whether it holds that file, without loading it.
        func loaded() -> Bool {
            guard let handle = dlopen(copy, RTLD_NOW | RTLD_NOLOAD) else { return false }
            dlclose(handle)
            return true
        }
        let host = FilterHost(builtinDirectory: folder.url.path)
        #expect(!loaded(), "made, and asked nothing: not loaded")
        #expect(host.filter("org.memery.sepia")?.origin == .builtin)
        #expect(loaded(), "asked for a filter: loaded")
        #expect(host.builtinProblem == nil && host.warnings.isEmpty, "\(host.warnings)")
    }

    @Test func parametersAreCheckedBeforeAPluginSeesThem() throws {
        #expect(throws: FilterError.unknownParam(filter: "org.memery.sepia", param: "strength", known: ["amount"])) {
            try host.parse(["strength=1"], for: "org.memery.sepia")
        }
        #expect(throws: FilterError.outOfRange(filter: "org.memery.sepia", param: "amount", value: 2, min: 0, max: 1)) {
            try host.parse(["amount=2"], for: "org.memery.sepia")
        }
        #expect(throws: FilterError.invalidValue(filter: "org.memery.deep-fry", param: "seed", value: "1.5", expected: "a whole number")) {
            try host.parse(["seed=1.5"], for: "org.memery.deep-fry")
        }
        #expect(throws: FilterError.unknownFilter("org.nope.nothing")) { try host.parse([], for: "org.nope.nothing") }
        #expect(throws: FilterError.missing(["org.nope.nothing"])) { try host.apply("org.nope.nothing", params: [:], to: photo) }
        #expect(FilterError.outOfRange(filter: "org.memery.sepia", param: "amount", value: 2, min: 0, max: 1).description
            == "org.memery.sepia amount must be between 0 and 1, got 2")
    }
}

/// Plugins built here with one cc line each, as docs/plugins.md tells an author to.
@Suite(.serialized) struct PluginLoadingTests {
    static let sources = TestData.root.appendingPathComponent("Tests/MemeryRenderTests/Plugins")
    static let include = TestData.root.appendingPathComponent("Sources/MemeryPluginABI/include").path

    func build(_ source: String, defines: [String] = [], in dir: TemporaryDirectory) throws -> String {
        let output = dir.url.appendingPathComponent("\(source)-\(defines.joined()).so").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-shared", "-fPIC", "-O2", "-I", Self.include] + defines.map { "-D" + $0 }
            + ["-o", output, Self.sources.appendingPathComponent(source).path, "-lm"]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cc failed for \(source)")
        return output
    }

    @Test func aThirdPartyPluginBuiltFromTheHeaderAloneLoadsAndRuns() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let host = FilterHost(builtinDirectory: nil)
        host.load(try build("posterize.c", in: dir), origin: .user)
        #expect(host.warnings.isEmpty, "\(host.warnings)")
        let posterize = try #require(host.filter("org.example.posterize"))
        #expect(posterize.origin == .user && posterize.params.map(\.id) == ["levels"])
        let image = try Raster(width: 3, height: 1)
        image.withMutablePixels { p, _ in
            let words = UnsafeMutableRawPointer(p).assumingMemoryBound(to: UInt32.self)
            words[0] = 0xff10_2030; words[1] = 0xff80_8080; words[2] = 0xffF0_E0D0
        }
        let out = try host.apply("org.example.posterize", params: try host.parse(["levels=2"], for: "org.example.posterize"), to: image)
        #expect(out.pixel(x: 0, y: 0) == (0, 0, 0, 255))
        #expect(out.pixel(x: 2, y: 0) == (255, 255, 255, 255))
        #expect(throws: FilterError.outOfRange(filter: "org.example.posterize", param: "levels", value: 1, min: 2, max: 64)) {
            try host.parse(["levels=1"], for: "org.example.posterize")
        }
    }

    @Test(arguments: [
        (1, "exports no memery_plugin_entry entry symbol"),
        (2, "was built for filter ABI 2.0; this memery hosts ABI 1.x"),
        (3, "filter id \"not a reverse dns id\" is not a reverse-DNS id"),
        (4, "parameter amount defaults to 7.0, outside 0.0...1.0"),
    ])
    func brokenPluginsAreSkippedWithTheFileAndTheReason(_ broken: Int, _ reason: String) throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let host = FilterHost(builtinDirectory: nil)
        let path = try build("broken.c", defines: ["BROKEN=\(broken)"], in: dir)
        host.load(path, origin: .user)
        #expect(host.filters.allSatisfy { $0.origin == .frei0r }, "nothing of the broken plugin")
        #expect(host.warnings.count == 1)
        #expect(host.warnings.first?.contains(path) == true, "\(host.warnings)")
        #expect(host.warnings.first?.contains(reason) == true, "\(host.warnings)")
    }

    @Test func aFailingFilterReportsItsMessage() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let host = FilterHost(builtinDirectory: nil)
        host.load(try build("broken.c", defines: ["BROKEN=5"], in: dir), origin: .user)
        #expect(throws: FilterError.failed(filter: "org.example.failing", status: 5, message: "the moon is in the wrong phase")) {
            try host.apply("org.example.failing", params: [:], to: try Raster(width: 2, height: 2))
        }
        host.load(dir.url.appendingPathComponent("nothing-here.so").path, origin: .user)
        #expect(host.warnings.last?.hasPrefix("no plugin at ") == true)
    }
}
