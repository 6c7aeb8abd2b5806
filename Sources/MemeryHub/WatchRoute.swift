import Foundation
import HTTPTypes
import Logging
import Hummingbird
import MemeryHubProtocol
import NIOCore
import PostgresNIO
import ServiceLifecycle

/// `GET /v1/events/watch?after=P`: Server-Sent Events that wake `memery sync --watch`. The
/// hub asks PostgreSQL for the user's newest position every quarter second, so a push
/// through any hub process reaches every watcher; a comment every 15 s keeps proxies open.
struct WatchRoute: Sendable {
    let accounts: Accounts
    let client: PostgresClient
    let logger: Logger
    static let interval: Duration = .milliseconds(250)

    func add(to router: Router<HubContext>) {
        router.group().add(middleware: SignedInOnly(accounts: accounts)).get(RouterPath(HubPaths.watch)) { request, context -> Response in
            let who = try context.who
            let after = try QueryNumber.read(request, "after", default: 0, in: 0...Int64.max)
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                var seen = after
                var quiet: Duration = .zero
                while !Task.isCancelled, !Task.isShuttingDownGracefully {
                    var newest: Int64?
                    for try await value in try await client.query("""
                        SELECT u.position FROM users u JOIN sessions s ON s.user_id = u.id WHERE s.id = \(who.session)
                        """, logger: logger).decode(Int64.self) {
                        newest = value
                    }
                    guard let newest else { break }  // logged out, revoked, or the account deleted
                    if newest > seen {
                        seen = newest
                        try await writer.write(ByteBuffer(string: "event: position\ndata: \(newest)\n\n"))
                        quiet = .zero
                    } else if quiet >= .seconds(15) {
                        try await writer.write(ByteBuffer(string: ": still here\n\n"))
                        quiet = .zero
                    }
                    try await Task.sleep(for: Self.interval)
                    quiet += Self.interval
                }
                try await writer.finish(nil)
            })
        }
    }
}
