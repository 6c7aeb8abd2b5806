import Foundation
import HTTPTypes
import Logging
import MemeryHubProtocol
import PostgresNIO

/// Each user's events in the hub's order: pushes that are harmless to repeat, pulls by cursor.
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
            // handed out, and become visible, in order.
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
            var stored = Set<UUID>()
            for try await id in try await connection.query("""
                SELECT id FROM events WHERE user_id = \(who.user) AND id = ANY(\(request.events.map { $0.id.uuidString })::uuid[])
                """, logger: logger).decode(UUID.self) {
                stored.insert(id)
            }
            let new = request.events.filter { !stored.contains($0.id) }
            let first = position + 1
            if !new.isEmpty {
                let positions = (0..<Int64(new.count)).map { first + $0 }
                try await connection.query("""
                    INSERT INTO events (user_id, position, id, batch, stream, parent, type, schema_version, time_ms, payload, blobs, checksum)
                    SELECT \(who.user), p, i::uuid, b::uuid, s::uuid, NULLIF(pa, '')::uuid, t, v, tm, pl,
                           CASE WHEN bl = '' THEN '{}'::text[] ELSE string_to_array(bl, ',') END, c
                    FROM unnest(\(positions)::bigint[], \(new.map { $0.id.uuidString })::text[], \(new.map { $0.batch.uuidString })::text[],
                                \(new.map { $0.stream.uuidString })::text[], \(new.map { $0.parent?.uuidString ?? "" })::text[],
                                \(new.map(\.type))::text[], \(new.map { Int64($0.schemaVersion) })::bigint[], \(new.map(\.time))::bigint[],
                                \(new.map(\.payload))::text[], \(new.map { $0.blobs.joined(separator: ",") })::text[],
                                \(new.map(\.checksum))::text[]) AS u(p, i, b, s, pa, t, v, tm, pl, bl, c)
                    """, logger: logger)
                position += Int64(new.count)
                try await connection.query("UPDATE users SET position = \(position) WHERE id = \(who.user)", logger: logger)
                try await connection.query("SELECT pg_notify('memery_user_' || \(who.user), \(String(position)))", logger: logger)
            }
            let answer = PushAnswer(accepted: new.count, duplicates: request.events.count - new.count, position: position,
                                    behind: position - Int64(new.count) > request.seen)
            try await connection.query("""
                INSERT INTO push_receipts (user_id, key, accepted, duplicates, position)
                VALUES (\(who.user), \(request.key), \(answer.accepted), \(answer.duplicates), \(answer.position))
                """, logger: logger)
            try await connection.query("DELETE FROM push_receipts WHERE user_id = \(who.user) AND created_at < now() - interval '7 days'", logger: logger)
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
            var event = HubEvent(id: id, batch: batch, stream: stream, parent: parent, type: type, schemaVersion: Int(version),
                                 time: time, payload: payload, blobs: blobs, position: position)
            event.checksum = checksum  // as its writer made it: the reader checks it
            events.append(event)
        }
        return events
    }
}
