import ArgumentParser
import Foundation
import Memery
import MemeryStore

struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply edits given as JSON Lines, each durably committed before it is acknowledged.",
        discussion: """
        Each input line is a JSON object: {"op": COMMAND, ...that command's options}. Ops: \(ScriptedEdit.ops.joined(separator: ", ")).
        Each line gets one JSON line on stdout once it is on disk: {"ok":true,"seq":N} (seq is null when nothing changed; \
        "layer" names the layer an add made) or {"ok":false,"line":N,"error":"..."}. A bad line is refused and the rest go on; \
        the exit code is 1 when any line was refused. This is the interface for bots and scripts.
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Option(help: ArgumentHelp("Read the lines from a file (default: standard input, or -).", valueName: "file"))
    var file: String?

    func run() throws {
        let session = try storeOptions.open().session(name)
        let input: FileHandle
        if let file, file != "-" {
            guard let handle = FileHandle(forReadingAtPath: file) else { throw InputError("cannot read \(file)") }
            input = handle
        } else {
            input = FileHandle.standardInput
        }
        var failures = 0, number = 0
        for line in LineReader(input) {
            number += 1
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            do {
                let (events, layer) = try ScriptedEdit(line: line).perform(on: session)
                FailPoint.pass(FailPoint.afterCommitBeforeAcknowledgement)
                acknowledge([("ok", true), ("seq", events.last.map { $0.sequence as Any } ?? NSNull())] + (layer.map { [("layer", $0)] } ?? []))
            } catch {
                failures += 1
                let failure = Failure(error)
                acknowledge([("ok", false), ("error", failure?.message ?? String(describing: error)), ("line", number)])
                if failure?.exitCode == Failure.damagedStore { throw ExitCode(3) }
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
    var done = false

    init(_ handle: FileHandle) { self.handle = handle }

    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                return String(decoding: line, as: UTF8.self)
            }
            if done {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            let chunk = handle.availableData
            if chunk.isEmpty { done = true } else { buffer.append(chunk) }
        }
    }
}
