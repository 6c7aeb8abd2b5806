import Foundation
import Memery
import MemeryCore
import MemeryStore

/// Opening, checking out and replaying long histories.
enum HistoryBench {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Median of `runs` timings.
    static func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times = [Double]()
        for _ in 0..<runs { times.append(try seconds(body)) }
        return times.sorted()[runs / 2]
    }

    static func run(in dir: String) throws {
        let url = URL(fileURLWithPath: dir)
        try? FileManager.default.removeItem(at: url)
        let workspace = try Workspace(directory: url)
        var openTimes = [Int: Double]()
        for edits in [10, 10_000, 100_000] {
            let name = "h\(edits)"
            try workspace.create(name: name, canvasWidth: 800, height: 600, background: .white)
            let session = try workspace.session(name)
            try session.edit(.setCaptions(top: "start", bottom: "here"))
            let build = try seconds {
                for n in 1..<edits { try session.edit(.editText(id: "L1", text: "edit \(n)", box: nil, style: .init())) }
            }
            let open = try median(5) { _ = try workspace.head(of: name) }
            let replay = try median(edits >= 100_000 ? 3 : 5) { _ = try workspace.history(of: name) }
            openTimes[edits] = open
            print(String(format: "  %6d edits (built at %.0f durable edits/s): open %.2f ms (snapshot + tail); full replay %.1f ms; ratio %.0fx",
                         edits, Double(edits) / build, open * 1000, replay * 1000, replay / open))
        }
        if let small = openTimes[10], let large = openTimes[100_000] {
            print(String(format: "  open at 100,000 edits / open at 10 edits: %.2f", large / small))
        }
        let session = try workspace.session("h100000")
        let checkout = try seconds { try session.checkout(event: 50_000) }
        let back = try seconds { try workspace.session("h100000").checkout(event: 100_001) }
        print(String(format: "  checkout at 100,000 edits: to event 50,000 in %.0f ms, back to the end in %.0f ms (each reads the whole tree)",
                     checkout * 1000, back * 1000))
    }

    /// Writes `count` events in batches of 1,000 (one transaction each), then times reading
    /// them back: every checksum checked, every payload decoded, each folded into the state.
    static func replay(in dir: String, count: Int) throws {
        let url = URL(fileURLWithPath: dir)
        try? FileManager.default.removeItem(at: url)
        let workspace = try Workspace(directory: url)
        let creation = try workspace.create(name: "replay", canvasWidth: 800, height: 600, background: .white)
        let session = try workspace.session("replay")
        try session.edit(.setCaptions(top: "start", bottom: nil))
        var version = session.head.streamVersion
        let write = try seconds {
            var written = 0
            while written < count {
                let n = min(1000, count - written)
                let events = try (0..<n).map { i in
                    let event = CreationEvent.textLayerEdited(.init(id: "L1", text: "edit \(written + i)"))
                    return NewEvent(type: event.type, schemaVersion: event.schemaVersion, payload: try event.encodedPayload())
                }
                try workspace.store.append(to: creation.id, expectedVersion: version, events: events)
                version += UInt64(n)
                written += n
            }
        }
        var checked = 0
        let readOnly = try seconds {
            try workspace.store.forEachEvent { stored in
                if stored.stream == creation.id { checked += 1 }
                return true
            }
        }
        var folded = 0
        let read = try seconds {
            var state = Creation(id: creation.id)
            try workspace.store.forEachEvent { stored in
                guard stored.stream == creation.id else { return true }
                let event = try CreationEvent.decode(type: stored.type, schemaVersion: stored.schemaVersion, payload: stored.payload)
                state = state.evolve(event)
                folded += 1
                return true
            }
        }
        print(String(format: "  replay of %d events: %.2f s (%.0f events/s); written in batches of 1,000 at %.0f events/s",
                     folded, read, Double(folded) / read, Double(count) / write))
        print(String(format: "  reading and checking them alone (checksums, no payloads decoded): %.2f s (%.0f events/s)",
                     readOnly, Double(checked) / readOnly))
    }
}
