import Foundation
import Logging
import Metrics
import PostgresNIO
import Synchronization

/// Reads a PostgreSQL streaming replica may answer (`--replica-database`): a pull's page and
/// a picture's bytes, the bulk of what a hub sends. Everything else stays on the primary:
/// writes, sessions, a push and its checkpoint checks, and what a pull must reach. A read
/// says itself when the replica is not far enough for it (it answers nil), and the primary
/// answers instead: a lagging replica answers like a slower primary, never like a hub
/// restored from a backup (which would make machines send everything again).
///
/// A replica that fails or takes longer than a read's patience rests for `rest`: the primary
/// answers everything meanwhile, and afterwards one request at a time tries it until one
/// succeeds. A read past its patience is answered by the primary at once; the replica's own
/// `statement_timeout` (`DatabaseAddress.forReplica`) ends the query left behind, which
/// postgres-nio cannot cancel once sent.
final class ReplicaReads: Sendable {
    let client: PostgresClient
    let address: DatabaseAddress
    let logger: Logger
    let rest: Duration
    private let state = Mutex(State.ready)
    private let byReplica = Counter(label: "memery_hub_replica_reads_total", dimensions: [("answered_by", "replica")])
    private let byPrimary = Counter(label: "memery_hub_replica_reads_total", dimensions: [("answered_by", "primary")])

    private enum State {
        case ready
        case resting(until: ContinuousClock.Instant)
        /// One request is trying the replica after a rest; the others go to the primary.
        case trying
    }

    init(client: PostgresClient, address: DatabaseAddress, logger: Logger, rest: Duration = .seconds(5)) {
        self.client = client
        self.address = address
        self.logger = logger
        self.rest = rest
    }

    /// Whether the replica is to be asked now: false while it rests or another request tries
    /// it. Past a rest, the first caller gets to try it.
    private func takeTurn() -> Bool {
        state.withLock { state in
            switch state {
            case .ready:
                return true
            case .trying:
                return false
            case .resting(let until):
                guard ContinuousClock.now >= until else { return false }
                state = .trying
                return true
            }
        }
    }

    /// Whether a read now would go to the replica (a pull need not ask the primary how far
    /// the replica must be while it rests).
    var isAvailable: Bool {
        state.withLock { state in
            if case .resting(let until) = state { return ContinuousClock.now >= until }
            return true
        }
    }

    /// `read`'s answer from the replica within `patience`; nil when the primary must answer
    /// (the replica is not far enough for this read, rests, failed or was too slow).
    func answer<T: Sendable>(_ what: String, patience: Duration,
                             _ read: @escaping @Sendable (PostgresClient) async throws -> T?) async -> T? {
        guard takeTurn() else {
            byPrimary.increment()
            return nil
        }
        do {
            // A replica stopped refuses at once: ask its port before waiting on its pool.
            if case .trying = state.withLock({ $0 }), !(await DatabaseReachability.check(address)) {
                throw ReplicaUnreachable()
            }
            let client = client
            let answer = try await Deadline.abandoning(after: patience, failing: ReplicaTooSlow(patience: patience)) { try await read(client) }
            state.withLock { $0 = .ready }
            (answer == nil ? byPrimary : byReplica).increment()
            return answer
        } catch is CancellationError {
            // The request was given up, not the replica.
            state.withLock { if case .trying = $0 { $0 = .ready } }
            return nil
        } catch {
            logger.warning("the replica did not answer: the primary answers for \(rest)", metadata: [
                "read": "\(what)", "replica": "\(address.shown)", "error": "\(String(reflecting: error))"])
            state.withLock { $0 = .resting(until: .now + rest) }
            byPrimary.increment()
            return nil
        }
    }
}

struct ReplicaTooSlow: Error, CustomStringConvertible {
    let patience: Duration
    var description: String { "the replica did not answer within \(patience)" }
}

struct ReplicaUnreachable: Error, CustomStringConvertible {
    var description: String { "nothing answers at the replica's address" }
}
