import Memery
import MemeryHubClient

// The editor's API answers that wrap the facade's typed answers (`Memery/Answers`).

/// `GET /api/creations`: the gallery, in its order.
struct CreationsAnswer: Encodable, Sendable {
    var creations: [CreationSummary]
}

/// `POST /api/creations/{name}/edits`: what each edit did, and where the creation is after.
struct EditsAnswer: Encodable, Sendable {
    var creation: String
    var version: UInt64
    @Nullable var head: UInt64?
    var changed: Bool
    var results: [EditResult]
}

/// `GET /api/creations/{name}/hit?x=&y=`: the topmost layer at a point (null: none).
struct LayerHitAnswer: Encodable, Sendable {
    @Nullable var layer: LayerAnswer?
}

/// `GET /api/filters`: the installed filters, and the plugins skipped while loading.
struct FiltersAnswer: Encodable, Sendable {
    var filters: [FilterAnswer]
    var skipped: [String]
}

/// `GET /api/hub`: who the store is logged in as, where; `connected: false` alone when not.
struct HubStatusAnswer: Encodable, Sendable {
    var connected: Bool
    var hub: String?
    var user: String?
    var manager: Bool?
    /// True when the hub itself serves this page to its signed-in person (who can sign out).
    var signedIn: Bool?
}

/// An entry of the hub's library as the page shows it, its picture through this server (so
/// the page's content policy stays 'self').
struct LibraryEntryAnswer: Encodable, Sendable {
    var id: String
    var kind: String
    var title: String
    var tags: [String]
    var width: Int
    var height: Int
    var by: String
    var picture: String
    var week: String?
    var position: Int?

    init(_ item: LibraryItem) {
        id = item.id; kind = item.kind.rawValue; title = item.title; tags = item.tags; width = item.width; height = item.height
        by = item.by; picture = "/api/hub/library/\(item.id)/picture"; week = item.week; position = item.position
    }
}

/// A week of recommendations, and the weeks that have any.
struct LibraryWeekAnswer: Encodable, Sendable {
    var week: String
    var weeks: [String]
    var items: [LibraryEntryAnswer]
}

/// `GET /api/web/search`: what each picture search found, or why it found nothing.
struct WebSearchAnswer: Encodable, Sendable {
    struct Found: Encodable, Sendable {
        var reference: String
        var title: String
        var author: String
        var licence: String
        var licenceURL: String
        var page: String
        var thumbnail: String
        var width: Int
        var height: Int
    }
    struct Outcome: Encodable, Sendable {
        var provider: String
        var label: String
        var problem: String
        var images: [Found]
    }
    var web: [Outcome]
}
