import ArgumentParser
import Foundation
import Memery
import MemeryStore

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Print the store's global event log, every stream, in order.",
        discussion: "Purged events keep their place in the log but nothing of their content; they are left out here.")

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The first sequence to print.")
    var from: UInt64 = 1

    @Flag(help: "Print the envelopes as JSON.")
    var json = false

    func run() throws {
        let workspace = try storeOptions.open()
        var envelopes = [[String: Any]]()
        try workspace.store.forEachEvent(from: from) { event in
            guard !event.isPurged else { return true }
            if json {
                envelopes.append(try event.envelopeJSON())
            } else {
                print("#\(event.sequence)\t\(event.stream.uuidString.lowercased())\tv\(event.version)\t\(HistoryTreeText.time(event.timeMilliseconds))\t\(event.type)")
            }
            return true
        }
        if json { try printJSON(envelopes) }
    }
}
