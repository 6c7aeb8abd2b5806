import Foundation
import Hummingbird
import MemeryHTTP
public import Logging
import MemeryHubProtocol
import Metrics
import NIOCore
import NIOHTTPTypes
import PostgresNIO
import Prometheus

/// How `memery hub` was started.
public struct HubSettings: Sendable {
    public var database: DatabaseAddress
    public var host: String
    public var port: Int
    /// bcrypt's cost (12 in service; the tests use 4, the least bcrypt takes).
    public var bcryptCost: UInt8
    public var logLevel: Logger.Level
    /// How long a library search may run before PostgreSQL stops it.
    public var searchTimeout: Duration
    /// Proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`).
    public var trustedProxies: [AddressRange]
    /// How long a request's head may take to arrive (RequestReadTimeout).
    public var readTimeout: Duration
    /// What each user may keep, in bytes (event payloads and pictures); nil: no limit.
    public var quotaBytes: Int64?
    /// How long an uploaded picture may stay unused by any event before it is taken away (PictureSweeper).
    public var unusedPictureGrace: Duration
    public init(database: DatabaseAddress, host: String = "127.0.0.1", port: Int = 8470, bcryptCost: UInt8 = 12, logLevel: Logger.Level = .info,
                searchTimeout: Duration = .seconds(20), trustedProxies: [AddressRange] = [], readTimeout: Duration = .seconds(10),
                quotaBytes: Int64? = nil, unusedPictureGrace: Duration = .seconds(24 * 3600)) {
        self.database = database; self.host = host; self.port = port; self.bcryptCost = bcryptCost; self.logLevel = logLevel
        self.searchTimeout = searchTimeout; self.trustedProxies = trustedProxies; self.readTimeout = readTimeout
        self.quotaBytes = quotaBytes; self.unusedPictureGrace = unusedPictureGrace
        // The push function reads the quota from its connection (schema step 7).
        if let quotaBytes { self.database.configuration.options.additionalStartupParameters.append(("memery.quota_bytes", String(quotaBytes))) }
    }
}

/// `memery hub`: the router, its services and the running of it. Everything it knows is in
/// PostgreSQL, so any number of hub processes may serve one database.
public enum HubServer {
    /// Migrates the schema, then serves until SIGINT or SIGTERM. `announce` gets the address
    /// once the port is bound.
    public static func run(_ settings: HubSettings, announce: @escaping @Sendable (String) -> Void) async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = settings.logLevel
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let app = application(settings, registry: registry, logger: Logger(label: "memery.hub"), announce: announce)
        do {
            try await app.runService()
        } catch let error as IOError where CannotListen.understood.contains(error.errnoCode) {
            throw HubStartError(CannotListen(host: settings.host, port: settings.port, errno: error.errnoCode,
                                             hostOption: "--listen", suggestsLocal: false).description)
        }
    }

    /// The hub as an application: its router, its database client and sweeper as services, and
    /// the migration run before it serves. `run` serves it; tests answer it in process.
    static func application(_ settings: HubSettings, registry: PrometheusCollectorRegistry, logger: Logger,
                            announce: @escaping @Sendable (String) -> Void) -> some ApplicationProtocol {
        let client = PostgresClient(configuration: settings.database.configuration, backgroundLogger: logger)
        let router = buildRouter(client: client, registry: registry, settings: settings, logger: logger)
        let headTimeout = TimeAmount.nanoseconds(Int64(settings.readTimeout.components.seconds) * 1_000_000_000
                                                 + settings.readTimeout.components.attoseconds / 1_000_000_000)
        var app = Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [RequestReadTimeout(headTimeout: headTimeout)])),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "memery-hub"),
            services: [client, PictureSweeper(client: client, grace: settings.unusedPictureGrace, logger: logger)],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? settings.port
                announce("http://\(settings.host.contains(":") ? "[\(settings.host)]" : settings.host):\(port)")
            },
            logger: logger)
        app.beforeServerStarts {
            try await migrate(client, settings.database, logger: logger)
        }
        return app
    }

    static func buildRouter(client: PostgresClient, registry: PrometheusCollectorRegistry, settings: HubSettings, logger: Logger) -> Router<HubContext> {
        let searchTimeout = settings.searchTimeout
        let accounts = Accounts(client: client, passwords: Passwords(cost: settings.bcryptCost), limits: LoginLimits(client: client, logger: logger),
                                addresses: ClientAddress(trusted: settings.trustedProxies), logger: logger)
        let router = Router(context: HubContext.self)
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: LogAnswers())
        router.add(middleware: ProblemAnswers())
        router.add(middleware: BodyLimits(accounts: accounts))
        let database = settings.database
        router.add(middleware: RequestDeadline(reachable: { await DatabaseReachability.check(database) }))
        router.get(RouterPath(HubPaths.healthz)) { _, _ -> Response in
            // Healthy means the database answers: a hub without it can do nothing.
            do {
                // A health check answers at once: 3 s without the database is unhealthy.
                try await Deadline.run(.seconds(3), failing: HubError(.serviceUnavailable, "unavailable", "the hub cannot reach its database")) {
                    try await client.query("SELECT 1", logger: logger)
                }
                return JSONBody.response(["status": "ok"])
            } catch {
                throw HubError(.serviceUnavailable, "unavailable", "the hub cannot reach its database")
            }
        }
        router.get(RouterPath(HubPaths.metrics)) { _, _ -> Response in
            var buffer = [UInt8]()
            registry.emit(into: &buffer)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
        }
        HubRoutes(accounts: accounts, events: EventLog(client: client, logger: logger),
                  blobs: Blobs(client: client, logger: logger, quotaBytes: settings.quotaBytes)).add(to: router)
        WatchRoute(accounts: accounts).add(to: router)
        LibraryRoutes(accounts: accounts, library: Library(client: client, logger: logger, searchTimeout: searchTimeout)).add(to: router)
        return router
    }

    /// The schema brought up to date, or a one-line reason within 10 seconds: the pool
    /// would otherwise retry a database that is not there for as long as one waits.
    static func migrate(_ client: PostgresClient, _ database: DatabaseAddress, logger: Logger) async throws {
        // Nothing listening is said at once, not after the pool's 10 s of retries.
        guard await DatabaseReachability.check(database) else {
            throw HubStartError("nothing answers at the database's address \(database.shown): is PostgreSQL running there, and are the host and port right?")
        }
        do {
            try await Deadline.run(.seconds(10), failing: HubStartError("""
                the database at \(database.shown) did not answer within 10 s: is PostgreSQL running there, \
                and are the host, port, user and database name right?
                """)) {
                try await Migrations.run(on: client, logger: logger)
            }
        } catch let error as PSQLError {
            throw HubStartError("could not use the database at \(database.shown): \(PostgresProblem.describe(error))")
        }
    }

    /// `memery hub grant-manager USER`: the one way to make a manager.
    public static func grantManager(_ user: String, database: DatabaseAddress) async throws {
        let logger = Logger(label: "memery.hub")
        let client = PostgresClient(configuration: database.configuration, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do {
                try await migrate(client, database, logger: logger)
                try await Accounts(client: client, passwords: Passwords(cost: 4), limits: LoginLimits(client: client, logger: logger), logger: logger)
                    .grantManager(user)
            } catch let error as PSQLError {
                throw HubStartError("could not use the database at \(database.shown): \(PostgresProblem.describe(error))")
            }
        }
    }
}

/// PostgreSQL's failures in words: what the server said, or why it could not be reached.
enum PostgresProblem {
    static func describe(_ error: PSQLError) -> String {
        if let message = error.serverInfo?[.message] { return message }
        if let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }
}
