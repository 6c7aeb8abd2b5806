import ArgumentParser
import Foundation
import Memery
import MemeryHubClient

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Read the whole store and check every checksum and index; exit 3 when damaged.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: ResultOptions

    func run() throws {
        let workspace = try storeOptions.open()
        let report = try workspace.verify()
        // Not damage: edits from the hub this store holds apart, named so that nothing is hidden.
        let setAside = SetAsideEvents.load(workspace).lines(in: workspace)
        if output.json {
            try printJSON(VerifyAnswer(report, setAside: setAside))
            if !report.isClean { throw ExitCode(3) }
            return
        }
        let purged = report.purged > 0 ? " (and \(report.purged) purged)" : ""
        print("format \(report.formatVersion): \(report.events) events\(purged) in \(report.streams) streams, \(report.blobs) blobs (\(report.blobBytes) bytes), \(report.names) names")
        for line in setAside { print("set aside: " + line) }
        if !report.isClean {
            for problem in report.problems { print("damaged: \(problem)") }
            if report.unlisted > 0 { print("and \(report.unlisted) more problems") }
            if let sequence = report.badSequence { print("first bad sequence: \(sequence)") }
            if !report.damagedCreations.isEmpty {
                print("damaged creations: " + report.damagedCreations.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            throw ExitCode(3)
        }
        print("ok")
    }
}

/// What `verify --json` prints: what the store holds, and every problem found.
struct VerifyAnswer: Encodable {
    var format: Int
    var events: Int
    var purged: Int
    var streams: Int
    var blobs: Int
    var blobBytes: Int
    var names: Int
    var ok: Bool
    @Nullable var problem: String?
    var problems: [String]
    var unlisted: Int
    var damagedCreations: [String]
    @Nullable var badSequence: UInt64?
    /// Edits from the hub this store holds apart: not damage, named so nothing is hidden.
    var setAside: [String]

    init(_ report: StoreCheck, setAside: [String]) {
        format = report.formatVersion; events = report.events; purged = report.purged; streams = report.streams
        blobs = report.blobs; blobBytes = report.blobBytes; names = report.names; ok = report.isClean
        problem = report.problem; problems = report.problems; unlisted = report.unlisted
        damagedCreations = report.damagedCreations; badSequence = report.badSequence; self.setAside = setAside
    }
}
