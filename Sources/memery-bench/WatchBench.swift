import Foundation
import Memery
import MemeryCore

/// An edit on one machine to the other machine's store, both running `memery sync --watch`,
/// one logged in through each hub (issue 35 §3: p95 under 1 s end to end). Beside it, its
/// peer in the same run: what a person does without watchers, a `memery sync` on the first
/// machine and then one on the second.
///
///     memery-bench watch MEMERY HUB-A HUB-B RUNS
enum WatchBench {
    static func run(memery: String, hubs: (String, String), runs: Int) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("memery-watch-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b) = (root.appendingPathComponent("a").path, root.appendingPathComponent("b").path)
        let user = "watch\(UUID().uuidString.prefix(8).lowercased())", password = "bench password"
        try cli(memery, ["account", "signup", hubs.0, "--user", user, "--password-stdin", "--store", a], input: password)
        try cli(memery, ["login", hubs.1, "--user", user, "--password-stdin", "--store", b], input: password)
        try cli(memery, ["new", "w", "--canvas", "40x40", "--store", a])
        try cli(memery, ["sync", "--store", a])
        try cli(memery, ["sync", "--store", b])

        // By hand: sync here, then there.
        let first = try Workspace(directory: URL(fileURLWithPath: a)), second = try Workspace(directory: URL(fileURLWithPath: b))
        var byHand = Timings()
        for n in 0..<runs {
            try first.perform(.captions(top: "by hand \(n)", bottom: nil, style: TextStyleChanges()), on: "w")
            byHand.add(try Timings.time {
                try cli(memery, ["sync", "--store", a])
                try cli(memery, ["sync", "--store", b])
            })
            guard try second.creation(named: "w").caption(.top)?.text?.text == "by hand \(n)" else { throw BenchError("the hand sync lost an edit") }
        }

        let watchers = try [a, b].map { store in
            let watcher = Process()
            watcher.executableURL = URL(fileURLWithPath: memery)
            watcher.arguments = ["sync", "--watch", "--store", store]
            watcher.standardOutput = FileHandle.nullDevice
            watcher.standardError = FileHandle.nullDevice
            try watcher.run()
            return watcher
        }
        defer { for watcher in watchers { watcher.terminate(); watcher.waitUntilExit() } }
        Thread.sleep(forTimeInterval: 1)
        var watched = [Double]()
        var random = SystemRandomNumberGenerator()
        for n in 0..<runs {
            // Out of step with the watchers' own rhythm (they look at the store every 200 ms).
            Thread.sleep(forTimeInterval: Double.random(in: 0.2...0.5, using: &random))
            let text = "watched \(n)"
            try first.perform(.captions(top: text, bottom: nil, style: TextStyleChanges()), on: "w")
            let start = DispatchTime.now().uptimeNanoseconds
            while try second.creation(named: "w").caption(.top)?.text?.text != text {
                guard DispatchTime.now().uptimeNanoseconds - start < 30_000_000_000 else { throw BenchError("an edit took over 30 s to arrive") }
                usleep(2_000)
            }
            watched.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let sorted = watched.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] * 1000 }
        print(String(format: "an edit on one machine in the other's store, both `sync --watch`, through two hubs (%d edits): "
                     + "p50 %.0f ms, p95 %.0f ms, max %.0f ms; by hand (`memery sync` here, then there): p50 %.0f ms; "
                     + "watched p50 / by hand p50: %.2f",
                     runs, percentile(0.5), percentile(0.95), sorted.last! * 1000, byHand.median * 1000, percentile(0.5) / (byHand.median * 1000)))
    }

    static func cli(_ memery: String, _ arguments: [String], input: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: memery)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        if let input { pipe.fileHandleForWriting.write(Data((input + "\n").utf8)) }
        try pipe.fileHandleForWriting.close()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("memery \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: said, as: UTF8.self))")
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
