public import Foundation
import MemeryCore
import Synchronization

/// The history trees this process built last, by creation, each with the stream version it
/// was built to: the next look at a creation's history reads only the appends after that
/// and adds them, rather than replaying 10,000 events (an editor with its History sheet
/// open asks after every edit). Bounded; the least recently used tree goes first. A tree
/// is only ever extended by appends that sort after everything in it; anything else (an
/// append from another machine sorted in before, a purge) builds it again.
final class HistoryCache: Sendable {
    struct Tree: Sendable {
        var history: CreationHistory
        var storedVersion: UInt64
    }

    static let capacity = 8

    /// How many trees were built from the start (to answer a history, or to open a head no
    /// snapshot or index could place), and how many were extended (for tests).
    struct Statistics: Sendable, Equatable { var built = 0, extended = 0 }
    private let counts = Mutex(Statistics())
    var statistics: Statistics { counts.withLock { $0 } }
    func count(built: Bool) { counts.withLock { if built { $0.built += 1 } else { $0.extended += 1 } } }

    // A Mutex-guarded dictionary: lookups are rare next to the work they save.
    private let trees = Mutex<(byID: [UUID: Tree], recency: [UUID])>(([:], []))

    func tree(_ id: UUID) -> Tree? {
        trees.withLock { state in
            guard let tree = state.byID[id] else { return nil }
            state.recency.removeAll { $0 == id }
            state.recency.append(id)
            return tree
        }
    }

    func keep(_ tree: Tree, for id: UUID) {
        trees.withLock { state in
            state.byID[id] = tree
            state.recency.removeAll { $0 == id }
            state.recency.append(id)
            while state.recency.count > Self.capacity { state.byID[state.recency.removeFirst()] = nil }
        }
    }
}
