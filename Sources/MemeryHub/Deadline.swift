import Hummingbird

/// Work that must finish in time: PostgreSQL's pool waits for a connection for as long as
/// it takes, and a database that is down must become a message, not a hang.
enum Deadline {
    /// `work`'s result, or `failure` thrown once `limit` has passed (the work is cancelled).
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

/// Each request's answer (but a picture's upload) within `limit`, else 503: a hub whose database stopped answering
/// says so instead of holding every client. (An event stream's answer is its first line;
/// the stream itself goes on.)
struct RequestDeadline<Context: RequestContext>: RouterMiddleware {
    var limit: Duration = .seconds(30)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A picture's upload takes as long as the network does.
        if request.method == .put { return try await next(request, context) }
        return try await withoutActuallyEscaping(next) { next in
            nonisolated(unsafe) let next = next
            return try await Deadline.run(limit, failing: HubError(.serviceUnavailable, "unavailable",
                                                                   "the hub's database did not answer within \(limit.components.seconds) s: try again later")) {
                try await next(request, context)
            }
        }
    }
}
