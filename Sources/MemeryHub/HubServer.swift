public import Foundation
import HTTPTypes
import Hummingbird
import MemeryHTTP
public import Logging
import MemeryHubProtocol
import Metrics
import NIOCore
import NIOHTTPTypes
import PostgresNIO
import Prometheus
import ServiceLifecycle

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
    /// The address people open, when a proxy serves the hub (`--public-url`): an https one
    /// makes the browser's session cookie `Secure`, and its origin may make changes.
    public var publicURL: URL?
    /// A streaming replica of `database` (`--replica-database`): pulls and picture downloads
    /// are read there when it has replayed far enough (`ReplicaReads`).
    public var replicaDatabase: DatabaseAddress?
    public init(database: DatabaseAddress, host: String = "127.0.0.1", port: Int = 8470, bcryptCost: UInt8 = 12, logLevel: Logger.Level = .info,
                searchTimeout: Duration = .seconds(20), trustedProxies: [AddressRange] = [], readTimeout: Duration = .seconds(10),
                quotaBytes: Int64? = nil, unusedPictureGrace: Duration = .seconds(24 * 3600), publicURL: URL? = nil) {
        self.database = database; self.host = host; self.port = port; self.bcryptCost = bcryptCost; self.logLevel = logLevel
        self.searchTimeout = searchTimeout; self.trustedProxies = trustedProxies; self.readTimeout = readTimeout
        self.quotaBytes = quotaBytes; self.unusedPictureGrace = unusedPictureGrace; self.publicURL = publicURL
        // The push function reads the quota from its connection (schema step 7).
        if let quotaBytes { self.database.configuration.options.additionalStartupParameters.append(("memery.quota_bytes", String(quotaBytes))) }
    }
}

/// `memery hub`: the router, its services and the running of it. Everything it knows is in
/// PostgreSQL, so any number of hub processes may serve one database.
public enum HubServer {
    /// Migrates the schema, then serves until SIGINT or SIGTERM. `announce` gets the address
    /// once the port is bound. `pages`: the editor, served to the signed-in person.
    public static func run(_ settings: HubSettings, pages: (any HubPages)? = nil, announce: @escaping @Sendable (String) -> Void) async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = settings.logLevel
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        var metrics = PrometheusMetricsFactory(registry: registry)
        // A working copy's sync call may take up to its 30 s deadline: buckets that reach it.
        metrics.durationHistogramBuckets[HubLocalSync.durationMetric] = metrics.defaultDurationHistogramBuckets.filter { $0 < .seconds(10) }
            + [.seconds(10), .seconds(20), .seconds(30)]
        MetricsSystem.bootstrap(metrics)
        let app = application(settings, pages: pages, registry: registry, logger: Logger(label: "memery.hub"), announce: announce)
        do {
            try await app.runService()
        } catch let error as IOError where CannotListen.understood.contains(error.errnoCode) {
            throw HubStartError(CannotListen(host: settings.host, port: settings.port, errno: error.errnoCode,
                                             hostOption: "--listen", suggestsLocal: false).description)
        }
    }

    /// The hub as an application: its router, its database client and sweeper as services, and
    /// the migration run before it serves. `run` serves it; tests answer it in process.
    static func application(_ settings: HubSettings, pages: (any HubPages)? = nil, registry: PrometheusCollectorRegistry, logger: Logger,
                            announce: @escaping @Sendable (String) -> Void) -> some ApplicationProtocol {
        let client = PostgresClient(configuration: settings.database.configuration, backgroundLogger: logger)
        let replica = settings.replicaDatabase.map { $0.forReplica() }.map { address in
            ReplicaReads(client: PostgresClient(configuration: address.configuration, backgroundLogger: logger), address: address, logger: logger)
        }
        let bell = PositionBell()
        let sessions = SessionCache()
        // The listener connects once the schema is there: before, a database that is down
        // would be logged by the pool ahead of the hub's own one-line message.
        let (migrated, signalMigrated) = AsyncStream<Void>.makeStream()
        var services: [any Service] = [client, PictureSweeper(client: client, grace: settings.unusedPictureGrace, logger: logger),
                                       PositionListener(client: client, bell: bell, sessions: sessions, logger: logger, start: migrated)]
        if let replica { services.append(replica.client) }
        let (router, localSync) = buildRouter(client: client, replica: replica, bell: bell, sessions: sessions, registry: registry, settings: settings,
                                              pages: pages, logger: logger)
        services.append(NoticesOnStop(notices: localSync.events.notices))
        let headTimeout = TimeAmount.nanoseconds(Int64(settings.readTimeout.components.seconds) * 1_000_000_000
                                                 + settings.readTimeout.components.attoseconds / 1_000_000_000)
        var app = Application(
            router: router,
            // ClientGoneWatch: the editor's pages stop a render, or skip one waiting its turn, for a page closed.
            server: .http1(configuration: .init(additionalChannelHandlers: [RequestReadTimeout(headTimeout: headTimeout), ClientGoneWatch()])),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "memery-hub"),
            services: services,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? settings.port
                pages?.hubStarted(at: "http://\(Self.reachableHost(settings.host)):\(port)", signals: HubSignals(bell: bell), sync: localSync)
                announce("http://\(settings.host.contains(":") ? "[\(settings.host)]" : settings.host):\(port)")
            },
            logger: logger)
        app.beforeServerStarts {
            try await migrate(client, settings.database, logger: logger)
            signalMigrated.yield()
            signalMigrated.finish()
        }
        return app
    }

    /// How this process reaches its own port: a hub listening on every address (0.0.0.0,
    /// ::) is reached on loopback.
    static func reachableHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::", "[::]": "[::1]"
        default: host.contains(":") ? "[\(host)]" : host
        }
    }

    /// The router over the hub's PostgreSQL: every route; and the sync's routes' work, for
    /// the pages' working copies to call in process.
    static func buildRouter(client: PostgresClient, replica: ReplicaReads? = nil, bell: PositionBell, sessions: SessionCache? = nil,
                            registry: PrometheusCollectorRegistry,
                            settings: HubSettings, pages: (any HubPages)? = nil, logger: Logger) -> (Router<HubContext>, HubLocalSync) {
        let records = HubRecords(accounts: PostgresAccountRecords(client: client, logger: logger),
                                 logins: PostgresLoginRecords(client: client, logger: logger),
                                 pictures: PostgresPictureRecords(client: client, logger: logger, replica: replica))
        let accounts = records.accounts(settings, logger: logger, sessions: sessions)
        let database = settings.database
        let router = baseRouter(accounts: accounts, settings: settings, pages: pages, registry: registry,
                                reachable: { await DatabaseReachability.check(database) }) {
            // Healthy means the database answers: a hub without it can do nothing.
            // A health check answers at once: 3 s without the database is unhealthy.
            try await Deadline.run(.seconds(3), failing: HubError(.serviceUnavailable, "unavailable", "the hub cannot reach its database")) {
                _ = try await client.query("SELECT 1", logger: logger)
            }
        }
        AccountRoutes(accounts: accounts).add(to: router)
        BrowserSessionRoutes(accounts: accounts, cookie: settings.cookie).add(to: router)
        let blobs = Blobs(records: records.pictures, quotaBytes: settings.quotaBytes)
        let events = EventLog(client: client, logger: logger, replica: replica)
        PictureRoutes(accounts: accounts, blobs: blobs).add(to: router)
        SyncRoutes(accounts: accounts, events: events).add(to: router)
        WatchRoute(accounts: accounts, client: client, bell: bell, logger: logger).add(to: router)
        LibraryRoutes(accounts: accounts, library: Library(client: client, logger: logger, searchTimeout: settings.searchTimeout)).add(to: router)
        return (router, HubLocalSync(accounts: accounts, events: events, blobs: blobs, reachable: { await DatabaseReachability.check(database) },
                                     logger: logger))
    }

    /// The router over records kept in memory: accounts, sessions, login limits and pictures,
    /// answered as the hub answers them, with no database. The sync, the watch and the
    /// library are PostgreSQL's own work (`InMemoryHubRecords` says why) and are absent.
    static func inMemoryRouter(_ records: InMemoryHubRecords, settings: HubSettings, logger: Logger) -> Router<HubContext> {
        let hub = HubRecords(accounts: records, logins: records, pictures: records)
        let accounts = hub.accounts(settings, logger: logger)
        let router = baseRouter(accounts: accounts, settings: settings, pages: nil, registry: PrometheusCollectorRegistry(), reachable: nil) {}
        AccountRoutes(accounts: accounts).add(to: router)
        BrowserSessionRoutes(accounts: accounts, cookie: settings.cookie).add(to: router)
        PictureRoutes(accounts: accounts, blobs: Blobs(records: records, quotaBytes: settings.quotaBytes)).add(to: router)
        return router
    }

    /// What every hub router has before its routes: metrics, logs, changes from browsers held
    /// to this hub's origin, the pages (their own answers, limits and time), then for the API
    /// problems as JSON, body limits, the request deadline, `/healthz` (healthy when `healthy`
    /// returns) and `/metrics`.
    private static func baseRouter(accounts: Accounts, settings: HubSettings, pages: (any HubPages)?, registry: PrometheusCollectorRegistry,
                                   reachable: (@Sendable () async -> Bool)?,
                                   healthy: @escaping @Sendable () async throws -> Void) -> Router<HubContext> {
        let router = Router(context: HubContext.self)
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: LogAnswers())
        router.add(middleware: SameOriginChanges(publicOrigin: settings.publicOrigin))
        if let pages { mount(pages, on: router, accounts: accounts) }
        router.add(middleware: ProblemAnswers())
        router.add(middleware: BodyLimits(accounts: accounts))
        router.add(middleware: RequestDeadline(reachable: reachable))
        router.get(RouterPath(HubPaths.healthz)) { _, _ -> Response in
            do {
                try await healthy()
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
        return router
    }

    /// Every path outside the API goes to the pages, with the person the session names.
    private static func mount(_ pages: any HubPages, on router: Router<HubContext>, accounts: Accounts) {
        let api = [HubPaths.healthz, HubPaths.metrics, "/v1/", HubPaths.shareLinks + "/"]
        for method in [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete] {
            for path in ["/", "**"] {
                router.on(RouterPath(path), method: method) { request, context -> Response in
                    let path = request.uri.path
                    if api.contains(where: { path == $0 || ($0.hasSuffix("/") && path.hasPrefix($0)) }) {
                        throw HubError.notFound("no such API: \(request.method) \(path) (schemas/hub-openapi.yaml lists them)")
                    }
                    // Signed out is no session; a database that does not answer is not that.
                    var person: HubPerson?
                    if pages.needsPerson(request), let token = try? accounts.token(request.headers) {
                        do {
                            let who = try await Deadline.run(.seconds(10), failing: HubError(.serviceUnavailable, "unavailable",
                                                                                             "the hub's database did not answer: try again later")) {
                                try await accounts.signedIn(request.headers)
                            }
                            person = HubPerson(user: who.user, name: who.name, role: who.role, session: who.session, token: token)
                        } catch let error as HubError where error.status == .unauthorized {
                            person = nil
                        } catch let error as HubError {
                            throw error
                        } catch {
                            throw HubError(.serviceUnavailable, "unavailable", "the hub's database cannot be reached: try again later")
                        }
                    }
                    return try await pages.respond(to: request, from: HubVisitor(person: person, channel: context.channel, logger: context.logger))
                }
            }
        }
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
                try await Accounts(records: PostgresAccountRecords(client: client, logger: logger), passwords: Passwords(cost: 4),
                                   limits: LoginLimits(records: PostgresLoginRecords(client: client, logger: logger)), logger: logger)
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

extension HubSettings {
    /// The browser's session cookie: `Secure` when people reach the hub over https.
    var cookie: SessionCookie { SessionCookie(secure: publicURL?.scheme?.lowercased() == "https") }

    /// The `--public-url`'s origin (scheme, host and any port), as a browser sends it.
    var publicOrigin: String? {
        guard let publicURL, let scheme = publicURL.scheme?.lowercased(), let host = publicURL.host?.lowercased() else { return nil }
        // A browser leaves a scheme's own port out of the Origin it sends.
        let port = publicURL.port.flatMap { ($0 == 443 && scheme == "https") || ($0 == 80 && scheme == "http") ? nil : $0 }
        return "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)\(port.map { ":\($0)" } ?? "")"
    }
}
