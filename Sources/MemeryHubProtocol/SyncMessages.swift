import Foundation

/// A push: events the hub may lack, whole appends only, pictures already uploaded.
public struct PushRequest: Codable, Sendable {
    /// Names this push: sent again (a retry after a lost answer), it gets the first answer back.
    public var key: String
    /// The last hub position this machine had pulled when it pushed.
    public var seen: Int64
    public var events: [HubEvent]
    /// The last event this machine pushed before (its checkpoint), nil on a first push. A hub
    /// that lacks it (restored from an older backup) stores nothing and answers `lacking`.
    public var checkpoint: UUID?
    /// True while the machine sends everything it holds again (after `lacking`, or a pull's
    /// `restart`): a parent it does not send is not to be had, and is not asked for again.
    public var resending: Bool?
    /// This machine's earlier checkpoints, newest first (at most `historyLimit`), as
    /// CouchDB's replication keeps them: when the hub lacks what the push builds on, it
    /// answers the newest of these it holds (`common`), and the machine sends again only
    /// what came after that.
    public var history: [UUID]?
    public static let historyLimit = 64
    /// A pull to answer with the push (`PushAnswer.pulled`), so that a sync that pushes takes
    /// one round trip, not two. A hub from before this field ignores it and answers no page:
    /// the machine then pulls as before.
    public var pull: PullAsk?
    public init(key: String, seen: Int64, events: [HubEvent], checkpoint: UUID? = nil, resending: Bool = false, history: [UUID]? = nil,
                pull: PullAsk? = nil) {
        self.key = key; self.seen = seen; self.events = events; self.checkpoint = checkpoint; self.resending = resending
        self.history = history; self.pull = pull
    }
}

/// The pull a push asks to be answered with: what `GET /v1/events?after=&at=&limit=` asks.
public struct PullAsk: Codable, Sendable, Equatable {
    /// The machine's cursor: the last hub position it pulled.
    public var after: Int64
    /// The event it pulled at that position, to notice a hub restored from an older backup.
    public var at: UUID?
    public var limit: Int
    public init(after: Int64, at: UUID?, limit: Int) {
        self.after = after; self.at = at; self.limit = limit
    }
}

public struct PushAnswer: Codable, Sendable, Equatable {
    /// Events the hub had not had.
    public var accepted: Int
    /// Events it had already (a retry, or events that came from the hub): stored nothing.
    public var duplicates: Int
    /// The user's newest position after the push.
    public var position: Int64
    /// True when the hub holds events past `seen` that the machine has not pulled.
    public var behind: Bool
    /// True when this is the answer kept for an earlier push with the same key: this push stored nothing.
    public var replayed: Bool
    /// Set when the hub lacks what the push builds on: the machine's checkpoint, or an
    /// event's parent (says which). Nothing was stored: the machine sends everything it
    /// holds again, whoever made it (the hub was restored from an older backup).
    public var lacking: String?
    /// With `lacking`: the newest of the push's `history` the hub holds, where the two last
    /// agreed. Everything the machine pushed up to it is on the hub; nil: none is, send everything.
    public var common: UUID?
    /// How far (milliseconds) the newest event of the push is ahead of the hub's clock, when
    /// that is more than a few minutes: the events are stored, and the machine's clock is off.
    public var clockAhead: Int64?
    /// The page the push's `pull` asked for, read after the push was stored (so it holds the
    /// push's own events too); nil when none was asked, or with `lacking`.
    public var pulled: PullAnswer?
    public init(accepted: Int, duplicates: Int, position: Int64, behind: Bool, replayed: Bool = false, lacking: String? = nil,
                clockAhead: Int64? = nil, common: UUID? = nil, pulled: PullAnswer? = nil) {
        self.accepted = accepted; self.duplicates = duplicates; self.position = position; self.behind = behind
        self.replayed = replayed; self.lacking = lacking; self.clockAhead = clockAhead; self.common = common; self.pulled = pulled
    }
}

/// A page of the user's events after a cursor, in the hub's order, whole appends only.
public struct PullAnswer: Codable, Sendable, Equatable {
    public var events: [HubEvent]
    /// The cursor for the next page: the position of the last event here (the request's when empty).
    public var cursor: Int64
    /// True when there are events after this page.
    public var more: Bool
    /// True when the event the machine named as its cursor's (`at`) is not at that
    /// position: the hub is not the one the machine synced with (restored from an older
    /// backup, or the account made anew). The page is empty; the machine starts over,
    /// pushing and pulling everything, which stores nothing twice on either side.
    public var restart: Bool
    public init(events: [HubEvent], cursor: Int64, more: Bool, restart: Bool = false) {
        self.events = events; self.cursor = cursor; self.more = more; self.restart = restart
    }
}

/// What a failed request answers, with a status of 4xx or 5xx.
public struct HubProblem: Codable, Sendable, Error, Equatable {
    /// A stable word for programs: `bad-request`, `unauthorized`, `forbidden`, `not-found`,
    /// `conflict`, `missing-pictures`, `unreadable-event`, `too-many-attempts`, `too-large`, `unavailable`.
    public var error: String
    /// A sentence for people: what was wrong and what to do.
    public var message: String
    /// The pictures a push referred to that the hub lacks (for `missing-pictures`).
    public var missing: [String]?
    /// For `internal`: the id the hub logged the failure under, for its operator.
    public var request: String?
    public init(error: String, message: String, missing: [String]? = nil, request: String? = nil) {
        self.error = error; self.message = message; self.missing = missing; self.request = request
    }
}

/// Which pictures: asked with every hash a push will use, answered with those the user has
/// not uploaded yet (`POST /v1/blobs/missing`).
public struct BlobList: Codable, Sendable {
    public var hashes: [String]
    public init(hashes: [String]) { self.hashes = hashes }
}

/// Creations whose purge a machine sends ahead of its push (`POST /v1/purges`): a push past
/// the quota frees its room first. Each purge's own note follows in log order and finds the
/// work done.
public struct PurgeRequest: Codable, Sendable {
    public var creations: [UUID]
    public init(creations: [UUID]) { self.creations = creations }
}

/// How many of the user's events on the hub the purges emptied.
public struct PurgeAnswer: Codable, Sendable {
    public var emptied: Int
    public init(emptied: Int) { self.emptied = emptied }
}

/// Where the hub answers: the paths of protocol version 1.
public enum HubPaths {
    public static let accounts = "/v1/accounts"
    public static let sessions = "/v1/sessions"
    /// A browser's sign-in: the session's token set as an HttpOnly cookie, never in the answer.
    public static let browserSession = "/v1/browser/session"
    public static let account = "/v1/account"
    public static let password = "/v1/account/password"
    public static let events = "/v1/events"
    public static let blobs = "/v1/blobs"
    public static let purges = "/v1/purges"
    /// Server-Sent Events: `position` each time the user's newest position passes `after`.
    public static let watch = "/v1/events/watch"
    public static let recommendations = "/v1/recommendations"
    public static let templates = "/v1/templates"
    public static let shares = "/v1/shares"
    public static let library = "/v1/library"
    public static let search = "/v1/search"
    /// A shared meme's public link: `/s/{id}.{ext}`.
    public static let shareLinks = "/s"
    public static let healthz = "/healthz"
    public static let metrics = "/metrics"
    /// The header that carries the SHA-256 (hex) of an answer's body.
    public static let checksumHeader = "X-Memery-Checksum"
}
