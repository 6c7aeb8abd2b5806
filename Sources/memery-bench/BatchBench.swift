import Foundation
import MemeryCore
import MemeryStore

/// Batched appends, 1,000 events per durable transaction, split into what they cost: the
/// domain encoding its payloads (beside Foundation's JSONEncoder doing the same), the store
/// appending ready payloads (what the C and SQLite peers do), and both together.
enum BatchBench {
    static func run(in dir: String, count: Int, runs: Int, storeOnly: Bool = false) throws {
        let batch = 1000
        let events = (0..<count).map { i in CreationEvent.textLayerEdited(.init(id: "L1", text: "an edit of typical size, caption \(i)")) }
        if storeOnly { return try runStore(in: dir, events: events, batch: batch, runs: runs) }
        var foundation = Timings(), ours = Timings(), store = Timings(), whole = Timings()
        let reference = JSONEncoder()
        reference.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for _ in 0..<runs {
            foundation.add(HistoryBench.seconds {
                for case .textLayerEdited(let p) in events { _ = try? reference.encode(p) }
            })
            var encoded = [Data]()
            encoded.reserveCapacity(count)
            ours.add(try HistoryBench.seconds {  // the encoding alone, as for Foundation's
                for event in events { encoded.append(try event.encodedPayload()) }
            })
            let payloads = zip(events, encoded).map { NewEvent(type: $0.type, schemaVersion: $0.schemaVersion, payload: $1) }
            store.add(try appendAll(in: dir, batch: batch, count: count) { range in Array(payloads[range]) })
            whole.add(try appendAll(in: dir, batch: batch, count: count) { range in
                try events[range].map { NewEvent(type: $0.type, schemaVersion: $0.schemaVersion, payload: try $0.encodedPayload()) }
            })
        }
        print("  payload encoding, Foundation JSONEncoder (sorted keys): median " + foundation.rate(count, "events/s"))
        print("  payload encoding, memery (encodedPayload: written plainly, to SortedJSONEncoder's bytes): median " + ours.rate(count, "events/s"))
        print("  store appends of ready payloads, 1,000 per transaction: median " + store.rate(count, "events/s"))
        print("  domain events encoded and appended, 1,000 per transaction: median " + whole.rate(count, "events/s"))
    }

    /// The store's appends of ready payloads alone, nothing else in the process's profile.
    static func runStore(in dir: String, events: [CreationEvent], batch: Int, runs: Int) throws {
        let payloads = try events.map { NewEvent(type: $0.type, schemaVersion: $0.schemaVersion, payload: try $0.encodedPayload()) }
        var store = Timings()
        for _ in 0..<runs {
            store.add(try appendAll(in: dir, batch: batch, count: events.count) { range in Array(payloads[range]) })
        }
        print("  store appends of ready payloads, 1,000 per transaction: median " + store.rate(events.count, "events/s"))
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
