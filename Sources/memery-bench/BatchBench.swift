import Foundation
import MemeryCore
import MemeryStore

/// Batched appends, 1,000 events per durable transaction, split into what they cost: the
/// domain encoding its payloads (beside Foundation's JSONEncoder doing the same), the store
/// appending ready payloads (what the C and SQLite peers do), and both together.
enum BatchBench {
    struct Figures {
        var times = [Double]()
        mutating func add(_ seconds: Double) { times.append(seconds) }
        func line(_ name: String, count: Int) -> String {
            let sorted = times.sorted()
            let rate = { (t: Double) in Double(count) / t }
            return String(format: "%@: median %.0f events/s (min %.0f, max %.0f) over %d runs",
                          name, rate(sorted[sorted.count / 2]), rate(sorted.last!), rate(sorted.first!), sorted.count)
        }
    }

    static func run(in dir: String, count: Int, runs: Int) throws {
        let batch = 1000
        let events = (0..<count).map { i in CreationEvent.textLayerEdited(.init(id: "L1", text: "an edit of typical size, caption \(i)")) }
        var foundation = Figures(), ours = Figures(), store = Figures(), whole = Figures()
        let reference = JSONEncoder()
        reference.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for _ in 0..<runs {
            foundation.add(HistoryBench.seconds {
                for case .textLayerEdited(let p) in events { _ = try? reference.encode(p) }
            })
            var payloads = [NewEvent]()
            payloads.reserveCapacity(count)
            ours.add(try HistoryBench.seconds {
                for event in events { payloads.append(NewEvent(type: event.type, schemaVersion: event.schemaVersion, payload: try event.encodedPayload())) }
            })
            store.add(try appendAll(in: dir, batch: batch, count: count) { range in Array(payloads[range]) })
            whole.add(try appendAll(in: dir, batch: batch, count: count) { range in
                try events[range].map { NewEvent(type: $0.type, schemaVersion: $0.schemaVersion, payload: try $0.encodedPayload()) }
            })
        }
        print("  " + foundation.line("payload encoding, Foundation JSONEncoder (sorted keys)", count: count))
        print("  " + ours.line("payload encoding, memery (SortedJSONEncoder)", count: count))
        print("  " + store.line("store appends of ready payloads, 1,000 per transaction", count: count))
        print("  " + whole.line("domain events encoded and appended, 1,000 per transaction", count: count))
    }

    /// A fresh store; `count` events in durable transactions of `batch`. Returns seconds.
    static func appendAll(in dir: String, batch: Int, count: Int, _ make: (Range<Int>) throws -> [NewEvent]) throws -> Double {
        let url = URL(fileURLWithPath: dir)
        try? FileManager.default.removeItem(at: url)
        let store = try EventStore(directory: url)
        let stream = UUID()
        return try HistoryBench.seconds {
            var version: UInt64 = 0
            for start in stride(from: 0, to: count, by: batch) {
                let range = start..<min(start + batch, count)
                try store.append(to: stream, expectedVersion: version, events: try make(range))
                version += UInt64(range.count)
            }
        }
    }
}
