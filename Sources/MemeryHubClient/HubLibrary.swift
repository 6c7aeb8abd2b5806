import Crypto
public import Foundation
public import Memery
public import MemeryHubProtocol
import NIOCore
import NIOHTTP1

/// A hub's public library from a store: browsing recommendations, searching, starting a
/// creation from an entry, and publishing (recommendations, templates, shared memes).
public enum HubLibrary {
    /// A connection for reading: to `hub` when given, else to the hub the store is logged in
    /// to (reading needs no login, so `hub` serves a store that is not logged in).
    public static func reader(_ workspace: Workspace, hub: String?) throws -> HubConnection {
        if let hub { return try HubConnection(hub: hub) }
        if let login = try HubLogin.load(workspace) { return try HubConnection(hub: login.hub) }
        throw HubClientError("which hub? This store is not logged in to one: give --hub HUB_URL (or `memery login HUB_URL --user NAME`)",
                             isBadInput: true)
    }

    public static func recommended(_ connection: HubConnection, week: String?) async throws -> RecommendedWeek {
        if let week, !LibraryRules.isWeek(week) {
            throw HubClientError("\(week) is not an ISO week: give it as 2026-W47", isBadInput: true)
        }
        let query = week.map { "?week=" + $0 } ?? ""
        return try await connection.json(.GET, HubPaths.recommendations + query, as: RecommendedWeek.self)
    }

    public static func search(_ connection: HubConnection, words: String, kind: LibraryItem.Kind? = nil, limit: Int = 50) async throws -> [LibraryItem] {
        var parts = URLComponents()
        parts.queryItems = [URLQueryItem(name: "q", value: words), URLQueryItem(name: "limit", value: String(limit))]
            + (kind.map { [URLQueryItem(name: "kind", value: $0.rawValue)] } ?? [])
        // '+' means a space to the hub's query parser; URLComponents leaves it as it is.
        let query = (parts.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        var searching = connection
        searching.timeout = .seconds(45)  // the hub answers within 30 s (a search stops at 20 s) and says why
        return try await searching.json(.GET, HubPaths.search + "?" + query, as: LibraryPage.self).items
    }

    public static func item(_ connection: HubConnection, id: String) async throws -> LibraryItem {
        let id = entryID(from: id)
        return try await connection.json(.GET, HubPaths.library + "/" + id, as: LibraryItem.self)
    }

    /// An entry's picture, checked against the hash the entry names.
    public static func picture(_ connection: HubConnection, of item: LibraryItem) async throws -> Data {
        let data = try await connection.send(.GET, item.picturePath)
        guard hex(SHA256.hash(data: data)) == item.hash else {
            throw HubClientError("the picture of \(item.id) is not the one its entry names: nothing was used; try again", isDamagedAnswer: true)
        }
        return data
    }

    /// Starts a creation from a library entry: a template as its canvas, base picture and
    /// text boxes; anything else with its picture as the base image.
    public static func startCreation(_ workspace: Workspace, from connection: HubConnection, id: String, name: String?) async throws -> (creation: Creation, item: LibraryItem) {
        let start = try await startingPoint(connection, id: id)
        return (try start.create(in: workspace, name: name), start.item)
    }

    /// What a creation started from an entry needs, fetched and checked; nothing is stored yet.
    public static func startingPoint(_ connection: HubConnection, id: String) async throws -> StartingPoint {
        let item = try await item(connection, id: id)
        if item.kind == .template, item.template != nil {
            let base = item.baseHash == nil ? nil : try await connection.send(.GET, HubPaths.library + "/" + item.id + "/base")
            return StartingPoint(item: item, picture: base)
        }
        return StartingPoint(item: item, picture: try await picture(connection, of: item))
    }

    public struct StartingPoint: Sendable {
        public let item: LibraryItem
        /// The entry's picture, or a template's base picture (nil for a blank template).
        public let picture: Data?

        /// The creation, named `name` or after the entry's title (made unique).
        public func create(in workspace: Workspace, name: String?) throws -> Creation {
            let name = try name ?? workspace.library.freeName(titled: item.title)
            let source = "hub entry \(item.id) (\"\(item.title)\")"
            if item.kind == .template, let json = item.template {
                return try workspace.library.create(name: name, publishedTemplate: json, baseImageData: picture, source: source)
            }
            return try workspace.create(name: name, imageData: picture ?? Data(), sourceName: source)
        }
    }

    /// Uploads the picture(s), then puts the entry in the library.
    public static func publish(_ login: HubLogin, _ kind: LibraryItem.Kind, picture: LibraryPicture, title: String, tags: [String],
                               week: String? = nil, template: String? = nil, base: Data? = nil) async throws -> LibraryItem {
        if let problem = LibraryRules.problem(withTitle: title, tags: tags) { throw HubClientError(problem, isBadInput: true) }
        if let week, !LibraryRules.isWeek(week) { throw HubClientError("\(week) is not an ISO week: give it as 2026-W47", isBadInput: true) }
        let connection = try login.connection()
        let hash = hex(SHA256.hash(data: picture.data))
        try await upload(picture.data, hash: hash, connection)
        let baseHash = base.map { hex(SHA256.hash(data: $0)) }
        if let base, let baseHash { try await upload(base, hash: baseHash, connection) }
        let path = switch kind {
        case .recommendation: HubPaths.recommendations
        case .template: HubPaths.templates
        case .share: HubPaths.shares
        }
        let request = LibraryPublish(title: title, tags: tags, hash: hash, contentType: picture.contentType, width: picture.width,
                                     height: picture.height, week: week, template: template, baseHash: baseHash)
        return try await connection.json(.POST, path, request, as: LibraryItem.self)
    }

    static func upload(_ bytes: Data, hash: String, _ connection: HubConnection) async throws {
        let missing = try await connection.json(.POST, HubPaths.blobs + "/missing", BlobList(hashes: [hash]), as: BlobList.self).hashes
        if !missing.isEmpty { _ = try await connection.send(.PUT, HubPaths.blobs + "/" + hash, body: bytes, type: "application/octet-stream") }
    }

    /// Takes an entry down (a share's link stops working).
    /// `kind`: what the command takes down; an entry of another kind is refused, not removed.
    public static func remove(_ login: HubLogin, id: String, kind: LibraryItem.Kind) async throws {
        let connection = try login.connection()
        let item = try await item(connection, id: id)
        guard item.kind == kind else {
            let command = switch item.kind {
            case .recommendation: "memery recommend remove"
            case .template: "memery template unpublish"
            case .share: "memery share --revoke"
            }
            throw HubClientError("\(item.id) is a \(item.kind.rawValue), not a \(kind.rawValue): `\(command) \(item.id)` takes it down", isBadInput: true)
        }
        _ = try await connection.send(.DELETE, HubPaths.library + "/" + item.id)
    }

    public static func move(_ login: HubLogin, id: String, to position: Int) async throws -> RecommendedWeek {
        try await login.connection().json(.PUT, HubPaths.recommendations + "/" + entryID(from: id) + "/position",
                                          RecommendationMove(position: position), as: RecommendedWeek.self)
    }

    /// The id in what the person gave: an id, or a share's link (http://HUB/s/ID.jpg).
    public static func entryID(from text: String) -> String {
        var last = text.trimmingCharacters(in: .whitespaces)
        if let query = last.firstIndex(where: { $0 == "?" || $0 == "#" }) { last = String(last[..<query]) }
        while last.hasSuffix("/") { last.removeLast() }
        last = String(last.split(separator: "/").last ?? "")
        let id = String(last.split(separator: ".", maxSplits: 1).first ?? "")
        return id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_"))) ?? id
    }

    /// The full public link of a shared meme.
    public static func link(_ item: LibraryItem, on hub: String) -> String { hub + item.sharePath }
}
