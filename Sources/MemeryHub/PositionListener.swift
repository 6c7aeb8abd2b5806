import Logging
import PostgresNIO
import ServiceLifecycle

/// Holds one database connection that LISTENs on `memery_position` (a hub NOTIFYs it, with
/// the user's id, after a push committed: `EventLog.notifyWatchers`) and rings the
/// `PositionBell`. So a push through any hub on the database wakes the watchers on every hub
/// at once, and no watcher asks the database while nothing happens. A lost connection is
/// taken again, the waits growing to 2 s; meanwhile the bell says nobody listens and
/// watchers ask every quarter second. A connection gone quiet without a word (a NAT's idle
/// timeout, a host that vanished) ends no stream, so it is asked `SELECT 1` every 15 s.
/// The same connection LISTENs on `memery_sessions` for the `SessionCache`, which trusts
/// nothing it keeps while this connection is lost.
struct PositionListener: Service {
    static let channel = "memery_position"
    static let probeEvery: Duration = .seconds(15)
    static let probeLimit: Duration = .seconds(5)
    let client: PostgresClient
    let bell: PositionBell
    /// Told of sessions removed and accounts changed (`memery_sessions`, schema step 11).
    let sessions: SessionCache
    let logger: Logger
    /// Yields once the hub's schema is migrated: nothing is asked of the database before.
    let start: AsyncStream<Void>

    struct Lost: Error, CustomStringConvertible {
        var description: String
    }

    func run() async throws {
        for await _ in start { break }  // (ends at once, empty, if the hub stops first)
        var retry: Duration = .milliseconds(125)  // doubled before the first wait
        var stopped = false
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let again = stopped
            stopped = true  // (from the second round on, whatever ended the first)
            do {
                try await cancelWhenGracefulShutdown {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            try await connection.listen(on: SessionCache.channel) { sessionNotices in
                                sessions.listening(true)
                                bell.listening(true)
                                if again { logger.notice("listening for pushes and ended sessions again") }
                                try await withThrowingTaskGroup(of: Void.self) { group in
                                    group.addTask {
                                        for try await notification in notifications {
                                            // "USER POSITION" (schema step 10), or "USER" from a hub of step 9.
                                            let fields = notification.payload.split(separator: " ")
                                            if let user = fields.first.flatMap({ Int64($0) }) {
                                                bell.ring(user, position: fields.count > 1 ? Int64(fields[1]) : nil)
                                            }
                                        }
                                        throw Lost(description: "the notifications ended")
                                    }
                                    group.addTask {
                                        for try await notice in sessionNotices { sessions.heard(notice.payload) }
                                        throw Lost(description: "the sessions' notifications ended")
                                    }
                                    group.addTask {
                                        while true {
                                            try await Task.sleep(for: Self.probeEvery)
                                            try await Deadline.run(Self.probeLimit, failing: Lost(description: "the connection did not answer SELECT 1")) {
                                                _ = try await connection.query("SELECT 1", logger: logger)
                                            }
                                        }
                                    }
                                    defer { group.cancelAll() }
                                    try await group.next()
                                }
                            }
                        }
                    }
                }
            } catch {
                logger.notice("listening for pushes and ended sessions stopped", metadata: ["error": "\(String(reflecting: error))"])
            }
            // Lost after it listened: again soon; failing to start: a little later each time.
            retry = bell.isListening ? .milliseconds(250) : min(retry * 2, .seconds(2))
            sessions.listening(false)
            bell.listening(false)
            do {
                let pause = retry
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
            } catch {
                return  // the hub is stopping
            }
        }
    }
}
