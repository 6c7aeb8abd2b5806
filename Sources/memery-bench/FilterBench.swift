import Foundation
import MemeryRender

/// Built-in filters on a big picture, in megapixels per second, beside a plain copy of the
/// same bytes (the ceiling for any pass over the pixels).
enum FilterBench {
    static func run(_ path: String, runs: Int) throws {
        let (image, _) = try ImageDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: path)), source: path)
        let megapixels = Double(image.width * image.height) / 1e6
        let host = FilterHost.shared
        for (id, settings) in [("org.memery.grayscale", [String]()), ("org.memery.gaussian-blur", ["radius=10"])] {
            let params = try host.parse(settings, for: id)
            let time = try Timings(runs: runs) { _ = try host.apply(id, params: params, to: image) }
            print(String(format: "  %@ %@: median %.3f s (min %.3f, max %.3f), %.1f MP/s (%dx%d, pixel conversion to and from the plugin's format included)",
                         id, settings.joined(separator: " "), time.median, time.min, time.max, megapixels / time.median, image.width, image.height))
        }
        let bytes = image.width * image.height * 4
        let source = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        let target = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer { source.deallocate(); target.deallocate() }
        memset(source, 7, bytes)
        memset(target, 0, bytes)
        let copy = Timings(runs: max(runs, 5)) { target.copyMemory(from: source, byteCount: bytes) }
        print(String(format: "  memory copy of the same %d bytes: median %.4f s (min %.4f, max %.4f), %.0f MP/s (the ceiling)",
                     bytes, copy.median, copy.min, copy.max, megapixels / copy.median))
    }

    /// A frei0r filter through a helper of its own (as the CLI runs it), through a warm
    /// helper (as `memery serve` runs it) and in this process (as it ran before): what
    /// isolation costs. Each round runs the three in turn, so drift falls on each alike.
    static func frei0r(_ path: String, runs: Int) throws {
        let (image, _) = try ImageDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: path)), source: path)
        let warm = WarmHelpers(.plugins, keep: 1, jobsPerHelper: 1_000)
        for (id, settings) in [("frei0r.invert0r", [String]()), ("frei0r.iir-blur", ["amount=0.6"])] {
            let params = try FilterHost.shared.parse(settings, for: id)
            let loaded = try Frei0rInProcessForBench(id)
            _ = try FilterHost.shared.apply(id, params: params, to: image, warm: warm)  // the warm helper's start is not measured
            var helper = Timings(), kept = Timings(), here = Timings()
            for _ in 0..<runs {
                helper.add(try Timings.time { _ = try FilterHost.shared.apply(id, params: params, to: image) })
                kept.add(try Timings.time { _ = try FilterHost.shared.apply(id, params: params, to: image, warm: warm) })
                here.add(try Timings.time { _ = try loaded.apply(params: params, to: image) })
            }
            print(String(format: "  %@ %@ (%dx%d), medians of %d rounds: a helper of its own %.1f ms, a warm helper %.1f ms, in this process %.1f ms; the warm helper costs %.1f ms more than this process",
                         id, settings.joined(separator: " "), image.width, image.height, runs, helper.median * 1000, kept.median * 1000,
                         here.median * 1000, (kept.median - here.median) * 1000))
        }
    }
}
