import Foundation
import HTTPTypes
import Logging
import Hummingbird
import MemeryHubProtocol
import NIOCore
import PostgresNIO
import ServiceLifecycle

/// `GET /v1/events/watch?after=P`: Server-Sent Events that wake `memery sync --watch`. A
/// watcher reads the user's newest position when the `PositionBell` rings (a push through
/// any hub on the database: `PositionListener`), at least every 5 s (a comment every 15 s
/// keeps proxies open; a revoked session is let go), and every quarter second while nothing
/// listens.
struct WatchRoute: Sendable {
    let accounts: Accounts
    let client: PostgresClient
    let bell: PositionBell
    let logger: Logger
    /// How often a watcher asks while the bell cannot ring.
    static let interval: Duration = .milliseconds(250)
    static let keepAlive: Duration = .seconds(15)
    /// The longest a watcher waits for the bell before it reads anyway: a net under any wake
    /// that goes missing (a notice lost with a hub's crash between a push and its NOTIFY).
    static let longestWait: Duration = .seconds(5)
    /// The least time between two reads of one watcher.
    static let readGap: Duration = .milliseconds(50)

    func add(to router: Router<HubContext>) {
        router.group().add(middleware: SignedInOnly(accounts: accounts)).get(RouterPath(HubPaths.watch)) { request, context -> Response in
            let who = try context.who
            let after = try QueryNumber.read(request, "after", default: 0, in: 0...Int64.max)
            let (bell, client, logger) = (bell, client, logger)
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: ResponseBody { writer in
                bell.watch(who.user)
                defer { bell.unwatch(who.user) }
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                var seen = after
                var lastWrite = ContinuousClock.now, lastRead = ContinuousClock.now - Self.readGap
                while !Task.isCancelled, !Task.isShuttingDownGracefully {
                    // A first sync pushes hundreds of pages: their rings are read together.
                    let sinceRead = ContinuousClock.now - lastRead
                    if sinceRead < Self.readGap { try? await cancelWhenGracefulShutdown { try await Task.sleep(for: Self.readGap - sinceRead) } }
                    lastRead = .now
                    let rings = bell.rings(who.user)  // before the read: a push after it rings again
                    // Within 5 s, else asked again: a query handed the connection the listener
                    // had just lost (cut by the server) was seen never to answer.
                    let session = who.session
                    let read: Int64?
                    do {
                        read = try await Deadline.abandoning(after: .seconds(5), failing: WatchReadLate()) { () -> Int64? in
                            var newest: Int64?
                            for try await value in try await client.query("""
                                SELECT u.position FROM users u JOIN sessions s ON s.user_id = u.id WHERE s.id = \(session)
                                """, logger: logger).decode(Int64.self) {
                                newest = value
                            }
                            return newest
                        }
                    } catch is WatchReadLate {
                        continue
                    }
                    guard let newest = read else { break }  // logged out, revoked, or the account deleted
                    if newest > seen {
                        seen = newest
                        try await writer.write(ByteBuffer(string: "event: position\ndata: \(newest)\n\n"))
                        lastWrite = .now
                    } else if ContinuousClock.now - lastWrite >= Self.keepAlive {
                        try await writer.write(ByteBuffer(string: ": still here\n\n"))
                        lastWrite = .now
                    }
                    let wait = bell.isListening ? min(max(Self.keepAlive - (ContinuousClock.now - lastWrite), Self.interval), Self.longestWait)
                                                : Self.interval
                    await cancelWhenGracefulShutdown { await bell.wait(who.user, since: rings, atMost: wait) }
                }
                try await writer.finish(nil)
            })
        }
    }
}

struct WatchReadLate: Error {}
