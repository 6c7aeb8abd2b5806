import Memery
import ArgumentParser
import Foundation

/// The hidden helper mode that runs third-party plugins in a process of their own.
struct PluginWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "__plugin-worker", shouldDisplay: false)

    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func run() throws {
        throw ExitCode(PluginTools.runWorker(arguments))
    }
}
