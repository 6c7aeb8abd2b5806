import ArgumentParser
import Foundation
import Memery

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "List a creation's events, oldest first.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @Flag(help: "Print the event envelopes, payloads included, as JSON.")
    var json = false

    func run() throws {
        let entries = try storeOptions.open().history(of: name)
        if json {
            try printJSON(try entries.map { try $0.event.envelopeJSON() })
            return
        }
        let formatter = ISO8601DateFormatter()
        for entry in entries {
            print("#\(entry.event.sequence)\tv\(entry.event.version)\t\(formatter.string(from: entry.event.time))\t\(entry.event.type)\t\(entry.summary)")
        }
    }
}
