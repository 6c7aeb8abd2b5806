import ArgumentParser
import Foundation
import Memery

struct SalvageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "salvage",
        abstract: "Copy everything readable of a damaged store into a new one, and say what was left behind.",
        discussion: "A creation that damage touched (a record that fails its checksum, a picture that fails its hash) is left behind whole; everything else is copied with its history, ids and pictures, as a sync would carry it. The damaged store is only read.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: ResultOptions

    @Argument(help: ArgumentHelp("A new, empty folder for the copy.", valueName: "new-store"))
    var target: String

    func run() throws {
        let report = try storeOptions.open().salvage(into: URL(fileURLWithPath: target))
        try output.report(SalvageAnswer(events: report.events, pictures: report.pictures, creations: report.creations, leftBehind: report.leftBehind)) {
            print("copied \(report.creations.count) creation\(report.creations.count == 1 ? "" : "s") (\(report.events) events, \(report.pictures) pictures) to \(target)")
            for line in report.leftBehind { print("left behind: " + line) }
        }
    }
}

/// What `salvage --json` prints: what was copied, and what was left behind and why.
struct SalvageAnswer: Encodable {
    var events: Int
    var pictures: Int
    var creations: [String]
    var leftBehind: [String]
}
