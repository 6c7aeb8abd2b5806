import Memery
import ArgumentParser
import Foundation

/// Runs the command and turns every failure into a message and an exit code:
/// 0 success, 1 bad input, 2 usage, 3 damaged store, 4 the hub. With `--json` the failure is
/// a JSON object on standard error: {"error": MESSAGE, "exit": CODE}.
@main
enum EntryPoint {
    static func main() async {
        // A closed pipe must give an error, not kill the process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let arguments = storeFirst(Array(CommandLine.arguments.dropFirst()))
        // `memery new --image FILE`: the picture's helper runs while the arguments are parsed.
        _ = PictureReadAheadAtStart.picture
        let json = arguments.prefix(while: { $0 != "--" }).contains("--json")
        // The parser takes "-help" for --help: as a name it would print help and succeed.
        if arguments.prefix(while: { $0 != "--" }).contains("-help") {
            fail("\"-help\" was read as an option: a name cannot start with '-' (it would always read as one); for help, give --help or -h",
                 code: 2, json: json)
        }
        // The command parsed, so that an error its run() throws is said with its usage.
        var parsed: any ParsableCommand.Type = MemeryCommand.self
        do {
            var command = try MemeryCommand.parseAsRoot(arguments)
            parsed = type(of: command)
            try (command as? any ArgumentChecks)?.checkArguments()
            // Commands that talk to a hub, a server or a download are async; the rest run as they are.
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            if let failure = Failure(error) {
                fail(failure.message, code: failure.exitCode, json: json)
            }
            // Argument-parser's own errors: help and version succeed, the rest are usage.
            let code = MemeryCommand.exitCode(for: error)
            let message = usageMessage(for: error, of: parsed)
            if code == .success {
                print(message)
                Foundation.exit(0)
            }
            fail(message + (optionLikeNameNote(message, arguments: arguments).map { "\n" + $0 } ?? ""), code: 2, json: json, prefix: "")
        }
    }

    /// Argument-parser's message for `error`. A usage error a command throws after the
    /// parse (`ArgumentChecks.checkArguments()`, or its run()) is said with that command's
    /// usage, as the parser says its own.
    static func usageMessage(for error: any Error, of command: any ParsableCommand.Type) -> String {
        guard command != MemeryCommand.self, let validation = error as? ValidationError else { return MemeryCommand.fullMessage(for: error) }
        let usage = MemeryCommand.usageString(for: command)
        let path = usage.split(separator: " ").prefix { !$0.hasPrefix("[") && !$0.hasPrefix("<") && !$0.hasPrefix("-") }.joined(separator: " ")
        return "Error: \(validation.message)\nUsage: \(usage)\n  See '\(path) --help' for more information."
    }

    /// Says a failure on standard error, as a person reads it or as JSON, and exits.
    static func fail(_ message: String, code: Int32, json: Bool, prefix: String = "error: ") -> Never {
        if json, let object = try? JSONSerialization.data(withJSONObject: ["error": message, "exit": code] as [String: Any],
                                                         options: [.sortedKeys, .withoutEscapingSlashes]) {
            FileHandle.standardError.write(object + Data("\n".utf8))
        } else {
            FileHandle.standardError.write(Data("\(prefix)\(message)\n".utf8))
        }
        Foundation.exit(code)
    }

    /// `--store DIR` given before the command (`memery --store DIR list`) moved after it, where
    /// every command reads it (before a `--`, after which everything is a value).
    static func storeFirst(_ arguments: [String]) -> [String] {
        var rest = arguments, moved = [String]()
        while let first = rest.first {
            if first == "--store", rest.count >= 2 {
                moved += rest.prefix(2)
                rest.removeFirst(2)
            } else if first.hasPrefix("--store=") {
                moved.append(first)
                rest.removeFirst()
            } else {
                break
            }
        }
        rest.insert(contentsOf: moved, at: rest.firstIndex(of: "--") ?? rest.endIndex)
        return rest
    }

    /// A name typed as `-foo` is read as an option, and the parser then misses the name: say
    /// so, since "Missing expected argument" alone points the other way.
    static func optionLikeNameNote(_ message: String, arguments: [String]) -> String? {
        guard message.contains("Missing expected argument"),
              let token = arguments.first(where: { $0.count > 2 && $0.hasPrefix("-") && !$0.hasPrefix("--") })
        else { return nil }
        return "note: \"\(token)\" was read as an option: a name cannot start with '-' (it would always read as one); choose a name that starts otherwise"
    }
}
