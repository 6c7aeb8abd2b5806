import Foundation
@_spi(Tools) import Memery
import MemeryCore
import MemeryStore

/// Kills a `memery apply` that streams edits — at random moments, and at named fail points
/// — and after every kill proves: the store opens with no stale reader left, every
/// acknowledged edit is there and byte-identical, sequences are contiguous and every record
/// sound (verify), and snapshot plus tail equals a full replay. The map starts tiny so it
/// grows under the kills. Meanwhile a second process edits the same creation (SecondWriter):
/// none of its edits may fail, and each one acknowledged must be there at the end.
///
///     memery-crashtest [--kills N] [--memery PATH] [--store DIR]
@main
enum CrashTest {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func main() {
        var kills = 1000, memery = executableDirectory() + "/memery", storePath: String?
        var args = CommandLine.arguments.dropFirst()
        while let arg = args.popFirst() {
            switch arg {
            case "--kills": kills = Int(args.popFirst() ?? "") ?? kills
            case "--memery": memery = args.popFirst() ?? memery
            case "--store": storePath = args.popFirst()
            default:
                print("usage: memery-crashtest [--kills N] [--memery PATH] [--store DIR]")
                exit(2)
            }
        }
        signal(SIGPIPE, SIG_IGN)
        do {
            try run(kills: kills, memery: memery, store: storePath.map(URL.init(fileURLWithPath:))
                    ?? FileManager.default.temporaryDirectory.appendingPathComponent("memery-crashtest-\(getpid())"))
        } catch {
            print("crashtest FAILED: \(error)")
            exit(1)
        }
    }

    static func executableDirectory() -> String {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    static let failPoints = [FailPoint.afterPutBeforeCommit, FailPoint.afterCommitBeforeAcknowledgement,
                             FailPoint.duringSnapshot, FailPoint.duringMapGrowth]

    static func run(kills: Int, memery: String, store: URL) throws {
        try? FileManager.default.removeItem(at: store)
        let mapSize = 64 * 1024
        do {
            let workspace = try Workspace(directory: store, mapSize: mapSize)
            try workspace.create(name: "soak", canvasWidth: 64, height: 64, background: .white)
            try workspace.setCaptions("soak", top: "start", bottom: nil)
        }
        let second = SecondWriter(memery: memery, store: store, mapSize: mapSize)
        defer { second.stop() }
        var rng = SystemRandomNumberGenerator()
        var totals = [String: Int](), acknowledged = 0, started = Date()
        for round in 0..<kills {
            // Three kills in five at a random moment, the others at a fail point's N-th pass.
            let failPoint: String? = round % 5 < 3 ? nil : failPoints.randomElement(using: &rng)
            // A map only grows once; growth is exercised on a fresh store with a tiny map.
            var target = store
            if failPoint == FailPoint.duringMapGrowth {
                target = store.appendingPathExtension("growth")
                try? FileManager.default.removeItem(at: target)
                let fresh = try Workspace(directory: target, mapSize: mapSize)
                try fresh.create(name: "soak", canvasWidth: 64, height: 64, background: .white)
                try fresh.setCaptions("soak", top: "start", bottom: nil)
            }
            if target == store { second.resume() }
            let (replies, texts, how) = try kill(round: round, memery: memery, store: target, mapSize: mapSize,
                                                 failPoint: failPoint.map { "\($0):\(Int.random(in: 1...3, using: &rng))" }, rng: &rng)
            second.pause()
            totals[how, default: 0] += 1
            acknowledged += try check(store: target, mapSize: mapSize, replies: replies, texts: texts, round: round)
            if (round + 1) % 100 == 0 {
                print("after \(round + 1) kills: \(acknowledged) acknowledged edits checked, \(String(format: "%.0f", Date().timeIntervalSince(started))) s")
            }
        }
        try? FileManager.default.removeItem(at: store.appendingPathExtension("growth"))
        second.stop()
        guard second.failures.isEmpty else {
            throw Failure(description: "\(second.failures.count) of the second writer's \(second.failures.count + second.acknowledged.count) edits failed: "
                          + second.failures.prefix(3).joined(separator: "; "))
        }
        let stored = try texts(in: store, mapSize: mapSize)
        if let lost = second.acknowledged.first(where: { !stored.contains($0) }) {
            throw Failure(description: "the second writer's acknowledged caption \(lost) is not in the store")
        }
        let report = try EventStore(directory: store, mapSize: mapSize).verify()
        print("crashtest passed: \(kills) kills (" + totals.keys.sorted().map { "\($0) \(totals[$0]!)" }.joined(separator: ", ")
              + "), \(acknowledged) acknowledged edits present and byte-identical, \(report.events) events in the store, verify clean")
        print("second writer: \(second.acknowledged.count) edits beside the killed ones, 0 failed, all present")
    }

    /// Starts `memery apply`, streams edits into it, and kills it (or lets a fail point do so).
    /// Returns the complete acknowledgement lines, the texts sent in order, and how it died.
    static func kill(round: Int, memery: String, store: URL, mapSize: Int, failPoint: String?,
                     rng: inout SystemRandomNumberGenerator) throws -> ([String], [String], String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: memery)
        process.arguments = ["apply", "soak", "--store", store.path]
        var environment = ProcessInfo.processInfo.environment
        environment["MEMERY_MAP_SIZE"] = String(mapSize)
        environment["MEMERY_FAILPOINT"] = failPoint
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Text long enough that the small map must keep growing.
        let texts = (0..<3000).map { "r\(round)-\($0)-" + String(repeating: "x", count: 40 + $0 % 200) }
        let writer = Thread {
            for text in texts {
                let line = #"{"op":"text","top":"\#(text)"}"# + "\n"
                if (try? input.fileHandleForWriting.write(contentsOf: Data(line.utf8))) == nil { return }
            }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        // Read the acknowledgements as they come: a full pipe would stall the writer.
        // Unsafe, earned: written by the reader, read only after `reader.wait()`.
        nonisolated(unsafe) var collected = Data()
        let reader = DispatchGroup()
        DispatchQueue.global().async(group: reader) { collected = output.fileHandleForReading.readDataToEndOfFile() }
        var how: String
        if let failPoint {
            how = "fail point " + (failPoint.split(separator: ":").first.map(String.init) ?? failPoint)
            let deadline = Date().addingTimeInterval(15)
            while process.isRunning && Date() < deadline { usleep(2000) }
            if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL); how += " (not reached)" }
        } else {
            how = "random"
            usleep(UInt32.random(in: 2_000...120_000, using: &rng))
            Foundation.kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        reader.wait()
        let replies = String(decoding: collected, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)  // the last may be torn
        try? input.fileHandleForWriting.close()
        return (replies, texts, how)
    }

    /// Every caption the store's text edits hold.
    static func texts(in store: URL, mapSize: Int) throws -> Set<String> {
        let workspace = try Workspace(directory: store, mapSize: mapSize)
        var texts = Set<String>()
        for stored in try workspace.eventStore.events(from: 1, limit: Int.max) {
            switch try? CreationEvent.decode(type: stored.type, schemaVersion: stored.schemaVersion, payload: stored.payload) {
            case .textLayerEdited(let e): if let text = e.text { texts.insert(text) }
            case .textLayerAdded(let e): if let text = e.layer.text?.text { texts.insert(text) }
            default: break
            }
        }
        return texts
    }

    /// The checks after one kill; returns how many acknowledged edits it proved present.
    static func check(store: URL, mapSize: Int, replies: [String], texts: [String], round: Int) throws -> Int {
        let workspace: Workspace
        do {
            workspace = try Workspace(directory: store, mapSize: mapSize)
        } catch {
            throw Failure(description: "round \(round): the store does not open: \(error)")
        }
        // Opening cleared the killed process's reader slot: none may be left.
        let stale = try workspace.eventStore.clearStaleReaders()
        guard stale == 0 else { throw Failure(description: "round \(round): \(stale) stale reader slot(s) after opening") }
        let report = try workspace.verify()
        guard report.isClean else { throw Failure(description: "round \(round): verify found \(report.problem!)") }
        var checked = 0
        for (index, reply) in replies.enumerated() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any],
                  object["ok"] as? Bool == true, let sequence = (object["seq"] as? NSNumber)?.uint64Value else {
                throw Failure(description: "round \(round): a reply that is not an acknowledgement: \(reply)")
            }
            guard let stored = try workspace.eventStore.events(from: sequence, limit: 1).first, stored.sequence == sequence else {
                throw Failure(description: "round \(round): acknowledged event \(sequence) is missing")
            }
            let event = try CreationEvent.decode(type: stored.type, schemaVersion: stored.schemaVersion, payload: stored.payload)
            let text: String?
            switch event {
            case .textLayerEdited(let e): text = e.text
            case .textLayerAdded(let e): text = e.layer.text?.text
            default: text = nil
            }
            guard text == texts[index] else {
                throw Failure(description: "round \(round): event \(sequence) says \(text ?? "nothing"), the edit acknowledged was \(texts[index])")
            }
            guard try event.encodedPayload() == stored.payload else {
                throw Failure(description: "round \(round): event \(sequence) is not byte-identical to the edit")
            }
            checked += 1
        }
        let opened = try workspace.head(of: "soak"), replayed = CreationHead(try workspace.history(of: "soak"))
        guard opened == replayed else { throw Failure(description: "round \(round): snapshot + tail differs from a full replay") }
        return checked
    }
}
