import Foundation
import HTTPTypes
import Hummingbird
import Memery
import MemeryHubClient
import NIOCore

/// `/api/hub`: the hub the store is logged in to, as the editor's page uses it. The page
/// talks only to this server (its token, its content policy); this server talks to the hub
/// with the store's login, which never reaches the page.
struct HubRoutes {
    let workspace: Workspace
    /// The hub serves this editor itself (`ServerSettings.servedByHub`).
    var servedByHub = false

    func add(to router: Router<ServerContext>) {
        let api = router.group("api/hub")
        api.get(use: status)
        api.get("recommended", use: recommended)
        api.get("search", use: search)
        api.get("library/:id/picture", use: picture)
        api.post("use", use: use)
        api.delete("library/:id", use: takeDown)
        api.post("recommendations", use: recommend)
        api.put("recommendations/:id/position", use: move)
        router.post("api/creations/:name/share", use: share)
    }

    /// Who the store is logged in as, where; `connected: false` when it is not.
    @Sendable func status(_ request: Request, context: ServerContext) async throws -> Response {
        guard let login = try HubLogin.load(workspace) else { return JSONAnswer.response(HubStatusAnswer(connected: false)) }
        return JSONAnswer.response(HubStatusAnswer(connected: true, hub: servedByHub ? nil : login.hub, user: login.user,
                                                   manager: login.role == "manager", signedIn: servedByHub ? true : nil))
    }

    @Sendable func recommended(_ request: Request, context: ServerContext) async throws -> Response {
        let connection = try reader()
        let week = request.uri.queryParameters["week"].map(String.init)
        let answer = try await hub { try await HubLibrary.recommended(connection, week: week) }
        return JSONAnswer.response(LibraryWeekAnswer(week: answer.week, weeks: answer.weeks, items: answer.items.map(LibraryEntryAnswer.init)))
    }

    @Sendable func search(_ request: Request, context: ServerContext) async throws -> Response {
        let words = request.uri.queryParameters["q"].map(String.init) ?? ""
        guard !words.trimmingCharacters(in: .whitespaces).isEmpty else { throw APIError(.badRequest, "type a word to search for") }
        let connection = try reader()
        let items = try await hub { try await HubLibrary.search(connection, words: words, limit: 40) }
        return JSONAnswer.response(["items": items.map(LibraryEntryAnswer.init)])
    }

    /// An entry's picture through this server, so the page's content policy stays 'self'.
    @Sendable func picture(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let connection = try reader()
        let (data, type) = try await hub {
            let item = try await HubLibrary.item(connection, id: id)
            return (try await HubLibrary.picture(connection, of: item), item.contentType)
        }
        // Served from this page's own origin: only a picture, of a type its bytes agree with,
        // whatever the hub says.
        guard LibraryRules.contentTypes[type] != nil, LibraryRules.sniff(data) == type else {
            throw APIError(.badGateway, "the hub's picture for \(id) is not the PNG, JPEG, WebP or GIF it claims to be", kind: "hub")
        }
        return BytesAnswer.response(data, type: type, cache: "private, max-age=300")
    }

    /// A new creation from an entry: `{"id": ..., "name": optional}`.
    @Sendable func use(_ request: Request, context: ServerContext) async throws -> Response {
        let fields = try await JSONAnswer.body(of: request, context: context) as? [String: Any] ?? [:]
        guard let id = fields["id"] as? String else { throw APIError(.badRequest, "send {\"id\": ENTRY, \"name\": optional}") }
        let name = fields["name"] as? String
        let connection = try reader()
        let start = try await hub { try await HubLibrary.startingPoint(connection, id: id) }
        let made = try await workspace.editing { try start.create(in: $0, name: name).name }
        return JSONAnswer.response(["name": made], status: .created)
    }

    /// Shares a creation: `{"format": optional, "quality": optional}`; answers the public link.
    @Sendable func share(_ request: Request, context: ServerContext) async throws -> Response {
        let name = try context.parameters.creationName()
        let fields = try await JSONAnswer.body(of: request, context: context) as? [String: Any] ?? [:]
        let format = try (fields["format"] as? String).map { text in
            guard let format = ExportFormat(rawValue: text) else { throw APIError(.badRequest, "format is png, jpeg, webp or gif") }
            return format
        }
        let quality = fields["quality"] as? Int ?? ExportFormat.defaultQuality
        let login = try requireLogin()
        let (picture, title) = try await workspace.reading { workspace in
            (try workspace.library.picture(of: name, format: format, quality: quality), try workspace.creation(named: name).name)
        }
        let item = try await hub { try await HubLibrary.publish(login, .share, picture: picture, title: title, tags: []) }
        return JSONAnswer.response(["link": HubLibrary.link(item, on: servedByHub ? "" : login.hub), "id": item.id], status: .created)
    }

    /// A manager recommends a creation of this store: `{"creation": NAME, "title": ..., "tags": [...]}`.
    @Sendable func recommend(_ request: Request, context: ServerContext) async throws -> Response {
        let fields = try await JSONAnswer.body(of: request, context: context) as? [String: Any] ?? [:]
        guard let name = fields["creation"] as? String else { throw APIError(.badRequest, "send {\"creation\": NAME, \"title\": ..., \"tags\": [...]}") }
        let title = fields["title"] as? String ?? name
        let tags = fields["tags"] as? [String] ?? []
        let login = try requireLogin()
        let picture = try await workspace.reading { try $0.library.picture(of: name, format: nil) }
        let item = try await hub { try await HubLibrary.publish(login, .recommendation, picture: picture, title: title, tags: tags) }
        return JSONAnswer.response(LibraryEntryAnswer(item), status: .created)
    }

    @Sendable func move(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let fields = try await JSONAnswer.body(of: request, context: context) as? [String: Any] ?? [:]
        guard let position = fields["position"] as? Int, position >= 1 else { throw APIError(.badRequest, "send {\"position\": 1 or more}") }
        let login = try requireLogin()
        let week = try await hub { try await HubLibrary.move(login, id: id, to: position) }
        return JSONAnswer.response(LibraryWeekAnswer(week: week.week, weeks: week.weeks, items: week.items.map(LibraryEntryAnswer.init)))
    }

    @Sendable func takeDown(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let login = try requireLogin()
        let kind = try LibraryItem.Kind(rawValue: request.uri.queryParameters["kind"].map(String.init) ?? "recommendation")
            .orThrow(APIError(.badRequest, "?kind= is recommendation, template or share"))
        try await hub { try await HubLibrary.remove(login, id: id, kind: kind) }
        return Response(status: .noContent)
    }

    // MARK: Helpers

    func reader() throws -> HubConnection {
        guard let login = try HubLogin.load(workspace) else { throw Self.notConnected }
        return try HubConnection(hub: login.hub)
    }

    func requireLogin() throws -> HubLogin {
        guard let login = try HubLogin.load(workspace) else { throw Self.notConnected }
        return login
    }

    static let notConnected = APIError(.conflict, "this store is not logged in to a hub: run `memery login HUB_URL --user NAME`, then reload", kind: "hub")

    /// The hub's refusal or silence, as this server's answer: its message, its status when it
    /// gave one (a 502 when it did not answer).
    func hub<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as HubClientError {
            let status = error.status.map { HTTPResponse.Status(code: $0) } ?? .badGateway
            throw APIError(error.isBadInput ? .badRequest : status, error.description, kind: "hub")
        }
    }
}

extension Optional {
    func orThrow(_ error: @autoclosure () -> any Error) throws -> Wrapped {
        guard let self else { throw error() }
        return self
    }
}
