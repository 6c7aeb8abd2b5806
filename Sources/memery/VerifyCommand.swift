import ArgumentParser
import Memery

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Read the whole store and check every checksum and index; exit 3 when damaged.")

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let report = try storeOptions.open().verify()
        let purged = report.purged > 0 ? " (and \(report.purged) purged)" : ""
        print("format \(report.formatVersion): \(report.events) events\(purged) in \(report.streams) streams, \(report.blobs) blobs (\(report.blobBytes) bytes), \(report.claims) names")
        if let problem = report.problem {
            print("damaged: \(problem)")
            if let sequence = problem.sequence { print("first bad sequence: \(sequence)") }
            throw ExitCode(3)
        }
        print("ok")
    }
}
