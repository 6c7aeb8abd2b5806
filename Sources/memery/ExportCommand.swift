import ArgumentParser
import Foundation
import Memery

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Render a creation to PNG, JPEG, WebP or GIF (an animated one to an animated GIF or WebP).")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The creation's name.")
    var name: String

    @OptionGroup var outputOptions: OutputOptions

    @Option(help: "Scale the picture down to this many pixels wide (the height keeps the aspect); never up.")
    var width: Int?

    @Flag(help: "Export even if some of the creation's filters are not installed, leaving those out.")
    var skipMissingFilters = false

    func validate() throws {
        if let width, width < 1 { throw ValidationError("--width must be at least 1 pixel, not \(width).") }
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
        let picture = try workspace.export(name, to: outputOptions.output, width: width, format: format, quality: outputOptions.quality,
                                           skipMissingFilters: skipMissingFilters)
        outputOptions.tell(picture)
        print(outputOptions.output)
    }
}
