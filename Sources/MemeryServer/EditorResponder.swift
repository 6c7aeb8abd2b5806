public import Foundation
public import Hummingbird
public import Logging
public import Memery
public import NIOCore

/// The editor (its files and its API) over one store, for a server that decides for itself
/// who may reach it: a hub serves it to each signed-in person over their working copy, where
/// `memery serve` puts `AccessGuard` in front. One router per store, built once.
public struct EditorResponder: Sendable {
    private let responder: RouterResponder<ServerContext>
    /// Follows the store for the pages' live updates (`/api/events`).
    private let feed: ChangeFeed

    public init(workspace: Workspace, settings: ServerSettings, files: EditorFiles) {
        let router = Router(context: ServerContext.self)
        router.add(middleware: BodyLimit(limit: settings.maxBodyBytes))
        let feed = ChangeFeed(workspace: workspace)
        EditorServer.addEditor(to: router, workspace: workspace, settings: settings, feed: feed, files: files)
        responder = router.buildResponder()
        self.feed = feed
    }

    /// Tells the pages' live updates at once that the store changed (a hub's working copy
    /// stored an edit or a pull), instead of at the next poll.
    public func storeChanged() { feed.poke() }

    /// Ends the pages' live updates: the store is being let go.
    public func close() async { await feed.stop() }

    /// A refusal in the editor API's own words and shape (`{"error", "kind"}`, never cached,
    /// hardened): for what a hub answers before a store is reached (signed out, not saved).
    public static func problem(_ status: HTTPResponse.Status, _ message: String, kind: String) -> Response {
        // A body too large is left unread: the connection closes, as APIError's answer does.
        AccessGuard<ServerContext>.hardened(JSONAnswer.response(APIError.Body(error: message, kind: kind), status: status,
                                                                headers: status == .contentTooLarge ? [.connection: "close"] : [:]))
    }

    /// The answer, with the headers every editor answer carries (no framing, no sniffing,
    /// the content policy): `AccessGuard.hardened`. `sessionEnded` (a hub's): returns once
    /// the asker's session has ended, which ends their event stream with `signedOut`.
    public func respond(to request: Request, channel: any Channel, logger: Logger,
                        sessionEnded: (@Sendable () async -> Void)? = nil) async throws -> Response {
        var context = ServerContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        context.sessionEnded = sessionEnded
        do {
            return AccessGuard<ServerContext>.hardened(try await responder.respond(to: request, context: context))
        } catch let error as any HTTPResponseError {
            return AccessGuard<ServerContext>.hardened(try error.response(from: request, context: context))
        }
    }
}

extension EditorFiles {
    /// The editor's files as this build or install ships them.
    public static func shipped() throws -> EditorFiles { try EditorFiles(folder: try locate()) }

    /// One of the editor's files (`signin.html`), as an answer.
    public func answer(_ name: String) throws -> Response {
        AccessGuard<ServerContext>.hardened(try response(for: name))
    }
}
