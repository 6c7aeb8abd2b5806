import Foundation
import Synchronization

/// The sessions this hub has looked up lately, so that a page's requests (an edit, then its
/// preview: two a second per person) do not each ask PostgreSQL who they are. An entry is
/// trusted only while the hub listens for `memery_sessions` (schema step 11: a session
/// removed, an account deleted, a role changed, on any hub or by hand, notifies it), and
/// for at most `lifetime` even so, in case a notice went missing; this hub's own changes
/// forget their user at once, before they answer. A lookup that began before a change and
/// ends after its notice is not kept: `generation` moves with every change, and an entry is
/// stored only if it did not move during the lookup (read before the database, as the
/// position bell's rings are).
///
/// Another hub may thus accept a revoked session for as long as the notice takes to reach
/// it (milliseconds), and at most `lifetime` if it never comes.
final class SessionCache: Sendable {
    static let lifetime: Duration = .seconds(10)
    static let capacity = 10_000
    static let channel = "memery_sessions"

    private struct Entry {
        var who: SignedIn
        var until: ContinuousClock.Instant
    }
    private struct State {
        var entries: [Data: Entry] = [:]
        var generation: UInt64 = 0
        var listening = false
    }
    private let state = Mutex(State())

    init() {}

    /// The session of a token's hash, if looked up lately and not changed since.
    func signedIn(_ tokenHash: Data) -> SignedIn? {
        state.withLock { state in
            guard state.listening, let entry = state.entries[tokenHash] else { return nil }
            guard entry.until > .now else {
                state.entries[tokenHash] = nil
                return nil
            }
            return entry.who
        }
    }

    /// Read before a lookup in the database, and given back to `keep`; nil while the hub
    /// does not listen (nothing is kept then).
    var generation: UInt64? { state.withLock { $0.listening ? $0.generation : nil } }

    /// Keeps a lookup's answer, unless something changed since it began (`generation`).
    func keep(_ who: SignedIn, for tokenHash: Data, lookedUpAt generation: UInt64?) {
        state.withLock { state in
            guard let generation, state.listening, state.generation == generation else { return }
            if state.entries.count >= Self.capacity {
                let now = ContinuousClock.now
                state.entries = state.entries.filter { $0.value.until > now }
                // Still full of live entries: start again rather than scan for the oldest.
                if state.entries.count >= Self.capacity { state.entries.removeAll(keepingCapacity: true) }
            }
            state.entries[tokenHash] = Entry(who: who, until: .now + Self.lifetime)
        }
    }

    /// A user's sessions or account changed: their entries go, and lookups under way are not kept.
    func forget(user: Int64) {
        state.withLock { state in
            state.generation &+= 1
            state.entries = state.entries.filter { $0.value.who.user != user }
        }
    }

    /// Everything goes: a notice naming no user, or one that cannot be read.
    func forgetAll() {
        state.withLock { state in
            state.generation &+= 1
            state.entries.removeAll()
        }
    }

    /// Whether the hub hears of changes: while it does not, nothing is trusted or kept, and
    /// what was kept is dropped both when listening stops and when it starts again (a
    /// change in between was not heard).
    func listening(_ on: Bool) {
        state.withLock { state in
            state.generation &+= 1
            state.entries.removeAll()
            state.listening = on
        }
    }

    /// A notice's payload: the user's id, or anything else to forget everyone.
    func heard(_ payload: String) {
        if let user = Int64(payload) { forget(user: user) } else { forgetAll() }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
