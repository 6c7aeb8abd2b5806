import MemeryLocks

/// A store's sync state kept in memory between syncs, instead of in the store's file: for a
/// long-lived process whose store is a cache that is deleted when the process starts again
/// (a hub's working copy). Saving the file costs a write, an fsync and a rename after every
/// page, and reading it back a decode at every sync; a cache gains nothing from either.
public final class KeptSyncState: Sendable {
    private let kept = Locked<SyncState?>(nil)

    public init() {}

    /// The state for `login`'s account; nil until a sync has saved one for it.
    func state(for login: HubLogin) -> SyncState? {
        kept.withLock { state in
            guard let state, state.hub == login.hub, state.user.lowercased() == login.user.lowercased() else { return nil }
            return state
        }
    }

    func keep(_ state: SyncState) { kept.withLock { $0 = state } }
}
