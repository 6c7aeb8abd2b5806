import Foundation

/// Repeated timings of one measurement: the median, min and max every figure reports.
struct Timings {
    private(set) var seconds: [Double] = []

    /// Times `body` `runs` times.
    init(runs: Int, _ body: () throws -> Void) rethrows {
        for _ in 0..<runs { seconds.append(try Self.time(body)) }
    }

    init() {}

    mutating func add(_ value: Double) { seconds.append(value) }

    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    var median: Double { seconds.sorted()[seconds.count / 2] }
    var min: Double { seconds.min()! }
    var max: Double { seconds.max()! }

    /// "12.3 ms (min 11.9, max 14.0)"
    var milliseconds: String { String(format: "%.1f ms (min %.1f, max %.1f)", median * 1000, min * 1000, max * 1000) }

    /// `count` things per second: "540000 events/s (min 510000, max 560000) over 5 runs".
    func rate(_ count: Int, _ unit: String) -> String {
        String(format: "%.0f %@ (min %.0f, max %.0f) over %d runs", Double(count) / median, unit, Double(count) / max, Double(count) / min, seconds.count)
    }
}
