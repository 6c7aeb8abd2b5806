import Foundation
import MemeryRender

/// What decoding a picture from outside costs: in this process (no isolation, the floor), in
/// a helper started for it (the CLI: `memery-helper`, and beside it the whole `memery` binary
/// as the helper, as before memery-helper), and in a warm helper (`memery serve`). Each
/// round runs all four in turn, so drift on the machine falls on each alike; the ratios are
/// the median over rounds of each round's ratio.
enum HelperBench {
    static func run(_ paths: [String], runs: Int) throws {
        let warm = WarmHelpers(.decoding, keep: 1, jobsPerHelper: runs + 1)
        for path in paths {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let inProcess = ImageDecoder(), ownHelper = IsolatedDecoder(decoder: ImageDecoder())
            let wholeMemery = IsolatedDecoder(decoder: ImageDecoder(), helper: Self.memery)
            let warmHelper = IsolatedDecoder(decoder: ImageDecoder(), warm: warm)
            _ = try warmHelper.decode(data, source: path)  // the helper's start is not what is measured
            var here = Timings(), own = Timings(), whole = Timings(), kept = Timings()
            var ownRatios = Timings(), wholeRatios = Timings(), warmRatios = Timings()
            var width = 0, height = 0
            for _ in 0..<runs {
                let a = try Timings.time { (width, height) = try inProcess.decode(data, source: path).1.size }
                let b = try Timings.time { _ = try ownHelper.decode(data, source: path) }
                let c = try Timings.time { _ = try warmHelper.decode(data, source: path) }
                let d = try Timings.time { _ = try wholeMemery.decode(data, source: path) }
                here.add(a); own.add(b); kept.add(c); whole.add(d)
                ownRatios.add(b / a); warmRatios.add(c / a); wholeRatios.add(d / a)
            }
            print(String(format: "  %@ (%dx%d, %d KB), median of %d rounds: in this process %.1f ms, a helper of its own %.1f ms (%.2fx; the whole memery as that helper %.1f ms, %.2fx), a warm helper %.1f ms (%.2fx)",
                         URL(fileURLWithPath: path).lastPathComponent, width, height, data.count >> 10, runs,
                         here.median * 1000, own.median * 1000, ownRatios.median, whole.median * 1000, wholeRatios.median,
                         kept.median * 1000, warmRatios.median))
        }
    }
}

extension HelperBench {
    /// The whole `memery` binary beside this one.
    static let memery = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("memery").path
}

private extension ImageInfo {
    var size: (Int, Int) { (width, height) }
}
