import Memery
import ArgumentParser
import Foundation

/// Runs the command and turns every failure into a message and an exit code:
/// 0 success, 1 bad input, 2 usage, 3 damaged store.
@main
enum EntryPoint {
    static func main() {
        // A closed pipe must give an error, not kill the process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try MemeryCommand.parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            if let failure = Failure(error) {
                FileHandle.standardError.write(Data("error: \(failure.message)\n".utf8))
                Foundation.exit(failure.exitCode)
            }
            // Argument-parser's own errors: help and version succeed, the rest are usage.
            let code = MemeryCommand.exitCode(for: error)
            let message = MemeryCommand.fullMessage(for: error)
            if code == .success {
                print(message)
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data((message + "\n" + (optionLikeNameNote(message).map { $0 + "\n" } ?? "")).utf8))
            Foundation.exit(2)
        }
    }

    /// A name typed as `-foo` is read as an option, and the parser then misses the name: say
    /// so, since "Missing expected argument" alone points the other way.
    static func optionLikeNameNote(_ message: String, arguments: [String] = CommandLine.arguments) -> String? {
        guard message.contains("Missing expected argument"),
              let token = arguments.dropFirst().first(where: { $0.count > 2 && $0.hasPrefix("-") && !$0.hasPrefix("--") })
        else { return nil }
        return "note: \"\(token)\" was read as an option: a name cannot start with '-' (it would always read as one); choose a name that starts otherwise"
    }
}
