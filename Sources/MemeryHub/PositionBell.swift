import Foundation
import Synchronization

/// Where a hub's watchers (`GET /v1/events/watch`) wait for a push to move their user's
/// position: `PositionListener` rings a user when PostgreSQL says their position moved,
/// through this hub or any other. Each watched user has a count of rings; a watcher reads it
/// before it reads the position and waits for it to move, so a ring between the two is never
/// missed. While nothing listens (the connection lost), `isListening` is false: watchers go
/// back to asking the database every quarter second.
final class PositionBell: Sendable {
    private struct Waiter {
        var continuation: CheckedContinuation<Void, Never>
        var timer: Task<Void, Never>?
    }
    private struct Watched {
        var watchers = 0
        var rings: UInt64 = 0
        /// The newest position a notice named, if any did.
        var position: Int64?
        var waiting: [UUID: Waiter] = [:]
    }
    private struct State {
        var users: [Int64: Watched] = [:]
        var listening = false
    }
    private let state = Mutex(State())

    var isListening: Bool { state.withLock { $0.listening } }

    /// The user's rings are counted from now until `unwatch`.
    func watch(_ user: Int64) { state.withLock { $0.users[user, default: Watched()].watchers += 1 } }

    func unwatch(_ user: Int64) {
        state.withLock { state in
            guard var watched = state.users[user] else { return }
            watched.watchers -= 1
            state.users[user] = watched.watchers > 0 ? watched : nil
        }
    }

    /// How often the user was rung since their first watcher came.
    func rings(_ user: Int64) -> UInt64 { state.withLock { $0.users[user]?.rings ?? 0 } }

    /// The newest position a ring named since the user's first watcher came.
    func position(_ user: Int64) -> Int64? { state.withLock { $0.users[user]?.position } }

    /// Returns once `user` has been rung more than `seen` times (at once if so already),
    /// after `timeout`, or when the task is cancelled, whichever comes first.
    func wait(_ user: Int64, since seen: UInt64, atMost timeout: Duration) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waiting = state.withLock { state -> Bool in
                    // Cancelled already, the handler below found nothing to resume: do not wait.
                    guard !Task.isCancelled, let watched = state.users[user], watched.rings == seen else { return false }
                    state.users[user]?.waiting[id] = Waiter(continuation: continuation)
                    return true
                }
                guard waiting else { return continuation.resume() }
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    self?.resume(user, id)
                }
                // Woken already (a ring, a cancellation) before the timer was noted: stop it now.
                let noted = state.withLock { state -> Bool in
                    guard state.users[user]?.waiting[id] != nil else { return false }
                    state.users[user]?.waiting[id]?.timer = timer
                    return true
                }
                if !noted { timer.cancel() }
            }
        } onCancel: {
            resume(user, id)
        }
    }

    /// Wakes one waiter, if it still waits (each is resumed exactly once: taken out under the lock).
    private func resume(_ user: Int64, _ id: UUID) {
        guard let waiter = state.withLock({ $0.users[user]?.waiting.removeValue(forKey: id) }) else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume()
    }

    /// How many of the user's watchers wait now.
    func waiters(_ user: Int64) -> Int { state.withLock { $0.users[user]?.waiting.count ?? 0 } }

    /// A push moved `user`'s position (to `position`, when the notice said).
    func ring(_ user: Int64, position: Int64? = nil) {
        let woken = state.withLock { state -> [Waiter] in
            guard var watched = state.users[user] else { return [] }
            watched.rings &+= 1
            if let position { watched.position = max(watched.position ?? position, position) }
            let woken = Array(watched.waiting.values)
            watched.waiting = [:]
            state.users[user] = watched
            return woken
        }
        for waiter in woken {
            waiter.timer?.cancel()
            waiter.continuation.resume()
        }
    }

    /// Listening began or ended: every watcher asks again (a push may have gone unheard).
    func listening(_ listening: Bool) {
        let users = state.withLock { state -> [Int64] in
            state.listening = listening
            return Array(state.users.keys)
        }
        for user in users { ring(user) }
    }
}
