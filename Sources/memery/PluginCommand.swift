import Memery
import ArgumentParser
import Foundation

struct PluginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin", abstract: "Check filter plugins.", subcommands: [PluginCheckCommand.self])
}

struct PluginCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load a plugin in isolation and put each of its filters through odd sizes, strides and parameters.",
        discussion: "Prints pass or fail for each check with the reason; exits 1 when any check fails.")

    @Argument(help: "The plugin's shared library.") var file: String

    func run() throws {
        guard FileManager.default.fileExists(atPath: file) else { throw InputError("no file \(file)") }
        let path = URL(fileURLWithPath: file).standardizedFileURL.path
        let results = PluginTools.check(pluginAt: path)
        for result in results {
            print("\(result.passed ? "pass" : "FAIL")  \(result.check)\(result.reason.isEmpty ? "" : ": \(result.reason)")")
        }
        let failed = results.filter { !$0.passed }.count
        print(failed == 0 ? "all \(results.count) checks passed" : "\(failed) of \(results.count) checks failed")
        if failed > 0 { throw ExitCode(1) }
    }
}
