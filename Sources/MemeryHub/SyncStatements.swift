import Foundation
import MemeryHubProtocol
import PostgresNIO

// The statements every sync runs, prepared once on each pooled connection: parsed and
// planned anew on each request, they cost the database more than the work they do
// (`make bench-hub`, docs/hub.md). Everything else the hub asks is rare enough to go as a
// plain query.

/// The session a bearer token belongs to and its user; `last_seen` is written at most once
/// a minute (a busy device's every request would otherwise lock and rewrite its row).
struct SessionOfToken: PostgresPreparedStatement {
    static let sql = """
        WITH s AS (SELECT id, user_id, last_seen FROM sessions WHERE token_hash = $1),
             touched AS (UPDATE sessions SET last_seen = now()
                         WHERE id IN (SELECT id FROM s WHERE last_seen < now() - interval '1 minute'))
        SELECT u.id, u.name, u.role, s.id FROM s JOIN users u ON u.id = s.user_id
        """
    typealias Row = (Int64, String, String, UUID)
    var tokenHash: Data

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        try bindings.append(tokenHash)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// One push, whole, with its session, picture, checkpoint and parent checks, in one call of
/// `hub_push_checked` (schema step 5): no row when the token names no session.
struct PushEvents: PostgresPreparedStatement {
    static let sql = """
        SELECT o_user, o_missing, o_lacking, o_accepted, o_duplicates, o_position, o_before, o_replayed
        FROM hub_push_checked($1, $2, $3, $4, $5::uuid[], $6::uuid[], $7::uuid[], $8::text[], $9::text[], $10::integer[], $11::bigint[],
                              $12::text[], $13::text[], $14::text[])
        """
    typealias Row = (user: Int64, missing: [String]?, lacking: String?, accepted: Int, duplicates: Int, position: Int64, before: Int64,
                     replayed: Bool)
    var tokenHash: Data
    var key: String
    var checkpoint: UUID?
    var resending: Bool
    var events: [HubEvent]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 14)
        try bindings.append(tokenHash)
        bindings.append(key)
        bindings.append(checkpoint)
        bindings.append(resending)
        bindings.append(events.map(\.id))
        bindings.append(events.map(\.batch))
        bindings.append(events.map(\.stream))
        bindings.append(events.map { $0.parent?.uuidString ?? "" })
        bindings.append(events.map(\.type))
        bindings.append(events.map { Int32($0.schemaVersion) })
        bindings.append(events.map(\.time))
        bindings.append(events.map(\.payload))
        bindings.append(events.map { $0.blobs.joined(separator: ",") })
        bindings.append(events.map(\.checksum))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode((Int64, [String]?, String?, Int, Int, Int64, Int64, Bool).self) }
}

/// The columns an event travels with, in the order `StoredEventRow` reads them.
private let eventColumns = "position, id, batch, stream, parent, type, schema_version, time_ms, payload, blobs, checksum"

/// An event row as the pulls read it: as its writer made it (the reader checks it).
enum StoredEventRow {
    static func decode(_ row: PostgresRow) throws -> HubEvent {
        let (position, id, batch, stream, parent, type, version, time, payload, blobs, checksum)
            = try row.decode((Int64, UUID, UUID, UUID, UUID?, String, Int64, Int64, String, [String], String).self)
        return HubEvent(id: id, batch: batch, stream: stream, parent: parent, type: type, schemaVersion: Int(version),
                        time: time, payload: payload, blobs: blobs, checksum: checksum, position: position)
    }
}

/// A pull's page with its session check: the session's user, the id of the event at the
/// cursor (the machine names the one it last pulled, to notice a hub restored from an older
/// backup), and the events after it. No row when the token names no session; one row with
/// no event when there is nothing new.
struct PullPage: PostgresPreparedStatement {
    static let sql = """
        WITH s AS (SELECT id, user_id, last_seen,
                          (SELECT ev.id FROM events ev WHERE ev.user_id = sessions.user_id AND ev.position = $2) AS at_id
                   FROM sessions WHERE token_hash = $1),
             touched AS (UPDATE sessions SET last_seen = now()
                         WHERE id IN (SELECT id FROM s WHERE last_seen < now() - interval '1 minute'))
        SELECT s.user_id, s.at_id, NULL::uuid, e.* FROM s LEFT JOIN LATERAL (
            SELECT \(eventColumns) FROM events WHERE user_id = s.user_id AND position > $2 AND type <> '$purged'
            ORDER BY position LIMIT $3) AS e ON true
        """
    typealias Row = (user: Int64, atCursor: UUID?, event: HubEvent?)
    var tokenHash: Data
    var cursor: Int64
    var limit: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        try bindings.append(tokenHash)
        bindings.append(cursor)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (user, atCursor, _, event) = try pageRow(row)
        return (user, atCursor, event)
    }
}

/// A row of a page: a number, the events at the cursor and at a second position, and an
/// event (none past the last, from the LEFT JOIN).
private func pageRow(_ row: PostgresRow) throws -> (Int64, UUID?, UUID?, HubEvent?) {
    let (number, atCursor, atOther, position, id, batch, stream, parent, type, version, time, payload, blobs, checksum)
        = try row.decode((Int64, UUID?, UUID?, Int64?, UUID?, UUID?, UUID?, UUID?, String?, Int64?, Int64?, String?, [String]?, String?).self)
    guard let position, let id, let batch, let stream, let type, let version, let time, let payload, let blobs, let checksum else {
        return (number, atCursor, atOther, nil)
    }
    return (number, atCursor, atOther, HubEvent(id: id, batch: batch, stream: stream, parent: parent, type: type, schemaVersion: Int(version),
                                                time: time, payload: payload, blobs: blobs, checksum: checksum, position: position))
}

/// The rest of an append a page ended inside (an append is never split between pages).
struct RestOfAppend: PostgresPreparedStatement {
    static let sql = """
        SELECT \(eventColumns) FROM events
        WHERE user_id = $1 AND batch = $2 AND position > $3 AND position <= $4 AND type <> '$purged' ORDER BY position
        """
    typealias Row = HubEvent
    var user: Int64
    var batch: UUID
    var after: Int64
    var through: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(user)
        bindings.append(batch)
        bindings.append(after)
        bindings.append(through)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try StoredEventRow.decode(row) }
}

/// The user's newest position.
struct NewestPosition: PostgresPreparedStatement {
    static let sql = "SELECT position FROM users WHERE id = $1"
    typealias Row = Int64
    var user: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(user)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

/// Who a session is, their newest position and the event there, on the primary (its
/// last-seen time touched, as `PullPage` does): what a pull from a replica must reach.
struct SessionPosition: PostgresPreparedStatement {
    static let sql = """
        WITH s AS (SELECT id, user_id, last_seen FROM sessions WHERE token_hash = $1),
             touched AS (UPDATE sessions SET last_seen = now()
                         WHERE id IN (SELECT id FROM s WHERE last_seen < now() - interval '1 minute'))
        SELECT s.user_id, u.position, (SELECT ev.id FROM events ev WHERE ev.user_id = u.id AND ev.position = u.position), u.purges
        FROM s JOIN users u ON u.id = s.user_id
        """
    typealias Row = (user: Int64, position: Int64, newest: UUID?, purges: Int64)
    var tokenHash: Data

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        try bindings.append(tokenHash)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode((Int64, Int64, UUID?, Int64).self) }
}

/// A page of a user's events by their id (the session checked before), with the user's
/// newest position in the same snapshot and the events at the cursor and at `reach`; no row
/// when the database has not reached `reach`, or has replayed fewer than `purges` of the
/// user's purges (a replica behind the primary).
struct UserPullPage: PostgresPreparedStatement {
    static let sql = """
        SELECT u.position, (SELECT ev.id FROM events ev WHERE ev.user_id = u.id AND ev.position = $2) AS at_id,
               (SELECT ev.id FROM events ev WHERE ev.user_id = u.id AND ev.position = $4) AS reach_id, e.*
        FROM users u LEFT JOIN LATERAL (
            SELECT \(eventColumns) FROM events WHERE user_id = u.id AND position > $2 AND type <> '$purged'
            ORDER BY position LIMIT $3) AS e ON true
        WHERE u.id = $1 AND u.position >= $4 AND u.purges >= $5
        """
    typealias Row = (newest: Int64, atCursor: UUID?, atReach: UUID?, event: HubEvent?)
    var user: Int64
    var cursor: Int64
    var limit: Int64
    var reach: Int64
    var purges: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(user)
        bindings.append(cursor)
        bindings.append(limit)
        bindings.append(reach)
        bindings.append(purges)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try pageRow(row) }
}
