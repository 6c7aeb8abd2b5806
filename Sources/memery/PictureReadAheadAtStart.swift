import Memery

/// `memery new NAME --image FILE`: the picture's helper process is started at the top of
/// `main`, before argument-parser parses the arguments, and `main` waits until it runs. The
/// parse (the parser's reflection over the binary's conformances, 3-5 ms here) then overlaps
/// the decoding on the other core, instead of competing with the thread that reads the file
/// and starts the helper (docs/benchmarks-history.md, 2026-12-01: about 0.9 of the time
/// of starting it after the parse). `NewCommand` takes it only for the file the parser names;
/// an argument list this plain look cannot read for sure (two `--image`s, help, no `new`
/// first) starts nothing early, and the command reads its picture as before. When the parse
/// then refuses the arguments, the helper ends by itself, within its limits.
enum PictureReadAheadAtStart {
    /// Started on first use (`EntryPoint.main`), from the process's own arguments.
    static let picture: PictureReadAhead? = imagePath(in: EntryPoint.storeFirst(Array(CommandLine.arguments.dropFirst()))).map { path in
        let picture = PictureReadAhead(path: path)
        picture.waitUntilHelperStarted()
        return picture
    }

    /// The read-ahead started for `path`, if one was.
    static func taken(for path: String) -> PictureReadAhead? {
        picture.flatMap { $0.path == path ? $0 : nil }
    }

    /// The file of `new ... --image FILE` (or `--image=FILE`) when it is named once, before
    /// any `--`; nil for every other command, and for help (which decodes nothing).
    static func imagePath(in arguments: [String]) -> String? {
        guard arguments.first == "new" else { return nil }
        let options = arguments.dropFirst().prefix(while: { $0 != "--" })
        guard !options.contains(where: { ["--help", "-h"].contains($0) }) else { return nil }
        var paths = [String]()
        var index = options.startIndex
        while index < options.endIndex {
            let argument = options[index]
            if argument == "--image", options.index(after: index) < options.endIndex {
                index = options.index(after: index)
                paths.append(options[index])
            } else if argument.hasPrefix("--image=") {
                paths.append(String(argument.dropFirst("--image=".count)))
            }
            index = options.index(after: index)
        }
        return paths.count == 1 ? paths[0] : nil
    }
}
