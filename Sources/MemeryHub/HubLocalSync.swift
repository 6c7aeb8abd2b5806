public import Foundation
public import MemeryHubProtocol
import HTTPTypes
import Logging
import Metrics

/// The sync calls of the hub's API made inside its own process: what the working copies the
/// hub keeps for the editor's pages (MemeryHubEditor) sync through, instead of a loopback
/// connection to the hub itself. Each call runs what its route runs (`SyncRoutes`,
/// `PictureRoutes`), as the session of the token given, with the route's limits and its
/// deadline (`Deadline.databaseWork`: 30 s, and at once when the database's port cannot be
/// reached), and is refused as the route would be (`HubRefusal`: its status and problem); a
/// failure the route would answer 500 is logged as the route logs it. Only the HTTP and the
/// JSON are skipped; a push is one statement either way. They are not HTTP requests, so
/// `/metrics` counts them apart: `memery_hub_working_copy_calls_total` by call and status,
/// and `memery_hub_working_copy_call_duration_seconds` by call.
public struct HubLocalSync: Sendable {
    let accounts: Accounts
    let events: EventLog
    let blobs: Blobs
    /// Whether the database's port answers (`DatabaseReachability`), as `RequestDeadline` asks.
    let reachable: (@Sendable () async -> Bool)?
    var limit: Duration = .seconds(30)
    let logger: Logger

    /// What the calls' durations are exported as.
    static let durationMetric = "memery_hub_working_copy_call_duration_seconds"

    /// The calls as the session `token` names (a person's browser session).
    public func session(token: String) -> Session { Session(hub: self, tokenHash: Data(SHA256Digest.of(token))) }

    public struct Session: SyncTransport {
        let hub: HubLocalSync
        let tokenHash: Data
        /// Nothing crosses a wire.
        public let traffic = SyncTraffic()

        public func push(_ request: PushRequest) async throws -> PushAnswer {
            try await refusing("push") { try await hub.events.push(request, session: tokenHash) }
        }

        public func pull(after cursor: Int64, at event: UUID?, limit: Int) async throws -> PullAnswer {
            try await refusing("pull") { try await hub.events.pull(after: cursor, at: event, limit: limit, session: tokenHash) }
        }

        public func missingPictures(_ hashes: [String]) async throws -> [String] {
            try await refusing("missing-pictures") { try await hub.blobs.missing(hashes, for: try await who()) }
        }

        public func upload(picture hash: String, _ bytes: Data) async throws {
            // Counted 201 when new to the person, as the route answers.
            _ = try await refusing("upload-picture", succeeded: { $0 ? 201 : 200 }) { try await hub.blobs.put(hash, bytes, by: try await who()) }
        }

        public func picture(_ hash: String) async throws -> Data {
            try await refusing("picture") { try await hub.blobs.get(hash, for: try await who()) }
        }

        public func purge(_ creations: [UUID]) async throws -> PurgeAnswer {
            try await refusing("purge") { PurgeAnswer(emptied: try await hub.events.purge(creations, of: try await who())) }
        }

        private func who() async throws -> SignedIn { try await hub.accounts.signedIn(tokenHash: tokenHash) }

        /// Whether the session still holds: false once it has ended (signed out here or on
        /// another device, or the password changed). Answered from the hub's session cache
        /// while it holds the session (a lookup is kept 10 s, and a notice of the session's
        /// end empties it); else the database is asked, within the calls' deadline.
        public func holds() async throws -> Bool {
            do {
                _ = try await refusing("session") { try await who() }
                return true
            } catch let refusal as HubRefusal where refusal.status == 401 {
                return false
            }
        }

        /// `call` within the route's deadline; what the route's `ProblemAnswers` would answer,
        /// as a `HubRefusal` (a 500 logged, with no internals in it).
        /// `succeeded`: the status the route would answer with.
        private func refusing<Answer: Sendable>(_ name: String, succeeded: (Answer) -> Int = { _ in 200 },
                                                _ call: @escaping @Sendable () async throws -> Answer) async throws -> Answer {
            let started = ContinuousClock.now
            var status = 0
            defer {
                Counter(label: "memery_hub_working_copy_calls_total", dimensions: [("call", name), ("status", String(status))]).increment()
                Metrics.Timer(label: HubLocalSync.durationMetric, dimensions: [("call", name)]).record(duration: ContinuousClock.now - started)
            }
            do {
                let answer = try await Deadline.databaseWork(hub.limit, reachable: hub.reachable, call)
                status = succeeded(answer)
                return answer
            } catch let error where error is CancellationError || Task.isCancelled {
                // The copy's page closed or the hub is stopping: no failure to log. Counted 499,
                // nginx's "client closed request", whatever the database said when cut short.
                status = 499
                throw CancellationError()
            } catch {
                if let refusal = HubError.answering(error) {
                    status = Int(refusal.status.code)
                    throw HubRefusal(status: status, problem: refusal.problem)
                }
                status = 500
                hub.logger.error("a working copy's sync failed", metadata: ["error": "\(String(reflecting: error))"])
                throw HubRefusal(status: 500, problem: HubProblem(error: "internal", message: "the hub failed to sync this copy (it is logged): try again"))
            }
        }
    }
}
