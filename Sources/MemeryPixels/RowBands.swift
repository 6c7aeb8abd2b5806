import Dispatch
import Foundation

/// Splits a picture's rows into bands and runs a pixel loop over them on every core, for
/// the passes over whole pictures (pixel conversions around filters). `$MEMERY_THREADS`
/// sets the number of threads, as it does for the built-in filters.
enum RowBands {
    static let threads: Int = {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        guard let text = ProcessInfo.processInfo.environment["MEMERY_THREADS"], !text.isEmpty else { return cores }
        guard let forced = Int(text), (1...64).contains(forced) else {
            EnvironmentWarning.say("MEMERY_THREADS=\(text) is not a number of threads from 1 to 64: using \(cores), the cores online")
            return cores
        }
        return forced
    }()

    /// Calls `body` with disjoint row ranges covering `0..<height`; returns when all are done.
    /// Small pictures stay on the calling thread.
    static func forEach(height: Int, _ body: (Range<Int>) -> Void) {
        let bands = min(threads * 4, max(1, height / 64))
        guard bands > 1, threads > 1 else { return body(0..<height) }
        let rows = (height + bands - 1) / bands
        withoutActuallyEscaping(body) { body in
            let box = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let start = band * rows
                if start < height { box.value(start..<min(height, start + rows)) }
            }
        }
    }
}

/// Lets a closure that writes disjoint rows of one buffer cross to Dispatch's threads.
private struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
