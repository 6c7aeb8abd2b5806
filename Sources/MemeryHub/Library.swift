import Foundation
import HTTPTypes
import Logging
import MemeryHubProtocol
import PostgresNIO

/// The public library: recommendations a manager curates by week, templates users publish,
/// memes they share. Each entry's picture is readable by anyone with its id; the id is 128
/// random bits, so a share's link cannot be guessed. Search is PostgreSQL's full-text
/// search over titles and tags.
struct Library: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// A search that runs longer is cancelled by PostgreSQL (`statement_timeout`).
    var searchTimeout: Duration = .seconds(20)

    /// Puts an entry in the library. Its pictures must be ones the user uploaded.
    func publish(_ request: LibraryPublish, as kind: LibraryItem.Kind, by who: SignedIn) async throws -> LibraryItem {
        if kind == .recommendation, !who.isManager {
            throw HubError.forbidden("only a manager publishes recommendations (`memery hub grant-manager` makes one)")
        }
        // Kept composed (NFC), as searches are made; a tag once, whatever its case.
        var tags = [String]()
        for tag in request.tags.map({ $0.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping })
        where !tags.contains(where: { $0.lowercased() == tag.lowercased() }) {
            tags.append(tag)
        }
        let title = request.title.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        if let problem = LibraryRules.problem(withTitle: title, tags: tags) { throw HubError.badRequest(problem) }
        guard LibraryRules.contentTypes[request.contentType] != nil else {
            throw HubError.badRequest("the library keeps \(LibraryRules.contentTypes.keys.sorted().joined(separator: ", ")), not \(request.contentType.prefix(60))")
        }
        guard (1...65_535).contains(request.width), (1...65_535).contains(request.height) else {
            throw HubError.badRequest("width and height are 1 to 65535 pixels")
        }
        let week = kind == .recommendation ? (request.week ?? LibraryRules.week(of: Date())) : nil
        if let week, !LibraryRules.isWeek(week) { throw HubError.badRequest("\(week.prefix(20)) is not an ISO week such as 2026-W47") }
        var template: String?
        if kind == .template {
            guard let text = request.template, text.utf8.count <= 1 << 20,
                  (try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any] else {
                throw HubError.badRequest("a template is published with its JSON object (at most 1 MB)")
            }
            template = text
        }
        let base = kind == .template ? request.baseHash : nil
        for hash in [request.hash] + (base.map { [$0] } ?? []) where !isPictureHash(hash) {
            throw HubError.badRequest("\(hash.prefix(80)) is not a SHA-256 in lower-case hex")
        }
        let id = Self.newID()
        return try await client.withTransaction(logger: logger) { connection in
            // Pictures this user uploaded, whose first bytes say what they are: the library
            // serves them to anyone, so nothing else (a page, a program) may pass as one.
            func uploaded(_ hash: String) async throws -> (head: Data, size: Int)? {
                for try await (head, size) in try await connection.query("""
                    SELECT substring(b.bytes FROM 1 FOR 16), b.size FROM blobs b JOIN blob_grants g ON g.hash = b.hash
                    WHERE g.user_id = \(who.user) AND b.hash = \(Data(hexBytes(hash)))
                    """, logger: logger).decode((Data, Int).self) {
                    return (head, size)
                }
                return nil
            }
            guard let picture = try await uploaded(request.hash) else {
                throw HubError(.conflict, "missing-pictures", "upload the picture first (PUT /v1/blobs/\(request.hash.prefix(12))…)", missing: [request.hash])
            }
            guard LibraryRules.sniff(picture.head) == request.contentType else {
                throw HubError.badRequest("the picture is not \(request.contentType) as the request says: the library keeps PNG, JPEG, WebP and GIF")
            }
            guard picture.size <= LibraryRules.largestPicture else {
                throw HubError(.contentTooLarge, "too-large", "a library picture weighs at most \(LibraryRules.largestPicture >> 20) MB: export it smaller")
            }
            if let base {
                guard let basePicture = try await uploaded(base) else {
                    throw HubError(.conflict, "missing-pictures", "upload the template's base picture first", missing: [base])
                }
                guard LibraryRules.sniff(basePicture.head) != nil else {
                    throw HubError.badRequest("the template's base picture is not a picture this hub knows (PNG, JPEG, GIF, WebP, BMP, TIFF, AVIF)")
                }
            }
            // The same picture shared again under the same title is the link already made:
            // pressing Share twice gives one link to send, not a second public copy.
            if kind == .share, let made = try await Self.items(connection.query("""
                \(unescaped: Self.columns) WHERE l.kind = 'share' AND l.owner_id = \(who.user) AND l.hash = \(Data(hexBytes(request.hash)))
                AND l.title = \(title) AND l.content_type = \(request.contentType) ORDER BY l.created_at LIMIT 1
                """, logger: logger)).first {
                return made
            }
            var position: Int?
            if let week {
                try await Self.lockWeek(week, connection, logger)
                for try await next in try await connection.query("""
                    SELECT coalesce(max(position), 0) + 1 FROM library WHERE kind = 'recommendation' AND week = \(week)
                    """, logger: logger).decode(Int.self) {
                    position = next
                }
            }
            let words = title + " " + tags.joined(separator: " ")
            try await connection.query("""
                INSERT INTO library (id, kind, owner_id, title, tags, hash, content_type, width, height, week, position, template, base_hash, words)
                VALUES (\(id), \(kind.rawValue), \(who.user), \(title), \(tags), \(Data(hexBytes(request.hash))), \(request.contentType),
                        \(request.width), \(request.height), \(week), \(position), \(template), \(base.map { Data(hexBytes($0)) }),
                        setweight(to_tsvector('simple', \(title)), 'A') || setweight(to_tsvector('simple', \(tags.joined(separator: " "))), 'B')
                        || to_tsvector('english', \(words)))
                """, logger: logger)
            logger.info("published", metadata: ["kind": "\(kind.rawValue)", "id": "\(id)", "user": "\(who.name)"])
            return try await Self.items(connection.query("\(unescaped: Self.columns) WHERE l.id = \(id)", logger: logger)).first!
        }
    }

    func item(_ id: String) async throws -> LibraryItem {
        guard Self.isID(id), let item = try await Self.items(client.query("\(unescaped: Self.columns) WHERE l.id = \(id)", logger: logger)).first else {
            throw HubError.notFound("nothing in the library has the id \(id.prefix(40)) (it may have been taken down)")
        }
        return item
    }

    /// What is known of an entry's picture (or a template's base picture) without reading it.
    struct PictureInfo: Sendable {
        var hash: String
        var contentType: String
        var size: Int
    }

    func pictureInfo(_ id: String, base: Bool = false) async throws -> PictureInfo {
        guard Self.isID(id) else { throw HubError.notFound("no picture \(id.prefix(40)) in the library") }
        let rows = try await client.query("""
            SELECT encode(b.hash, 'hex'), l.content_type, b.size, substring(b.bytes FROM 1 FOR 16)
            FROM library l JOIN blobs b ON b.hash = \(unescaped: base ? "l.base_hash" : "l.hash")
            WHERE l.id = \(id)
            """, logger: logger)
        for try await (hash, type, size, head) in rows.decode((String, String, Int, Data).self) {
            return PictureInfo(hash: hash, contentType: base ? (LibraryRules.sniff(head) ?? "application/octet-stream") : type, size: size)
        }
        throw HubError.notFound("no picture \(id.prefix(40)) in the library (it may have been taken down)")
    }

    func bytes(_ hash: String) async throws -> Data {
        for try await bytes in try await client.query("SELECT bytes FROM blobs WHERE hash = \(Data(hexBytes(hash)))", logger: logger).decode(Data.self) {
            return bytes
        }
        throw HubError.notFound("the picture was taken down meanwhile")
    }

    /// A week's recommendations in order, and every week that has some.
    func recommended(week: String?) async throws -> RecommendedWeek {
        let week = week ?? LibraryRules.week(of: Date())
        guard LibraryRules.isWeek(week) else { throw HubError.badRequest("\(week.prefix(20)) is not an ISO week such as 2026-W47") }
        let items = try await Self.items(client.query("""
            \(unescaped: Self.columns) WHERE l.kind = 'recommendation' AND l.week = \(week) ORDER BY l.position, l.created_at
            """, logger: logger))
        var weeks = [String]()
        for try await value in try await client.query("""
            SELECT DISTINCT week FROM library WHERE kind = 'recommendation' ORDER BY week DESC
            """, logger: logger).decode(String.self) {
            weeks.append(value)
        }
        return RecommendedWeek(week: week, items: items, weeks: weeks)
    }

    /// Puts a recommendation at `position` (1 first) in its week; the others close up.
    func move(_ id: String, to position: Int, by who: SignedIn) async throws -> RecommendedWeek {
        guard who.isManager else { throw HubError.forbidden("only a manager reorders recommendations") }
        let item = try await item(id)
        guard item.kind == .recommendation, let week = item.week else { throw HubError.badRequest("\(id) is not a recommendation") }
        try await client.withTransaction(logger: logger) { connection in
            try await Self.lockWeek(week, connection, logger)
            var order = [String]()
            for try await other in try await connection.query("""
                SELECT id FROM library WHERE kind = 'recommendation' AND week = \(week) ORDER BY position, created_at FOR UPDATE
                """, logger: logger).decode(String.self) {
                order.append(other)
            }
            order.removeAll { $0 == id }
            order.insert(id, at: min(max(position, 1), order.count + 1) - 1)
            try await connection.query("""
                UPDATE library l SET position = o.n FROM unnest(\(order)::text[]) WITH ORDINALITY AS o(id, n) WHERE l.id = o.id
                """, logger: logger)
        }
        return try await recommended(week: week)
    }

    /// Takes an entry down: who published it may, and a manager may take down any recommendation.
    func remove(_ id: String, by who: SignedIn) async throws {
        let item = try await item(id)
        // A manager moderates the whole public library.
        guard item.by.lowercased() == who.name.lowercased() || who.isManager else {
            throw HubError.forbidden("only who published \(id), or a manager, can take it down")
        }
        try await client.query("DELETE FROM library WHERE id = \(id)", logger: logger)
        logger.info("took down", metadata: ["kind": "\(item.kind.rawValue)", "id": "\(id)", "user": "\(who.name)"])
    }

    /// Entries whose title or tags hold the words (web-search syntax: "quoted phrases",
    /// -not, or), best first. Words are matched as written and by their English stem.
    func search(_ words: String, kind: LibraryItem.Kind?, limit: Int) async throws -> [LibraryItem] {
        // Composed (NFC) as titles are kept, so "café" typed either way is one word.
        let text = String(words.filter { $0 != "\u{0}" }.prefix(500)).precomposedStringWithCanonicalMapping
        // Words full-text search cannot split (emoji, a run of CJK) are also looked for as
        // they stand, inside titles and tags.
        let pattern = "%" + text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw HubError.badRequest("search for at least one word: ?q=WORDS") }
        let timeout = Int(searchTimeout.components.seconds * 1000 + searchTimeout.components.attoseconds / 1_000_000_000_000_000)
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT set_config('statement_timeout', \(String(timeout)), true)", logger: logger)
                return try await Self.items(connection.query("""
                    \(unescaped: Self.columns)
                    CROSS JOIN (SELECT websearch_to_tsquery('simple', \(text)) || websearch_to_tsquery('english', \(text)) AS q) AS s
                    WHERE (l.words @@ s.q OR l.title ILIKE \(pattern) OR array_to_string(l.tags, ' ') ILIKE \(pattern)) AND (\(kind?.rawValue)::text IS NULL OR l.kind = \(kind?.rawValue))
                    ORDER BY ts_rank(l.words, s.q) DESC, l.created_at DESC LIMIT \(limit)
                    """, logger: logger))
            }
        } catch let error as PostgresTransactionError where (error.closureError as? PSQLError)?.serverInfo?[.sqlState] == "57014" {
            throw HubError(.serviceUnavailable, "timeout",
                           "the search took longer than \(timeout % 1000 == 0 ? String(timeout / 1000) : String(Double(timeout) / 1000)) s and was stopped: try fewer or more particular words")
        }
    }

    /// One change to a week's order at a time (publishing or moving), across hubs.
    static func lockWeek(_ week: String, _ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtext('memery-week:' || \(week)))", logger: logger)
    }

    static let columns = """
        SELECT l.id, l.kind, l.title, l.tags, encode(l.hash, 'hex'), l.content_type, l.width, l.height, u.name,
               (extract(epoch FROM l.created_at) * 1000)::bigint, l.week, l.position, l.template, encode(l.base_hash, 'hex')
        FROM library l JOIN users u ON u.id = l.owner_id
        """

    static func items(_ rows: PostgresRowSequence) async throws -> [LibraryItem] {
        var items = [LibraryItem]()
        for try await row in rows {
            let (id, kind, title, tags, hash, type, width, height, by, created, week, position, template, base) =
                try row.decode((String, String, String, [String], String, String, Int, Int, String, Int64, String?, Int?, String?, String?).self)
            items.append(LibraryItem(id: id, kind: LibraryItem.Kind(rawValue: kind) ?? .share, title: title, tags: tags, hash: hash,
                                     contentType: type, width: width, height: height, by: by, created: created, week: week,
                                     position: position, template: template, baseHash: base))
        }
        return items
    }

    /// 16 random bytes as base64url: 22 characters, never starting with "-" (a command line
    /// would take `memery recommend move -s-WZ… 1` for an option: one id in 64 did).
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let words = (0..<2).map { _ in generator.next() as UInt64 }
            let id = words.withUnsafeBytes { Data($0) }.base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            if !id.hasPrefix("-") { return id }
        }
    }

    static func isID(_ text: String) -> Bool {
        text.count == 22 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
