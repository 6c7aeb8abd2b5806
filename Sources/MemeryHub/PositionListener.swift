import Logging
import PostgresNIO
import ServiceLifecycle

/// Holds one database connection that LISTENs on `memery_position` (schema step 9's trigger
/// NOTIFYs it, with the user's id, when a push commits) and rings the `PositionBell`. So a
/// push through any hub on the database wakes the watchers on every hub at once, and no
/// watcher asks the database while nothing happens. A lost connection is taken again, the
/// waits growing to 2 s; meanwhile the bell says nobody listens and watchers ask every
/// quarter second.
struct PositionListener: Service {
    static let channel = "memery_position"
    let client: PostgresClient
    let bell: PositionBell
    let logger: Logger

    func run() async throws {
        var retry: Duration = .milliseconds(125)  // doubled before the first wait
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            bell.listening(true)
                            for try await notification in notifications {
                                if let user = Int64(notification.payload) { bell.ring(user) }
                            }
                        }
                    }
                }
            } catch {
                logger.debug("listening for pushes stopped", metadata: ["error": "\(String(reflecting: error))"])
            }
            // Lost after it listened: again soon; failing to start: a little later each time.
            retry = bell.isListening ? .milliseconds(250) : min(retry * 2, .seconds(2))
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
