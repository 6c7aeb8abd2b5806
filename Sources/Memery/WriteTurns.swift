import Foundation
import MemeryStore

/// The one place a write waits its turn and tries again. Writers in this process take turns
/// (a recursive lock: a write may make another inside it, as a move reads the gallery), so
/// reads never wait for them and a conflict can only mean another process appended between
/// this one's read and its append: then the write reads and decides again.
final class WriteTurns: Sendable {
    private let lock = NSRecursiveLock()
    /// How long a write keeps deciding again while other processes' appends get in first.
    static let patience: Duration = .seconds(30)

    /// Runs `attempt` (given the try number from 1) in this process's turn, again after each
    /// `StoreError.conflict`.
    @discardableResult
    func take<T>(_ attempt: (Int) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        var tries = 0
        let start = ContinuousClock.now
        var random = SystemRandomNumberGenerator()
        while true {
            tries += 1
            do {
                return try attempt(tries)
            } catch StoreError.conflict {
                // A writer streaming edits (`memery apply`) can win many times running, so
                // each retry waits a random while that grows (up to 20 ms), which lets this
                // one through between that writer's appends.
                guard ContinuousClock.now - start < Self.patience else {
                    throw MemeryError(.busy, "another writer kept changing the same creation for \(Self.patience) and this edit could not get in; nothing was stored: try again")
                }
                let ceiling = min(20_000, 250 << min(tries, 7))
                usleep(UInt32.random(in: 0...UInt32(ceiling), using: &random))
            }
        }
    }
}
