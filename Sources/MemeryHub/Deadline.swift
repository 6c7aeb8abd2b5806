import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import Synchronization

/// Work that must finish in time: PostgreSQL's pool waits for a connection for as long as
/// it takes, and a database that is down must become a message, not a hang.
enum Deadline {
    /// `work`'s result, or `failure` thrown once `limit` has passed (the work is cancelled).
    @discardableResult
    static func run<T: Sendable>(_ limit: Duration, failing failure: @autoclosure @escaping @Sendable () -> any Error,
                                 _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw failure() }
            return value
        }
    }
}

extension Deadline {
    /// `work`'s result, or `failure` thrown once `limit` has passed, then without waiting for
    /// the work: `run` awaits its child, and a postgres-nio statement once sent (or one handed
    /// a connection the server just ended) cannot be cancelled. The work left behind is
    /// cancelled and ends on its own.
    static func abandoning<T: Sendable>(after limit: Duration, failing failure: @autoclosure @escaping @Sendable () -> any Error,
                                        _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = Race()
        return try await withCheckedThrowingContinuation { continuation in
            let running = Task {
                let result: Result<T, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                if race.claim() {
                    race.timer.withLock { $0?.cancel() }
                    continuation.resume(with: result)
                }
            }
            race.timer.withLock { timer in
                timer = Task {
                    try? await Task.sleep(for: limit)
                    if race.claim() {
                        running.cancel()
                        continuation.resume(throwing: failure())
                    }
                }
            }
        }
    }
}

/// Work against its clock: whichever ends first claims the answer.
private final class Race: Sendable {
    private let claimed = Atomic(false)
    let timer = Mutex<Task<Void, Never>?>(nil)
    func claim() -> Bool { claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged }
}

/// Each request's answer within `limit` of its body's arrival, else 503: a hub whose
/// database stopped answering says so instead of holding every client. Waiting for a
/// connection is cancelled at the limit; a statement under way is stopped by PostgreSQL's
/// own `statement_timeout` (`DatabaseAddress`). A 503 does not promise that nothing was
/// stored: what clients send is safe to send again (pushes by key and ids, pictures by
/// hash). (An event stream's answer is its first line; the stream itself goes on.)
struct RequestDeadline<Context: RequestContext>: RouterMiddleware {
    var limit: Duration = .seconds(30)
    /// Whether the database can be reached at all (a connection to its port), asked of a
    /// request still unanswered after `probeAfter`: one that cannot is answered 503 at
    /// once, not after the whole limit (every sync waited 30 s while PostgreSQL was down).
    var reachable: (@Sendable () async -> Bool)?
    var probeAfter: Duration = .seconds(2)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The body arrives first, at the network's pace; the clock is for the hub's own work.
        var arrived = request
        if arrived.method != .get && arrived.method != .head {
            _ = try await arrived.collectBody(upTo: context.maxUploadSize)
        }
        let request = arrived
        return try await withoutActuallyEscaping(next) { next in
            // Unsafe, earned: `next` is called once, by the first child, and the group is
            // awaited before `withoutActuallyEscaping` returns.
            nonisolated(unsafe) let next = next
            return try await Deadline.databaseWork(limit, reachable: reachable, probeAfter: probeAfter) { try await next(request, context) }
        }
    }
}

extension Deadline {
    /// `work`'s result within `limit`, else a 503 (`HubError`); with `reachable`, the 503 as
    /// soon as the database's port cannot be reached, asked after `probeAfter`. What a
    /// request to the hub's API runs under (`RequestDeadline`), and a working copy's sync
    /// calls in process (`HubLocalSync`).
    static func databaseWork<T: Sendable>(_ limit: Duration, reachable: (@Sendable () async -> Bool)?, probeAfter: Duration = .seconds(2),
                                          _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let late = HubError(.serviceUnavailable, "unavailable", "the hub's database did not answer within \(limit.components.seconds) s: try again later")
        let down = HubError(.serviceUnavailable, "unavailable", "the hub's database cannot be reached: try again later")
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw late
            }
            if let reachable {
                group.addTask {
                    try await Task.sleep(for: probeAfter)
                    guard await reachable() else { throw down }
                    try await Task.sleep(for: limit)
                    return nil
                }
            }
            defer { group.cancelAll() }
            while let first = try await group.next() {
                if let value = first { return value }
            }
            throw late
        }
    }
}

/// Whether something listens at a database's address: a TCP connection opened and closed
/// (or, for a Unix socket, the socket file there), within 2 s.
enum DatabaseReachability {
    static func check(_ address: DatabaseAddress) async -> Bool {
        switch address.endpoint {
        case .socket(let path):
            return FileManager.default.fileExists(atPath: path)
        case .tcp(let host, let port):
            do {
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.seconds(2)).connect(host: host, port: port).get()
                try? await channel.close().get()
                return true
            } catch {
                return false
            }
        }
    }
}
