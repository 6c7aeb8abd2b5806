public import Foundation
public import Hummingbird
public import Logging
public import NIOCore

/// What a hub serves besides its API (`/v1`, `/s`, `/healthz`, `/metrics`): the editor's
/// pages and the editor's API, for the signed-in person (`MemeryHubEditor`). This module
/// never opens a store; the pages are handed to it, so the hub's API keeps no engine in it.
public protocol HubPages: Sendable {
    /// The hub's own address, once its port is bound, its news of pushes, and its sync calls
    /// in process (where the pages' working copies sync).
    func hubStarted(at address: String, signals: HubSignals, sync: HubLocalSync)
    /// Answers a request for any path outside the hub's API.
    func respond(to request: Request, from visitor: HubVisitor) async throws -> Response
    /// Whether the answer depends on who asks: when not (the editor's script and style
    /// files), the session is not looked up in the database.
    func needsPerson(_ request: Request) -> Bool
}

/// Who asked for a page, and on which connection.
public struct HubVisitor: Sendable {
    /// The signed-in person, by the session cookie (or a bearer token); nil when signed out.
    public let person: HubPerson?
    public let channel: any Channel
    public let logger: Logger
}

/// A signed-in person as the pages see them: their user, and the session and token their
/// browser holds (a working copy syncs as that session, so every rule of a device's push
/// holds for a page's edit).
public struct HubPerson: Sendable, Hashable {
    public let user: Int64
    public let name: String
    public let role: String
    public let session: UUID
    public let token: String
}
