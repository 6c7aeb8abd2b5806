import Foundation
import HTTPTypes
import Logging
import MemeryHubProtocol
import PostgresNIO

/// Each user's events in the hub's order: pushes that are harmless to repeat, pulls by cursor.
/// A push costs five statements and its commit; a pull, two or three.
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
        return try await client.withTransaction(logger: logger) { connection in
            // The user's row is the turnstile: one push per user at a time, so positions are
            // handed out, and become visible, in order. The receipt is read after the lock, in
            // a statement of its own: one that waited for the lock must see what the push
            // before it committed.
            var position: Int64 = 0
            for try await value in try await connection.query("SELECT position FROM users WHERE id = \(who.user) FOR UPDATE", logger: logger).decode(Int64.self) {
                position = value
            }
            for try await (accepted, duplicates, at) in try await connection.query("""
                SELECT accepted, duplicates, position FROM push_receipts WHERE user_id = \(who.user) AND key = \(request.key)
                """, logger: logger).decode((Int, Int, Int64).self) {
                return PushAnswer(accepted: accepted, duplicates: duplicates, position: at, behind: position > request.seen, replayed: true)
            }
            let hashes = Array(Set(request.events.flatMap(\.blobs)))
            if !hashes.isEmpty {
                var granted = Set<String>()
                for try await hash in try await connection.query("""
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
            // The events the hub lacks, numbered after the user's position in the push's
            // order, inserted in one statement; those it has are left out.
            let events = request.events
            let inserted = try await connection.query("""
                WITH pushed AS (
                    SELECT * FROM unnest(\(events.map { $0.id.uuidString })::uuid[], \(events.map { $0.batch.uuidString })::text[],
                                         \(events.map { $0.stream.uuidString })::text[], \(events.map { $0.parent?.uuidString ?? "" })::text[],
                                         \(events.map(\.type))::text[], \(events.map { Int64($0.schemaVersion) })::bigint[], \(events.map(\.time))::bigint[],
                                         \(events.map(\.payload))::text[], \(events.map { $0.blobs.joined(separator: ",") })::text[],
                                         \(events.map(\.checksum))::text[]) WITH ORDINALITY AS u(i, b, s, pa, t, v, tm, pl, bl, c, n)),
                new AS (
                    SELECT p.*, row_number() OVER (ORDER BY p.n) AS k FROM pushed p
                    WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = \(who.user) AND e.id = p.i))
                INSERT INTO events (user_id, position, id, batch, stream, parent, type, schema_version, time_ms, payload, blobs, checksum)
                SELECT \(who.user), \(position) + k, i, b::uuid, s::uuid, NULLIF(pa, '')::uuid, t, v, tm, pl,
                       CASE WHEN bl = '' THEN '{}'::text[] ELSE string_to_array(bl, ',') END, c
                FROM new
                RETURNING 1
                """, logger: logger)
            var accepted = 0
            for try await _ in inserted.decode(Int.self) { accepted += 1 }
            let answer = PushAnswer(accepted: accepted, duplicates: events.count - accepted, position: position + Int64(accepted),
                                    behind: position > request.seen)
            // The new position and the push's receipt, in one statement.
            try await connection.query("""
                WITH moved AS (UPDATE users SET position = \(answer.position) WHERE id = \(who.user) AND \(accepted) > 0)
                INSERT INTO push_receipts (user_id, key, accepted, duplicates, position)
                VALUES (\(who.user), \(request.key), \(answer.accepted), \(answer.duplicates), \(answer.position))
                ON CONFLICT (user_id, key) DO NOTHING
                """, logger: logger)
            // Receipts are for retries within days; old ones go now and then, not on every push.
            if Int.random(in: 0..<100) == 0 {
                try await connection.query("DELETE FROM push_receipts WHERE user_id = \(who.user) AND created_at < now() - interval '7 days'", logger: logger)
            }
            return answer
        }
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
