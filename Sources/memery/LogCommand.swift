import ArgumentParser
import Foundation
import Memery

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Print the store's global event log, every stream, in order.",
        discussion: "Purged events keep their place in the log but nothing of their content; they are left out here.")

    @OptionGroup var storeOptions: StoreOptions

    @Option(parsing: .unconditional, help: "The first sequence to print.")
    var from: UInt64 = 1

    @Flag(help: "Print the envelopes as JSON.")
    var json = false

    func run() throws {
        let workspace = try storeOptions.open()
        if json {
            var writer = EnvelopeArrayWriter(into: writeToStandardOutput)
            try workspace.forEachLogEntry(from: from) { try writer.append($0) }
            try writer.finish()
            return
        }
        var times = EditTimeFormatter()
        try workspace.forEachLogEntry(from: from) { event in
            let stream = event.streamName ?? event.stream.uuidString.lowercased()
            print("#\(event.sequence)\t\(stream)\tv\(event.version)\t\(times.text(event.timeMilliseconds))\t\(event.type)")
        }
    }
}
