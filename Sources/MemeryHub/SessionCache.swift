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
/// it (milliseconds), and at most `lifetime` after the lookup began if it never comes (a
/// listening connection that died without a word is noticed only by its next probe).
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
        /// Each user's tokens among `entries`: a notice forgets them without a scan.
        var tokens: [Int64: Set<Data>] = [:]
        var generation: UInt64 = 0
        var listening = false

        mutating func remove(_ tokenHash: Data) {
            guard let entry = entries.removeValue(forKey: tokenHash) else { return }
            tokens[entry.who.user]?.remove(tokenHash)
            if tokens[entry.who.user]?.isEmpty == true { tokens[entry.who.user] = nil }
        }

        mutating func removeAll() {
            entries.removeAll()
            tokens.removeAll()
        }
    }
    private let state = Mutex(State())

    /// When a lookup in the database began, and what had changed by then.
    struct Lookup {
        let generation: UInt64
        let started: ContinuousClock.Instant
    }

    init() {}

    /// The session of a token's hash, if looked up lately and not changed since.
    func signedIn(_ tokenHash: Data) -> SignedIn? {
        state.withLock { state in
            guard state.listening, let entry = state.entries[tokenHash] else { return nil }
            guard entry.until > .now else {
                state.remove(tokenHash)
                return nil
            }
            return entry.who
        }
    }

    /// Taken before a lookup in the database and given back to `keep`; nil while the hub
    /// does not listen (nothing is kept then).
    func beginLookup() -> Lookup? {
        state.withLock { $0.listening ? Lookup(generation: $0.generation, started: .now) : nil }
    }

    /// Keeps a lookup's answer, unless something changed since it began; it lives
    /// `lifetime` from then, so no answer is trusted longer than that after it was read.
    func keep(_ who: SignedIn, for tokenHash: Data, from lookup: Lookup?) {
        state.withLock { state in
            guard let lookup, state.listening, state.generation == lookup.generation else { return }
            if state.entries.count >= Self.capacity {
                let now = ContinuousClock.now
                for (token, entry) in state.entries where entry.until <= now { state.remove(token) }
                // Still full of live entries: start again rather than scan for the oldest.
                if state.entries.count >= Self.capacity { state.removeAll() }
            }
            state.remove(tokenHash)
            state.entries[tokenHash] = Entry(who: who, until: lookup.started + Self.lifetime)
            state.tokens[who.user, default: []].insert(tokenHash)
        }
    }

    /// A user's sessions or account changed: their entries go, and lookups under way are not kept.
    func forget(user: Int64) {
        state.withLock { state in
            state.generation &+= 1
            for token in state.tokens[user] ?? [] { state.remove(token) }
        }
    }

    /// Everything goes: a notice naming no user (a table emptied), or one that cannot be read.
    func forgetAll() {
        state.withLock { state in
            state.generation &+= 1
            state.removeAll()
        }
    }

    /// Whether the hub hears of changes: while it does not, nothing is trusted or kept, and
    /// what was kept is dropped both when listening stops and when it starts again (a
    /// change in between was not heard).
    func listening(_ on: Bool) {
        state.withLock { state in
            state.generation &+= 1
            state.removeAll()
            state.listening = on
        }
    }

    /// A notice's payload: the user's id, or anything else to forget everyone.
    func heard(_ payload: String) {
        if let user = Int64(payload) { forget(user: user) } else { forgetAll() }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
