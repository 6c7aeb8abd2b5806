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

    /// A frei0r filter through the helper process (as memery runs it) beside the same filter
    /// in this process (as it ran before): what isolation costs.
    static func frei0r(_ path: String, runs: Int) throws {
        let (image, _) = try ImageDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: path)), source: path)
        for (id, settings) in [("frei0r.invert0r", [String]()), ("frei0r.iir-blur", ["amount=0.6"])] {
            let params = try FilterHost.shared.parse(settings, for: id)
            let helper = try Timings(runs: runs) { _ = try FilterHost.shared.apply(id, params: params, to: image) }
            let loaded = try Frei0rInProcessForBench(id)
            let here = try Timings(runs: runs) { _ = try loaded.apply(params: params, to: image) }
            print(String(format: "  %@ %@ (%dx%d): helper median %.3f s (min %.3f), in this process median %.3f s (min %.3f), ratio %.2f",
                         id, settings.joined(separator: " "), image.width, image.height, helper.median, helper.min, here.median, here.min,
                         helper.median / here.median))
        }
    }
}
