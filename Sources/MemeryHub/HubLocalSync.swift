public import Foundation
public import MemeryHubProtocol
import HTTPTypes
import Logging

/// The sync calls of the hub's API made inside its own process: what the working copies the
/// hub keeps for the editor's pages (MemeryHubEditor) sync through, instead of a loopback
/// connection to the hub itself. Each call runs what its route runs (`SyncRoutes`,
/// `PictureRoutes`), as the session of the token given, with the route's limits and its
/// deadline (`Deadline.databaseWork`: 30 s, and at once when the database's port cannot be
/// reached), and is refused as the route would be (`HubRefusal`: its status and problem); a
/// failure the route would answer 500 is logged as the route logs it. Only the HTTP and the
/// JSON are skipped; a push is one statement either way.
public struct HubLocalSync: Sendable {
    let accounts: Accounts
    let events: EventLog
    let blobs: Blobs
    /// Whether the database's port answers (`DatabaseReachability`), as `RequestDeadline` asks.
    let reachable: (@Sendable () async -> Bool)?
    var limit: Duration = .seconds(30)
    let logger: Logger

    /// The calls as the session `token` names (a person's browser session).
    public func session(token: String) -> Session { Session(hub: self, tokenHash: Data(SHA256Digest.of(token))) }

    public struct Session: SyncTransport {
        let hub: HubLocalSync
        let tokenHash: Data
        /// Nothing crosses a wire.
        public let traffic = SyncTraffic()

        public func push(_ request: PushRequest) async throws -> PushAnswer {
            try await refusing { try await hub.events.push(request, session: tokenHash) }
        }

        public func pull(after cursor: Int64, at event: UUID?, limit: Int) async throws -> PullAnswer {
            try await refusing {
                guard cursor >= 0, (1...EventLog.pageLimit).contains(limit) else {
                    throw HubError.badRequest("a pull asks after a position of 0 or more, for 1 to \(EventLog.pageLimit) events")
                }
                return try await hub.events.pull(after: cursor, at: event, limit: limit, session: tokenHash)
            }
        }

        public func missingPictures(_ hashes: [String]) async throws -> [String] {
            try await refusing {
                guard hashes.count <= 10_000 else { throw HubError.badRequest("ask about at most 10000 pictures at once") }
                return try await hub.blobs.missing(hashes, for: try await who())
            }
        }

        public func upload(picture hash: String, _ bytes: Data) async throws {
            try await refusing {
                guard bytes.count <= Blobs.largest else {
                    throw HubError(.contentTooLarge, "too-large", "a picture is at most \(Blobs.largest >> 20) MB on this hub: nothing was stored")
                }
                _ = try await hub.blobs.put(hash, bytes, by: try await who())
            }
        }

        public func picture(_ hash: String) async throws -> Data {
            try await refusing { try await hub.blobs.get(hash, for: try await who()) }
        }

        public func purge(_ creations: [UUID]) async throws -> PurgeAnswer {
            try await refusing { PurgeAnswer(emptied: try await hub.events.purge(creations, of: try await who())) }
        }

        private func who() async throws -> SignedIn { try await hub.accounts.signedIn(tokenHash: tokenHash) }

        /// `call` within the route's deadline; what the route's `ProblemAnswers` would answer,
        /// as a `HubRefusal` (a 500 logged, with no internals in it).
        private func refusing<Answer: Sendable>(_ call: @escaping @Sendable () async throws -> Answer) async throws -> Answer {
            do {
                return try await Deadline.databaseWork(hub.limit, reachable: hub.reachable, call)
            } catch let error where HubError.answering(error) != nil {
                let refusal = HubError.answering(error)!
                throw HubRefusal(status: Int(refusal.status.code), problem: refusal.problem)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                hub.logger.error("a working copy's sync failed", metadata: ["error": "\(String(reflecting: error))"])
                throw HubRefusal(status: 500, problem: HubProblem(error: "internal", message: "the hub failed to sync this copy (it is logged): try again"))
            }
        }
    }
}
