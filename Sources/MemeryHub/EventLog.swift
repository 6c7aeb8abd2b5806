import Foundation
import HTTPTypes
import Logging
import MemeryHubProtocol
import PostgresNIO

/// Each user's events in the hub's order: pushes that are harmless to repeat, pulls by cursor.
/// A push costs one call of `hub_push` (and a grant check when it names pictures); a pull,
/// two or three statements.
struct EventLog: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// The most events one pull answers (an append is never split, so a page may hold a few more).
    static let pageLimit = 2_000
    static let pushLimit = 10_000

    func push(_ request: PushRequest, by who: SignedIn) async throws -> PushAnswer {
        guard request.events.count <= Self.pushLimit else {
            throw HubError.badRequest("a push holds at most \(Self.pushLimit) events, this one \(request.events.count): send them in parts")
        }
        guard !request.key.isEmpty, request.key.count <= 100, !request.key.contains("\u{0}") else {
            throw HubError.badRequest("a push's key has 1 to 100 characters, none of them NUL")
        }
        try Self.check(request.events)
        // Pictures first: a grant is never taken back while the user exists, so this needs
        // no lock.
        let hashes = Array(Set(request.events.flatMap(\.blobs)))
        if !hashes.isEmpty {
            var granted = Set<String>()
            for try await hash in try await client.query("""
                SELECT encode(hash, 'hex') FROM blob_grants
                WHERE user_id = \(who.user) AND hash IN (SELECT decode(h, 'hex') FROM unnest(\(hashes)::text[]) AS h)
                """, logger: logger).decode(String.self) {
                granted.insert(hash)
            }
            let missing = hashes.filter { !granted.contains($0) }.sorted()
            if !missing.isEmpty {
                throw HubError(.conflict, "missing-pictures",
                               "\(missing.count) picture\(missing.count == 1 ? "" : "s") the events use must be uploaded first (PUT /v1/blobs/HASH)",
                               missing: missing)
            }
        }
        // The rest is one call of `hub_push` (schema step 3), one transaction.
        let events = request.events
        let rows = try await client.query("""
            SELECT o_accepted, o_duplicates, o_position, o_before, o_replayed FROM hub_push(
                \(who.user), \(request.key), \(events.map(\.id))::uuid[], \(events.map(\.batch))::uuid[], \(events.map(\.stream))::uuid[],
                \(events.map { $0.parent?.uuidString ?? "" })::text[], \(events.map(\.type))::text[], \(events.map { Int32($0.schemaVersion) })::integer[],
                \(events.map(\.time))::bigint[], \(events.map(\.payload))::text[], \(events.map { $0.blobs.joined(separator: ",") })::text[],
                \(events.map(\.checksum))::text[])
            """, logger: logger)
        for try await (accepted, duplicates, position, before, replayed) in rows.decode((Int, Int, Int64, Int64, Bool).self) {
            // Receipts are for retries within days; old ones go now and then, not on every push.
            if !replayed, Int.random(in: 0..<100) == 0 {
                try await client.query("DELETE FROM push_receipts WHERE user_id = \(who.user) AND created_at < now() - interval '7 days'", logger: logger)
            }
            return PushAnswer(accepted: accepted, duplicates: duplicates, position: position, behind: before > request.seen, replayed: replayed)
        }
        throw HubError(.internalServerError, "internal", "the push stored nothing and said nothing; it is logged, try again")
    }

    /// Refuses a push that is not whole, intact appends: each event as its writer hashed it,
    /// the events of one append side by side.
    static func check(_ events: [HubEvent]) throws {
        var finished = Set<UUID>(), ids = Set<UUID>()
        var current: UUID?
        for event in events {
            guard ids.insert(event.id).inserted else {
                throw HubError.badRequest("event \(event.id.uuidString.lowercased()) is in the push twice")
            }
            guard (1...1_000_000).contains(event.schemaVersion), !event.type.isEmpty,
                  !event.type.contains("\u{0}"), !event.payload.contains("\u{0}") else {
                throw HubError.badRequest("event \(event.id.uuidString.lowercased()) has a type, version or payload no store writes")
            }
            guard event.isIntact else {
                throw HubError.badRequest("event \(event.id.uuidString.lowercased()) does not match its checksum: it changed on the way; nothing was stored")
            }
            guard event.payload.utf8.count <= 16 << 20, event.type.count <= 100, event.blobs.count <= 1_000 else {
                throw HubError.badRequest("event \(event.id.uuidString.lowercased()) is larger than the hub takes")
            }
            guard event.blobs.allSatisfy(isPictureHash) else {
                throw HubError.badRequest("event \(event.id.uuidString.lowercased()) names a picture that is not a SHA-256 in hex")
            }
            if event.batch != current {
                if let current { finished.insert(current) }
                guard !finished.contains(event.batch) else {
                    throw HubError.badRequest("the events of append \(event.batch.uuidString.lowercased()) are not side by side")
                }
                current = event.batch
            }
        }
    }


    func pull(after cursor: Int64, at expected: UUID?, limit: Int, by who: SignedIn) async throws -> PullAnswer {
        let limit = min(max(limit, 1), Self.pageLimit)
        if let expected, cursor > 0 {
            var found: UUID?
            for try await id in try await client.query("""
                SELECT id FROM events WHERE user_id = \(who.user) AND position = \(cursor)
                """, logger: logger).decode(UUID.self) {
                found = id
            }
            if found != expected { return PullAnswer(events: [], cursor: cursor, more: false, restart: true) }
        }
        var events = try await decode(try await client.query("""
            SELECT \(unescaped: Self.columns) FROM events WHERE user_id = \(who.user) AND position > \(cursor) ORDER BY position LIMIT \(limit)
            """, logger: logger))
        // A short page is everything there was (an append becomes visible whole): no more to ask.
        guard events.count == limit else { return PullAnswer(events: events, cursor: events.last?.position ?? cursor, more: false) }
        if let last = events.last, let end = last.position {
            // An append is never split between pages: the rest of it follows at once.
            var next = end + 1
            for event in try await decode(try await client.query("""
                SELECT \(unescaped: Self.columns) FROM events
                WHERE user_id = \(who.user) AND batch = \(last.batch) AND position > \(end) AND position <= \(end + Int64(Self.pushLimit))
                ORDER BY position
                """, logger: logger)) {
                guard event.position == next else { break }
                events.append(event)
                next += 1
            }
        }
        let end = events.last?.position ?? cursor
        var newest: Int64 = 0
        for try await value in try await client.query("SELECT position FROM users WHERE id = \(who.user)", logger: logger).decode(Int64.self) {
            newest = value
        }
        return PullAnswer(events: events, cursor: end, more: newest > end)
    }

    private static let columns = "position, id, batch, stream, parent, type, schema_version, time_ms, payload, blobs, checksum"

    private func decode(_ rows: PostgresRowSequence) async throws -> [HubEvent] {
        var events = [HubEvent]()
        for try await (position, id, batch, stream, parent, type, version, time, payload, blobs, checksum)
            in rows.decode((Int64, UUID, UUID, UUID, UUID?, String, Int64, Int64, String, [String], String).self) {
            // As its writer made it: the reader checks it.
            events.append(HubEvent(id: id, batch: batch, stream: stream, parent: parent, type: type, schemaVersion: Int(version),
                                   time: time, payload: payload, blobs: blobs, checksum: checksum, position: position))
        }
        return events
    }
}
