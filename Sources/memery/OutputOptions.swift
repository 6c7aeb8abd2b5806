public import Memery
public import ArgumentParser  // a conformance of the engine's types to its protocol is public
import Foundation

extension ExportFormat: ExpressibleByArgument {
    public init?(argument: String) {
        if argument.lowercased() == "jpg" { self = .jpeg } else { self.init(rawValue: argument.lowercased()) }
    }
}

/// Where and how a picture is written: `-o FILE [--format png|jpeg|webp] [--quality 1-100]`.
struct OutputOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .long], parsing: .unconditional, help: ArgumentHelp("The picture to write.", valueName: "file"))
    var output: String

    @Option(parsing: .unconditional, help: "png, jpeg or webp; by default the output file's extension decides.")
    var format: ExportFormat?

    @Option(parsing: .unconditional, help: "JPEG and WebP quality, 1 to 100.")
    var quality: Int = ExportFormat.defaultQuality

    /// The format asked for; an unknown extension is bad input (exit 1), found in `run()`.
    func resolvedFormat() throws -> ExportFormat {
        if let format { return format }
        let ext = URL(fileURLWithPath: output).pathExtension
        guard let format = ExportFormat(pathExtension: ext) else {
            throw InputError("cannot tell the format from \"\(output)\": name it .png, .jpg or .webp, or give --format png|jpeg|webp")
        }
        return format
    }
}
