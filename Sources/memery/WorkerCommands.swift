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

/// The hidden helper mode that decodes a picture from outside within memory and time limits.
struct ImageWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "__image-worker", shouldDisplay: false)

    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func run() throws {
        throw ExitCode(PluginTools.runImageWorker(arguments))
    }
}
