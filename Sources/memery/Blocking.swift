import Foundation
import MemeryHub

/// Runs async work from a synchronous command, and turns what it throws into the CLI's
/// failures: the hub's own start errors and `describing`'s words as bad input.
enum Blocking {
    static func run(_ work: @escaping @Sendable () async throws -> Void, describing: @escaping (any Error) -> String? = { _ in nil }) throws {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)?
        Task {
            do { try await work() } catch { failure = error }
            done.signal()
        }
        done.wait()
        guard let failure else { return }
        if let start = failure as? HubStartError { throw InputError(start.description) }
        if let words = describing(failure) { throw InputError(words) }
        throw failure
    }
}
