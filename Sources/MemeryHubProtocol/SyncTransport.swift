public import Foundation
import Synchronization

/// How a store's sync (`Syncer`) reaches its hub: over HTTP for a machine, or inside the
/// hub's own process for the working copies it keeps for the editor's pages
/// (`HubLocalSync`), which then skip the loopback connection and the JSON both ways but no
/// rule: each call runs what the hub's route for it runs, as the same session.
public protocol SyncTransport: Sendable {
    func push(_ request: PushRequest) async throws -> PushAnswer
    func pull(after cursor: Int64, at event: UUID?, limit: Int) async throws -> PullAnswer
    /// Of `hashes`, the pictures the hub lacks for this account.
    func missingPictures(_ hashes: [String]) async throws -> [String]
    func upload(picture hash: String, _ bytes: Data) async throws
    func picture(_ hash: String) async throws -> Data
    func purge(_ creations: [UUID]) async throws -> PurgeAnswer
    /// What crossed a wire so far, each way (nothing, in process).
    var traffic: SyncTraffic { get }
}

/// The hub said no, in process: the status and problem its route would have answered.
public struct HubRefusal: Error, Sendable {
    public var status: Int
    public var problem: HubProblem
    public init(status: Int, problem: HubProblem) {
        self.status = status
        self.problem = problem
    }
}

/// Bytes a transport sent and received, for the sync's report.
public final class SyncTraffic: Sendable {
    private let bytes = Mutex<(up: Int, down: Int)>((0, 0))
    public init() {}
    public func sent(_ count: Int) { bytes.withLock { $0.up += count } }
    public func received(_ count: Int) { bytes.withLock { $0.down += count } }
    public var up: Int { bytes.withLock { $0.up } }
    public var down: Int { bytes.withLock { $0.down } }
}
