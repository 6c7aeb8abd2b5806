import Foundation
import Logging
import PostgresNIO

/// Where the login limits count attempts: one row per attempt and key (`pair:USER@ADDRESS`,
/// `user:USER`, `address:ADDRESS`, `signup:ADDRESS`). PostgreSQL in service, so that the
/// limits hold however many hubs share it; memory in the router tests.
protocol LoginRecords: Sendable {
    /// One row under each key, now; their ids by key.
    func record(_ keys: [String]) async throws -> [(id: Int64, key: String)]
    /// Of each key's rows younger than `window`: how many, and in how many seconds the oldest
    /// ages out (0 without any).
    func counts(_ keys: [String], within window: TimeInterval) async throws -> [String: (count: Int64, wait: Int64)]
    func forget(_ ids: [Int64]) async throws
    /// Rows older than a day.
    func forgetOld() async throws
}

struct PostgresLoginRecords: LoginRecords {
    let client: PostgresClient
    let logger: Logger

    func record(_ keys: [String]) async throws -> [(id: Int64, key: String)] {
        var rows = [(id: Int64, key: String)]()
        for try await (id, key) in try await client.query("""
            INSERT INTO login_failures (key) SELECT unnest(\(keys)::text[]) RETURNING id, key
            """, logger: logger).decode((Int64, String).self) {
            rows.append((id, key))
        }
        return rows
    }

    func counts(_ keys: [String], within window: TimeInterval) async throws -> [String: (count: Int64, wait: Int64)] {
        var counts = [String: (count: Int64, wait: Int64)]()
        for try await (key, count, wait) in try await client.query("""
            SELECT key, count(*), coalesce(extract(epoch FROM min(at) + make_interval(secs => \(window)) - now()), 0)::bigint
            FROM login_failures WHERE key = ANY(\(keys)::text[]) AND at > now() - make_interval(secs => \(window)) GROUP BY key
            """, logger: logger).decode((String, Int64, Int64).self) {
            counts[key] = (count, wait)
        }
        return counts
    }

    func forget(_ ids: [Int64]) async throws {
        try await client.query("DELETE FROM login_failures WHERE id = ANY(\(ids)::bigint[])", logger: logger)
    }

    func forgetOld() async throws {
        try await client.query("DELETE FROM login_failures WHERE at < now() - interval '1 day'", logger: logger)
    }
}
