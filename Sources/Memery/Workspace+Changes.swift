public import Foundation
import MemeryCore
import MemeryStore

/// The store's changes, for live views (`memery serve`'s event stream): every append, by
/// this process or another, in the order of the global log.
extension Workspace {
    /// The global sequence of the newest event (0 for an empty store).
    public func lastSequence() throws -> UInt64 { try store.lastSequence() }

    /// What changed after `sequence`, oldest first: consecutive events of one stream are one
    /// change. At most `limit` events are read; call again from the last change's sequence.
    public func changes(after sequence: UInt64, limit: Int = 10_000) throws -> [StoreChange] {
        try StoreChange.read(store, gallery: try gallery(), after: sequence, limit: limit)
    }
}
