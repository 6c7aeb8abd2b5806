import ArgumentParser
import Foundation
import Memery
import MemeryWeb

struct ApplyCommand: AsyncParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply edits given as JSON Lines, each durably committed before it is acknowledged.",
        discussion: """
        Each input line is one edit as a JSON object: {"op": OP, ...its fields}; docs/apply.md lists every op, and \
        schemas/edit.schema.json describes them. Ops: \(Edit.ops.joined(separator: ", ")).
        With NAME, lines are edits of that creation; without it, each line names its creation in a "creation" field \
        (the garage's ops need none), so one stream can do a bot's whole work.
        Each line gets one JSON line on stdout once it is on disk: {"ok":true,"seq":N,"version":V} (seq is the global \
        sequence of the last event stored, null when nothing changed; version is the creation's event number, as \
        `history` shows it; "layer" names the layer an add made, "filter" the position of a filter) or \
        {"ok":false,"line":N,"error":"..."}. A bad line is refused and the rest go on (but a full disk or a read-only \
        store stops it at the first line it fails); the exit code is 1 when any line was refused, 3 when the store is damaged. This is the interface for bots and scripts.
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation the lines edit (default: each line's \"creation\").")
    var name: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Read the lines from a file (default: standard input, or -).", valueName: "file"))
    var file: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The largest picture a line's \"url\" may give, in MB (each is downloaded within 20 s).", valueName: "mb"))
    var maxDownloadMb = PictureDownloader.defaultMaxMB

    @Flag(help: "After the last line's answer, one more: {\"done\":true,\"lines\":N,\"applied\":A,\"refused\":R}.")
    var json = false

    func checkArguments() throws {
        guard (1...1024).contains(maxDownloadMb) else { throw ValidationError("--max-download-mb must be between 1 and 1024, got \(maxDownloadMb)") }
    }

    func run() async throws {
        let workspace = try storeOptions.open()
        if let name { _ = try workspace.entry(named: name) }  // a NAME that is not there fails at once
        let runner = EditRunner(workspace: workspace)
        let downloader = LinkOptions.ownDownloader(maxMB: maxDownloadMb)
        let input: FileHandle
        if let file, file != "-" {
            guard let handle = FileHandle(forReadingAtPath: file) else { throw InputError("cannot read \(file)") }
            input = handle
        } else {
            input = FileHandle.standardInput
        }
        var failures = 0, number = 0, applied = 0
        // The summary comes last, whatever ends the stream (a refused line exits 1 after it).
        defer { if json { acknowledge([("done", true), ("lines", applied + failures), ("applied", applied), ("refused", failures)]) } }
        for line in LineReader(input) {
            number += 1
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            do {
                let addressed = try AddressedEdit.decode(jsonLine: line)
                let target = addressed.creation ?? name
                // A line's "url" is downloaded here, as `--url` is, before the edit runs.
                let edit = try await addressed.edit.resolvingLinks { try await downloader.picture($0) }
                let result = try runner.perform(edit, on: target)
                FailPoints.afterCommitBeforeAcknowledgement()
                var fields: [(String, Any)] = [("ok", true), ("seq", result.sequence.map { $0 as Any } ?? NSNull())]
                if let version = result.version { fields.append(("version", version)) }
                if let creation = result.creation, name == nil || creation != name { fields.append(("creation", creation)) }
                if let layer = result.layer { fields.append(("layer", layer)) }
                if let layerID = result.layerID { fields.append(("layerId", layerID)) }
                if let filter = result.filter { fields.append(("filter", filter)) }
                if let item = result.garageItem { fields.append(("image", item.name)) }
                applied += 1
                acknowledge(fields)
            } catch {
                failures += 1
                let failure = Failure(error)
                acknowledge([("ok", false), ("error", failure?.message ?? String(describing: error)), ("line", number)])
                if failure?.exitCode == Failure.damagedStore { throw ExitCode(3) }
                // A full disk or a store that cannot be written fails every line after it
                // the same way: stop at the first, which said why.
                if MemeryError(classifying: error)?.kind == .storage { throw ExitCode(1) }
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// One JSON line, fields in the order given ("ok" first), written at once: a reader may
    /// act on it before the next edit is read.
    private func acknowledge(_ fields: [(String, Any)]) {
        let parts = fields.map { key, value -> String in
            let encoded = (try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes]))
                .map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? "null"
            return "\"\(key)\":\(encoded)"
        }
        FileHandle.standardOutput.write(Data(("{" + parts.joined(separator: ",") + "}\n").utf8))
    }
}

/// Lines of a file handle, read as they arrive (a bot may stream them).
struct LineReader: Sequence, IteratorProtocol {
    let handle: FileHandle
    var buffer = Data()
    /// Where the next line starts in `buffer`, and how far it is known to hold no newline:
    /// each byte is looked at once, so a 20 MB line takes as long as 20 MB of short ones
    /// (rescanning from the start was quadratic: 2 MB took 5 s, 20 MB over 10 minutes).
    var start = 0
    var scanned = 0
    var done = false

    init(_ handle: FileHandle) { self.handle = handle }

    mutating func next() -> String? {
        while true {
            if let newline = buffer[(buffer.startIndex + Swift.max(start, scanned))...].firstIndex(of: 0x0A) {
                let line = buffer[(buffer.startIndex + start)..<newline]
                start = newline - buffer.startIndex + 1
                scanned = start
                return String(decoding: line, as: UTF8.self)
            }
            scanned = buffer.count
            if done {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return String(decoding: buffer[(buffer.startIndex + start)...], as: UTF8.self)
            }
            // Lines already returned are dropped before reading on (a line in progress is not copied).
            if start > 0 {
                buffer = Data(buffer[(buffer.startIndex + start)...])
                scanned -= start
                start = 0
            }
            let chunk = handle.availableData
            if chunk.isEmpty { done = true } else { buffer.append(chunk) }
        }
    }
}
