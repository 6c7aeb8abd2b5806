import Foundation
import Logging
import Metrics
import PostgresNIO
import Synchronization

/// Reads a PostgreSQL streaming replica may answer (`--replica-database`): a pull's page and
/// a picture's bytes, the bulk of what a hub sends. Everything else stays on the primary:
/// writes, sessions, a push and its checkpoint checks, and the position a pull must reach.
/// A read says itself when the replica lags too far for it (it answers nil), and the
/// primary answers instead: a lagging replica answers like a slower primary, never like a
/// hub restored from a backup (which would make machines send everything again). A replica
/// that fails or takes longer than `patience` is left alone for `rest`, and until it can be
/// reached again; meanwhile the primary answers everything.
final class ReplicaReads: Sendable {
    let client: PostgresClient
    let address: DatabaseAddress
    let logger: Logger
    let patience: Duration
    let rest: Duration
    private let restingUntil = Mutex<ContinuousClock.Instant?>(nil)
    private let byReplica = Counter(label: "memery_hub_replica_reads_total", dimensions: [("answered_by", "replica")])
    private let byPrimary = Counter(label: "memery_hub_replica_reads_total", dimensions: [("answered_by", "primary")])

    init(client: PostgresClient, address: DatabaseAddress, logger: Logger, patience: Duration = .seconds(2), rest: Duration = .seconds(5)) {
        self.client = client
        self.address = address
        self.logger = logger
        self.patience = patience
        self.rest = rest
    }

    /// `read`'s answer from the replica; nil when the primary must answer (the replica lags
    /// for this read, is resting, failed or was too slow).
    func answer<T: Sendable>(_ what: String, _ read: @escaping @Sendable (PostgresClient) async throws -> T?) async -> T? {
        if let until = restingUntil.withLock({ $0 }) {
            // A replica stopped refuses at once: ask its port before waiting on its pool.
            guard ContinuousClock.now >= until, await DatabaseReachability.check(address) else {
                if ContinuousClock.now >= until { restingUntil.withLock { $0 = .now + rest } }
                byPrimary.increment()
                return nil
            }
            restingUntil.withLock { $0 = nil }
        }
        do {
            let patience = patience
            let answer = try await Deadline.run(patience, failing: ReplicaTooSlow(patience: patience)) { try await read(self.client) }
            (answer == nil ? byPrimary : byReplica).increment()
            return answer
        } catch {
            logger.warning("the replica did not answer: the primary answers for now", metadata: [
                "read": "\(what)", "replica": "\(address.shown)", "error": "\(String(reflecting: error))"])
            restingUntil.withLock { $0 = .now + rest }
            byPrimary.increment()
            return nil
        }
    }
}

struct ReplicaTooSlow: Error, CustomStringConvertible {
    let patience: Duration
    var description: String { "the replica did not answer within \(patience)" }
}
