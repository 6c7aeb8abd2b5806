import ArgumentParser
import Foundation
import Memery

struct ExportCommand: ParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Render a creation to PNG, JPEG, WebP or GIF (an animated one to an animated GIF or WebP).")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @OptionGroup var outputOptions: OutputOptions

    @OptionGroup var result: ResultOptions

    @Option(parsing: .unconditional, help: "Scale the picture down to this many pixels wide (the height keeps the aspect); never up.")
    var width: Int?

    @Flag(help: "Export even if some of the creation's filters are not installed, leaving those out.")
    var skipMissingFilters = false

    enum Credits: String, ExpressibleByArgument, CaseIterable { case caption, file }

    @Option(help: ArgumentHelp(
        "Credit the pictures taken from the web: caption (a line under the picture) or file (OUTPUT.credits.txt beside it).",
        discussion: "Their titles, authors, licences and pages, as `show` prints them; a creation with none is exported as it is."))
    var credits: Credits?

    func checkArguments() throws {
        if let width, width < 1 { throw ValidationError("--width must be at least 1 pixel, not \(width).") }
        if credits != nil && outputOptions.toStandardOutput { throw ValidationError("--credits needs a file to write (-o FILE), not standard output") }
        if result.json && outputOptions.toStandardOutput { throw ValidationError("--json reports a file written: give -o FILE, not standard output") }
    }

    func run() throws {
        let format = try outputOptions.resolvedFormat()
        let workspace = try storeOptions.open()
        if outputOptions.toStandardOutput {
            let picture = try workspace.picture(of: name, width: width, format: format, quality: outputOptions.quality, skipMissingFilters: skipMissingFilters)
            try outputOptions.writeToStandardOutput(picture.data)
            outputOptions.tell(picture)
            return
        }
        let picture = credits == .caption
            ? try workspace.exportWithCreditLine(name, to: outputOptions.output, width: width, format: format, quality: outputOptions.quality,
                                                 skipMissingFilters: skipMissingFilters)
            : try workspace.export(name, to: outputOptions.output, width: width, format: format, quality: outputOptions.quality,
                                   skipMissingFilters: skipMissingFilters)
        var creditsFile: String?
        if credits == .file {
            let lines = try workspace.credits(of: name).map(\.credit)
            let file = outputOptions.output + ".credits.txt"
            let text = lines.isEmpty ? "No picture in \(name) came from the web.\n" : lines.joined(separator: "\n") + "\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
            creditsFile = file
        }
        let written = ExportAnswer(creation: name, output: outputOptions.output, format: format.rawValue, frames: picture.frames,
                                   bytes: picture.data.count, note: picture.note, credits: creditsFile)
        try result.report(written) {
            outputOptions.tell(picture)
            print(outputOptions.output)
            if let creditsFile { print(creditsFile) }
        }
    }
}

/// What `export --json` prints: the picture written, and the credits file beside it.
struct ExportAnswer: Encodable {
    var creation: String
    var output: String
    var format: String
    var frames: Int
    var bytes: Int
    @Nullable var note: String?
    @Nullable var credits: String?
}
