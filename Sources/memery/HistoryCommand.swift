import ArgumentParser
import Foundation
import Memery

struct HistoryCommand: ParsableCommand {
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

    func run() throws {
        let workspace = try storeOptions.open()
        if events {
            let entries = try workspace.events(of: name)
            if json {
                try printJSON(entries.map(\.envelope))
            } else {
                for entry in entries {
                    print("v\(entry.version)\t#\(entry.sequence)\t\(HistoryTreeText.time(entry.timeMilliseconds))\t\(entry.type)\t\(entry.summary)")
                }
            }
            return
        }
        let history = try workspace.history(of: name)
        if json {
            try printJSON(HistoryTreeAnswer(history))
        } else {
            HistoryTreeText.lines(history).forEach { print($0) }
        }
    }
}

