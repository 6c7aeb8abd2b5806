import ArgumentParser
import Foundation
import Memery

struct HistoryCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show a creation's history as a tree: every edit by event number and time, branches, and the head.",
        discussion: "Undo, redo and checkout move the head (marked ←); an edit made after an undo starts a branch, and every branch stays. `--events` lists the raw events instead.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "List every event in order, undo and redo included (with --json: the stored envelopes).")
    var events = false

    @Option(help: ArgumentHelp("Show only the last N edits leading to the head, and where branches leave them (with --events: the last N events).",
                               discussion: "Read from the history index: as fast at 100,000 edits as at 100.", valueName: "N"))
    var last: Int?

    func checkArguments() throws {
        if let last, last < 1 { throw ValidationError("--last takes a number of edits, 1 or more (got \(last))") }
    }

    func run() throws {
        let workspace = try storeOptions.open()
        if events {
            let entries = try workspace.events(of: name).suffix(last ?? Int.max)
            if json {
                var writer = EnvelopeArrayWriter(into: writeToStandardOutput)
                for entry in entries { try writer.append(entry) }
                try writer.finish()
            } else {
                var times = EditTimeFormatter()
                for entry in entries {
                    print("v\(entry.version)\t#\(entry.sequence)\t\(times.text(entry.timeMilliseconds))\t\(entry.type)\t\(entry.summary)")
                }
            }
            return
        }
        if let last {
            let line = try workspace.headLine(of: name, last: last)
            if json { try printJSON(line) } else { HistoryTreeText.lines(line).forEach { print($0) } }
            return
        }
        if json {
            try printJSON(try workspace.historyTree(of: name))
        } else {
            try workspace.drawHistory(of: name, to: writeToStandardOutput)
        }
    }
}

