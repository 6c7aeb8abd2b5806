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
    @Option(name: .customLong("since"), help: ArgumentHelp(
        "An earlier build of the same plugin: parameters it stored are brought up through this build's migrate steps and checked.",
        valueName: "OLD.so")) var older: String?
    @OptionGroup var result: ResultOptions

    func run() throws {
        guard FileManager.default.fileExists(atPath: file) else { throw InputError("no file \(file)") }
        if let older, !FileManager.default.fileExists(atPath: older) { throw InputError("no file \(older) (--since)") }
        let path = URL(fileURLWithPath: file).standardizedFileURL.path
        let results = PluginTools.check(pluginAt: path, since: older.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        let failed = results.filter { !$0.passed }.count
        let checks = results.map { PluginCheckAnswer.Check(check: $0.check, passed: $0.passed, reason: $0.reason) }
        try result.report(PluginCheckAnswer(plugin: path, checks: checks, failed: failed)) {
            for check in results {
                print("\(check.passed ? "pass" : "FAIL")  \(check.check)\(check.reason.isEmpty ? "" : ": \(check.reason)")")
            }
            print(failed == 0 ? "all \(results.count) checks passed" : "\(failed) of \(results.count) checks failed")
        }
        if failed > 0 { throw ExitCode(1) }
    }
}

/// What `plugin check --json` prints: each check, and how many failed.
struct PluginCheckAnswer: Encodable {
    struct Check: Encodable {
        var check: String
        var passed: Bool
        var reason: String
    }
    var plugin: String
    var checks: [Check]
    var failed: Int
}
