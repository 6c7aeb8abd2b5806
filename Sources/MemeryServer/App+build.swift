import Foundation
import HTTPTypes
import Hummingbird
import Logging
public import Memery
import MemeryHTTP
import MemeryWeb
import NIOCore

/// `memery serve`: the router, its guard and its routes, assembled; and the running of it.
public enum EditorServer {
    /// Serves until SIGINT or SIGTERM, then stops cleanly: requests in flight finish, open
    /// event streams end, and every edit acknowledged is already durable. `announce` gets
    /// the address (with its token) once the port is bound.
    public static func run(workspace: Workspace, settings: ServerSettings, announce: @escaping @Sendable (String) -> Void) async throws {
        let files = try EditorFiles(folder: try EditorFiles.locate())
        let address = BoundAddress()
        let feed = ChangeFeed(workspace: workspace)
        let router = buildRouter(workspace: workspace, settings: settings, address: address, feed: feed, files: files)
        var logger = Logger(label: "memery.serve")
        logger.logLevel = ProcessInfo.processInfo.environment["MEMERY_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        let app = Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [ClientGoneWatch()])),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "memery"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? settings.port
                address.set(port)
                announce(settings.address(port: port))
            },
            logger: logger)
        do {
            try await app.runService()
        } catch let error as IOError where CannotListen.understood.contains(error.errnoCode) {
            throw CannotListen(host: settings.host, port: settings.port, errno: error.errnoCode)
        }
    }

    static func buildRouter(workspace: Workspace, settings: ServerSettings, address: BoundAddress, feed: ChangeFeed,
                            files: EditorFiles) -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        router.add(middleware: BodyLimit(limit: settings.maxBodyBytes))
        router.add(middleware: AccessGuard(settings: settings, address: address))
        addEditor(to: router, workspace: workspace, settings: settings, feed: feed, files: files)
        return router
    }

    /// The editor's files and API over one store: what `memery serve` serves behind its
    /// guard, and a hub serves to each signed-in person over their working copy.
    static func addEditor(to router: Router<ServerContext>, workspace: Workspace, settings: ServerSettings, feed: ChangeFeed, files: EditorFiles) {
        router.add(middleware: ErrorAnswers())
        files.add(to: router)
        CreationRoutes(workspace: workspace).add(to: router)
        let site = PictureDownloader(policy: LinkAddressPolicy(allowsPrivateAddresses: settings.allowsPrivateLinks), seconds: settings.downloadSeconds)
        let search = WebSearch.standard(site: site)
        CatalogRoutes(workspace: workspace, search: search).add(to: router)
        WebSearchRoutes(search: search).add(to: router)
        EventRoutes(feed: feed, keepAlive: settings.eventKeepAlive).add(to: router)
        HubRoutes(workspace: workspace, servedByHub: settings.servedByHub).add(to: router)
        for method in [HTTPRequest.Method.get, .post, .put, .delete, .patch] {
            router.on("api/**", method: method) { request, _ -> Response in
                throw APIError(.notFound, "no such API: \(request.method) \(request.uri.path) (schemas/openapi.yaml lists them)")
            }
        }
    }
}

/// Sets each request's body limit, and refuses at once a body whose declared length is over it.
struct BodyLimit: RouterMiddleware {
    let limit: Int

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        var context = context
        context.bodyLimit = limit
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError(.contentTooLarge, "the request body (\(length) bytes) is larger than this server takes (\(limit) bytes); start `memery serve --max-upload-mb N` for more")
        }
        return try await next(request, context)
    }
}
