import Foundation
import Memery
import MemeryHub
import MemeryHubClient
import MemeryWeb

/// A user-facing failure: the message after `error:` and the exit code.
struct Failure {
    var message: String
    var exitCode: Int32

    static let badInput: Int32 = 1
    static let damagedStore: Int32 = 3
    /// The hub could not be reached, or refused (a wrong password, a revoked session).
    static let hub: Int32 = 4

    init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    /// Classifies the CLI's and the engine's errors; nil for argument-parser's.
    init?(_ error: Error) {
        if let error = error as? HubClientError {
            self.init(message: error.description, exitCode: error.isBadInput ? Self.badInput : Self.hub)
        } else if let error = error as? DownloadError {
            self.init(message: error.description, exitCode: Self.badInput)
        } else if let error = error as? WebSearchError {
            self.init(message: error.description, exitCode: Self.badInput)
        } else if let error = error as? HubStartError {
            self.init(message: error.description, exitCode: Self.badInput)
        } else if let error = error as? InputError {
            self.init(message: error.message, exitCode: Self.badInput)
        } else if let error = MemeryError(classifying: error) {
            self.init(message: Hints.hint(for: error).map { "\(error.message): \($0)" } ?? error.message, exitCode: error.exitCode)
        } else {
            return nil
        }
    }
}

/// Bad input found by the CLI itself (a value out of range, an unknown file extension).
struct InputError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
