import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Named places where a crash test can make the process die on purpose, as SIGKILL would:
/// `MEMERY_FAILPOINT=NAME:N` kills the process the N-th time it passes NAME (N defaults to 1).
/// Without the variable, passing a fail point costs one comparison.
public enum FailPoint {
    /// Inside an append: events and index written, before the commit.
    public static let afterPutBeforeCommit = "after-put-before-commit"
    /// After an append committed, before the edit is acknowledged.
    public static let afterCommitBeforeAcknowledgement = "after-commit-before-ack"
    /// While a snapshot is being written, before its commit.
    public static let duringSnapshot = "during-snapshot"
    /// After the map was grown, before the write is run again.
    public static let duringMapGrowth = "during-map-growth"

    private static let armed: (name: String, count: Int)? = {
        guard let spec = ProcessInfo.processInfo.environment["MEMERY_FAILPOINT"], !spec.isEmpty else { return nil }
        let parts = spec.split(separator: ":")
        return (String(parts[0]), parts.count > 1 ? Int(parts[1]) ?? 1 : 1)
    }()

    /// Passes are counted from any thread (a store is written from many).
    private static let passes = Atomic<Int>(0)

    /// Dies here if this is the armed fail point's N-th pass.
    public static func pass(_ name: String) {
        guard let armed, armed.name == name else { return }
        if passes.add(1, ordering: .relaxed).newValue >= armed.count { kill(getpid(), SIGKILL) }
    }
}
