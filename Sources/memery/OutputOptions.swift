public import Memery
public import ArgumentParser  // a conformance of the engine's types to its protocol is public
import Foundation

extension ExportFormat: ExpressibleByArgument {
    public init?(argument: String) {
        if argument.lowercased() == "jpg" { self = .jpeg } else { self.init(rawValue: argument.lowercased()) }
    }
}

/// Where and how a picture is written: `-o FILE [--format png|jpeg|webp|gif] [--quality 1-100]`.
struct OutputOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .long], parsing: .unconditional,
            help: ArgumentHelp("The picture to write; - writes it to standard output (with --format).", valueName: "file"))
    var output: String

    /// `-o -`: the picture goes to standard output.
    var toStandardOutput: Bool { output == "-" }

    @Option(parsing: .unconditional, help: "png, jpeg, webp or gif; by default the output file's extension decides.")
    var format: ExportFormat?

    @Option(parsing: .unconditional, help: "JPEG and WebP quality, 1 to 100 (GIF has none: each frame gets its own 256 colours).")
    var quality: Int = ExportFormat.defaultQuality

    /// The format asked for; an unknown extension is bad input (exit 1), found in `run()`.
    /// Also refuses an output that is a directory, and an extension that names another format
    /// than --format asks for (a .png file holding a JPEG confuses whatever opens it).
    func resolvedFormat() throws -> ExportFormat {
        if toStandardOutput {
            guard let format else { throw InputError("writing the picture to standard output (-o -) needs --format png|jpeg|webp|gif") }
            return format
        }
        var isDirectory: ObjCBool = false
        if output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue) {
            throw InputError("\"\(output)\" is a directory: give a file name in it, e.g. \((output as NSString).appendingPathComponent("meme.png"))")
        }
        let ext = URL(fileURLWithPath: output).pathExtension
        let named = ExportFormat(pathExtension: ext)
        if let format {
            if let named, named != format {
                throw InputError("\"\(output)\" is named as \(named.rawValue) but --format asks for \(format.rawValue): name it .\(format.fileExtension) or leave out --format")
            }
            return format
        }
        guard let named else {
            throw InputError("cannot tell the format from \"\(output)\": name it .png, .jpg, .webp or .gif, or give --format png|jpeg|webp|gif")
        }
        return named
    }

    /// Says on standard error what became of an animation written as one frame.
    func tell(_ picture: Picture) {
        if let note = picture.note { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
    }

    /// Writes the encoded picture to standard output (`-o -`). A reader that stops early
    /// (`| head -c 8`) is not an error of ours: the rest is dropped quietly.
    func writeToStandardOutput(_ picture: Data) throws {
        do {
            try FileHandle.standardOutput.write(contentsOf: picture)
        } catch let error as NSError where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(EPIPE) {
            return
        } catch {
            throw InputError("could not write the picture to standard output: \(error.localizedDescription)")
        }
    }
}
