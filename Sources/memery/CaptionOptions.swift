import Memery
import ArgumentParser

/// `--top TEXT --bottom TEXT`, for the commands that set captions.
struct CaptionOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "The top caption; an empty string removes it.")
    var top: String?

    @Option(parsing: .unconditional, help: "The bottom caption; an empty string removes it.")
    var bottom: String?
}
