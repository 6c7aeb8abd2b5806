import ArgumentParser
import Memery

struct QuickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quick",
        abstract: "From a picture to a meme in one step; keeps the creation and prints its name.")

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The picture.")
    var image: String

    @OptionGroup var captions: CaptionOptions
    @OptionGroup var style: TextStyleOptions

    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var result: ResultOptions

    func run() throws {
        let format = try outputOptions.resolvedFormat()
        let workspace = try storeOptions.open()
        if outputOptions.toStandardOutput {
            // The picture is the output: the creation's name is not printed into it.
            let (_, picture) = try workspace.quick(imageAt: image, top: captions.top, bottom: captions.bottom, style: try style.changes(),
                                                   format: format, quality: outputOptions.quality)
            try outputOptions.writeToStandardOutput(picture.data)
            outputOptions.tell(picture)
            return
        }
        let (name, picture) = try workspace.quick(imageAt: image, top: captions.top, bottom: captions.bottom, style: try style.changes(),
                                                  output: outputOptions.output, format: format, quality: outputOptions.quality)
        outputOptions.tell(picture)
        try result.report(QuickAnswer(creation: name, output: outputOptions.output, format: format.rawValue, frames: picture.frames)) { print(name) }
    }
}

/// What `quick --json` prints: the creation kept and the picture written.
struct QuickAnswer: Encodable {
    var creation: String
    var output: String
    var format: String
    var frames: Int
}
