import Foundation
@_spi(Tools) import Memery
import MemeryCore
import MemeryStore

/// Opening, checking out and replaying long histories.
enum HistoryBench {
    static func seconds(_ body: () throws -> Void) rethrows -> Double { try Timings.time(body) }

    static func run(in dir: String) throws {
        let url = URL(fileURLWithPath: dir)
        try? FileManager.default.removeItem(at: url)
        let workspace = try Workspace(directory: url)
        var openTimes = [Int: Double]()
        // When the largest history was half built: the checkout by time goes there.
        var halfway = Date()
        for edits in [10, 10_000, 100_000] {
            let name = "h\(edits)"
            try workspace.create(name: name, canvasWidth: 800, height: 600, background: .white)
            let session = try workspace.session(name)
            try session.edit(.setCaptions(top: "start", bottom: "here"))
            let build = try seconds {
                for n in 1..<edits {
                    if n == edits / 2 { halfway = Date() }
                    try session.edit(.editText(id: "L1", text: "edit \(n)", box: nil, style: .init()))
                }
            }
            // A fresh workspace each time: a cold open, as a new process has (not the live cache).
            let open = try Timings(runs: 5) { _ = try Workspace(directory: url).head(of: name) }
            // The whole tree as a new process builds it: a fresh workspace each run, since a
            // workspace keeps the tree it built last (HistoryCache).
            let replay = try Timings(runs: 5) { _ = try Workspace(directory: url).history(of: name) }
            openTimes[edits] = open.median
            print(String(format: "  %6d edits (built at %.0f durable edits/s): open %@ (snapshot + tail); full replay %@; ratio %.0fx",
                         edits, Double(edits) / build, open.milliseconds, replay.milliseconds, replay.median / open.median))
        }
        if let small = openTimes[10], let large = openTimes[100_000] {
            print(String(format: "  open at 100,000 edits / open at 10 edits (medians): %.2f", large / small))
        }
        // A long-lived process (memery serve, memery apply) keeps the creation open: undo and
        // redo decide on the tree in memory, and the show after each opens the head the move
        // stored with itself.
        let runner = EditRunner(workspace: workspace)
        _ = try runner.perform(.undo(steps: 1), on: "h100000")
        _ = try runner.perform(.redo(branch: nil), on: "h100000")
        var undo = Timings(), redo = Timings(), showAfterUndo = Timings(), showAfterRedo = Timings()
        for _ in 0..<5 {
            undo.add(try seconds { _ = try runner.perform(.undo(steps: 1), on: "h100000") })
            showAfterUndo.add(try seconds { _ = try workspace.creation(named: "h100000") })
            redo.add(try seconds { _ = try runner.perform(.redo(branch: nil), on: "h100000") })
            showAfterRedo.add(try seconds { _ = try workspace.creation(named: "h100000") })
        }
        print("  at 100,000 edits, in one process: undo \(undo.milliseconds), show after it \(showAfterUndo.milliseconds); "
              + "redo \(redo.milliseconds), show after it \(showAfterRedo.milliseconds)")
        // The first of each in a new process (a fresh workspace: no tree in memory), as
        // `memery undo` and the others run from a shell: each reads the history index (`history` replays).
        func cold(_ edit: Edit) throws -> Double {
            let runner = EditRunner(workspace: try Workspace(directory: url))
            return try seconds { _ = try runner.perform(edit, on: "h100000") }
        }
        var coldUndo = Timings(), coldRedo = Timings(), coldAway = Timings(), coldBack = Timings(), coldTime = Timings(), coldHistory = Timings(), coldTree = Timings(), coldLine = Timings()
        let midway = ISO8601DateFormatter().string(from: halfway)  // whole seconds, as `checkout --at` reads them
        for _ in 0..<5 {
            coldUndo.add(try cold(.undo(steps: 1)))
            coldRedo.add(try cold(.redo(branch: nil)))
            coldAway.add(try cold(.checkout(.event(50_000))))
            coldBack.add(try cold(.checkout(.event(100_001))))
            coldTime.add(try cold(.checkout(.time(midway))))
            let fresh = try Workspace(directory: url)
            coldHistory.add(try seconds { try fresh.drawHistory(of: "h100000") { _ in } })
            let forJSON = try Workspace(directory: url)
            coldTree.add(try seconds { _ = try forJSON.historyTree(of: "h100000") })
            let another = try Workspace(directory: url)
            coldLine.add(try seconds { _ = try another.headLine(of: "h100000", last: 20) })
        }
        print("  at 100,000 edits, the first in a new process: undo \(coldUndo.milliseconds), redo \(coldRedo.milliseconds), "
              + "checkout to event 50,000 \(coldAway.milliseconds), back to the end \(coldBack.milliseconds), "
              + "by time (to halfway) \(coldTime.milliseconds), history (drawn) \(coldHistory.milliseconds), "
              + "its tree for --json \(coldTree.milliseconds), history --last 20 \(coldLine.milliseconds)")
        let fresh = try Workspace(directory: url)
        let coldShow = try seconds { _ = try fresh.creation(named: "h100000") }
        print(String(format: "  show after an undo, another process's first read: %.1f ms", coldShow * 1000))
        // Each checkout is an event (HeadMoved): five round trips add ten to the history.
        var away = Timings(), back = Timings()
        for _ in 0..<5 {
            away.add(try seconds { _ = try runner.perform(.checkout(.event(50_000)), on: "h100000") })
            back.add(try seconds { _ = try runner.perform(.checkout(.event(100_001)), on: "h100000") })
        }
        print("  checkout at 100,000 edits, in one process: to event 50,000 \(away.milliseconds), back to the end \(back.milliseconds)")
        try manyLayers(in: url)
    }

    /// The whole history of a creation already in `url`, each run in a new `Workspace` (as a
    /// new process reads it), so two builds can be run in turns on one store.
    static func coldHistory(in url: URL, name: String, runs: Int) throws {
        var drawn = Timings(), tree = Timings(), replay = Timings(), nodes = 0, bytes = 0
        for _ in 0..<runs {
            // What `memery history` does: the tree drawn from the history index's records.
            let fresh = try Workspace(directory: url), forJSON = try Workspace(directory: url), other = try Workspace(directory: url)
            drawn.add(try seconds {
                bytes = 0
                try fresh.drawHistory(of: name) { bytes += $0.count }
            })
            // What `--json` reads: the answer, an object per edit.
            tree.add(try seconds { _ = try forJSON.historyTree(of: name) })
            // Their peer: the whole tree replayed from the events (what it did before the index kept descriptions).
            replay.add(try seconds { nodes = try other.history(of: name).nodes.count })
        }
        // The first run is a new process's: the store's map not yet touched (later Workspaces share the environment).
        print(String(format: "  whole history of \(name), the first drawing in this process: %.1f ms", drawn.seconds[0] * 1000))
        print("  whole history of \(name) (\(nodes) edits) in a new Workspace: drawn from the index \(drawn.milliseconds) (\(bytes) bytes), "
              + "the tree for --json \(tree.milliseconds); replayed \(replay.milliseconds); drawn / replay (medians) "
              + String(format: "%.3f", drawn.median / replay.median))
    }

    /// A creation with 2,000 layers and 5,000 edits (2,000 layers added, then 3,000 caption
    /// edits): the first undo, redo, checkout and history in a new process fold every edit
    /// into a state holding up to 2,000 layers.
    static func manyLayers(in url: URL) throws {
        let workspace = try Workspace(directory: url)
        let name = "layers2000"
        try workspace.create(name: name, canvasWidth: 1600, height: 1200, background: .white)
        let session = try workspace.session(name)
        for n in 0..<2_000 {
            let box = Box(x: Double(n % 40) * 40, y: Double(n / 40) * 24, w: 38, h: 22)
            try session.edit(.addText(role: .free, text: "layer \(n)", box: box, style: .init()))
        }
        try session.edit(.setCaptions(top: "start", bottom: nil))
        let captions = try seconds { for n in 1..<3_000 { try session.edit(.setCaptions(top: "edit \(n)", bottom: nil)) } }
        print(String(format: "  caption edits on a creation of 2,000 layers, each durable, in one session: %.0f edits/s", 2_999 / captions))
        let events = try workspace.history(of: name).streamVersion
        func cold(_ edit: Edit) throws -> Double {
            let runner = EditRunner(workspace: try Workspace(directory: url))
            return try seconds { _ = try runner.perform(edit, on: name) }
        }
        var undo = Timings(), redo = Timings(), away = Timings(), back = Timings(), history = Timings(), line = Timings()
        for _ in 0..<5 {
            undo.add(try cold(.undo(steps: 1)))
            redo.add(try cold(.redo(branch: nil)))
            away.add(try cold(.checkout(.event(events / 2))))
            back.add(try cold(.checkout(.event(events))))
            let fresh = try Workspace(directory: url)
            history.add(try seconds { try fresh.drawHistory(of: name) { _ in } })
            let another = try Workspace(directory: url)
            line.add(try seconds { _ = try another.headLine(of: name, last: 20) })
        }
        print("  at 5,000 edits with 2,000 layers (\(events) events), the first in a new process: undo \(undo.milliseconds), "
              + "redo \(redo.milliseconds), checkout to event \(events / 2) \(away.milliseconds), back to the end \(back.milliseconds), "
              + "history (drawn) \(history.milliseconds), history --last 20 \(line.milliseconds)")
        // What memery serve does for an undo or a redo: the move in a long-lived workspace,
        // then the head read for its answer.
        let server = try Workspace(directory: url)
        _ = try server.head(of: name)
        var servedUndo = Timings(), servedRedo = Timings()
        for _ in 0..<5 {
            servedUndo.add(try seconds { _ = try server.perform(.undo(steps: 1), on: name); _ = try server.head(of: name) })
            servedRedo.add(try seconds { _ = try server.perform(.redo(branch: nil), on: name); _ = try server.head(of: name) })
        }
        print("  at 5,000 edits with 2,000 layers, in a long-lived process (as memery serve answers a move): "
              + "undo and the head after it \(servedUndo.milliseconds), redo and the head after it \(servedRedo.milliseconds)")
        try stateCoding(in: url, runs: 5)
    }

    /// What keeping or reading the state of `layers2000` costs (it holds 2,000 layers): a
    /// snapshot's encoding, and a snapshot's or checkpoint's decoding.
    static func stateCoding(in url: URL, runs: Int) throws {
        let head = try Workspace(directory: url).head(of: "layers2000")
        var bytes = Data()
        let encode = try Timings(runs: runs) { bytes = try head.encoded() }
        let decode = Timings(runs: runs) { _ = CreationHead.decoded(bytes) }
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let byFoundation = try Timings(runs: runs) { bytes = try foundation.encode(head) }
        print("  the head's state at 2,000 layers (\(bytes.count / 1024) KiB): encoded \(encode.milliseconds) "
              + "(Foundation's JSONEncoder: \(byFoundation.milliseconds)), decoded \(decode.milliseconds)")
        // What the editor is answered after each edit: the creation with its layers described.
        let detail = CreationDetail(head, frames: 1)
        let answer = try Timings(runs: runs) { bytes = try AnswerJSON.data(detail) }
        let answerByFoundation = try Timings(runs: runs) { bytes = try foundation.encode(detail) }
        print("  the editor's answer for it (\(bytes.count / 1024) KiB): \(answer.milliseconds) (Foundation's JSONEncoder: \(answerByFoundation.milliseconds))")
    }

    /// Writes `count` events in batches of 1,000 (one transaction each), then times reading
    /// them back: every checksum checked, every payload decoded, each folded into the state.
    static func replay(in dir: String, count: Int, runs: Int = 5) throws {
        let url = URL(fileURLWithPath: dir)
        try? FileManager.default.removeItem(at: url)
        let workspace = try Workspace(directory: url)
        let creation = try workspace.create(name: "replay", canvasWidth: 800, height: 600, background: .white)
        let session = try workspace.session("replay")
        try session.edit(.setCaptions(top: "start", bottom: nil))
        var version = try session.head.streamVersion
        let write = try seconds {
            var written = 0
            while written < count {
                let n = min(1000, count - written)
                let events = try (0..<n).map { i in
                    let event = CreationEvent.textLayerEdited(.init(id: "L1", text: "edit \(written + i)"))
                    return NewEvent(type: event.type, schemaVersion: event.schemaVersion, payload: try event.encodedPayload())
                }
                try workspace.eventStore.append(to: creation.id, expectedVersion: version, events: events)
                version += UInt64(n)
                written += n
            }
        }
        var checked = 0
        let readOnly = try Timings(runs: runs) {
            checked = 0
            try workspace.eventStore.forEachBorrowedEvent { stored in
                if stored.stream == creation.id { checked += 1 }
                return true
            }
        }
        var folded = 0
        let read = try Timings(runs: runs) {
            folded = 0
            var state = Creation(id: creation.id)
            try workspace.eventStore.forEachBorrowedEvent { stored in
                guard stored.stream == creation.id else { return true }
                let event = try CreationEvent.decode(typeUTF8: stored.typeUTF8, schemaVersion: stored.schemaVersion, payload: stored.payload)
                state.fold(event)
                folded += 1
                return true
            }
        }
        // Where a replay's time goes: decoding alone, and folding alone (events decoded before).
        var decoded = [CreationEvent]()
        decoded.reserveCapacity(count + 1)
        let decodeOnly = try Timings(runs: runs) {
            decoded.removeAll(keepingCapacity: true)
            try workspace.eventStore.forEachBorrowedEvent { stored in
                guard stored.stream == creation.id else { return true }
                decoded.append(try CreationEvent.decode(typeUTF8: stored.typeUTF8, schemaVersion: stored.schemaVersion, payload: stored.payload))
                return true
            }
        }
        var foldedAlone = 0
        let foldOnly = Timings(runs: runs) {
            var state = Creation(id: creation.id)
            for event in decoded { state.fold(event) }
            foldedAlone = Int(state.version)  // read, so that the fold is not optimized away
        }
        print(String(format: "  replay of %d events: median %.2f s, %@; written in batches of 1,000 at %.0f events/s",
                     folded, read.median, read.rate(folded, "events/s"), Double(count) / write))
        print(String(format: "  reading and checking them alone (checksums, no payloads decoded): median %.2f s, %@",
                     readOnly.median, readOnly.rate(checked, "events/s")))
        print(String(format: "  its parts: reading, checking and decoding into a list %@; folding that list alone %@",
                     decodeOnly.rate(decoded.count, "events/s"), foldOnly.rate(foldedAlone, "events/s")))
    }
}
