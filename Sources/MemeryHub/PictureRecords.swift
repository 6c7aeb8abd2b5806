import Foundation
import Logging
import PostgresNIO

/// Where pictures are kept by their SHA-256 (`key`, 32 bytes), once however many users
/// upload them, with a grant for each user who did. PostgreSQL in service; memory in the
/// router tests.
protocol PictureRecords: Sendable {
    /// Keeps the bytes and grants them to the user, counting them against `quota`; false
    /// when the user had them already. Past the quota it throws and keeps nothing.
    func keep(_ key: Data, _ bytes: Data, for user: Int64, quota: Int64?) async throws -> Bool
    /// Of `hashes` (hex), those granted to the user.
    func granted(_ hashes: [String], to user: Int64) async throws -> Set<String>
    /// The bytes, when they are granted to the user.
    func bytes(_ key: Data, for user: Int64) async throws -> Data?
}

struct PostgresPictureRecords: PictureRecords {
    let client: PostgresClient
    let logger: Logger
    /// Where a picture's bytes are read first (`--replica-database`); one it lacks yet (just
    /// uploaded) is read from the primary.
    var replica: ReplicaReads? = nil

    func keep(_ key: Data, _ bytes: Data, for user: Int64, quota: Int64?) async throws -> Bool {
        let logger = logger
        return try await client.withTransaction(logger: logger) { connection in
            // Touching an existing row locks it, so an account deletion collecting unused
            // pictures at the same moment cannot delete it under this grant.
            try await connection.query("""
                INSERT INTO blobs (hash, bytes, size) VALUES (\(key), \(bytes), \(bytes.count))
                ON CONFLICT (hash) DO UPDATE SET size = blobs.size
                """, logger: logger)
            let granted = try await connection.query("""
                INSERT INTO blob_grants (user_id, hash) VALUES (\(user), \(key)) ON CONFLICT DO NOTHING RETURNING user_id
                """, logger: logger).decode(Int64.self).first(where: { _ in true }) != nil
            guard granted else { return false }
            // A picture new to this user counts against their quota (the transaction is
            // undone past it: neither the picture nor the grant stays).
            for try await used in try await connection.query("""
                UPDATE users SET stored_bytes = stored_bytes + \(Int64(bytes.count)) WHERE id = \(user) RETURNING stored_bytes
                """, logger: logger).decode(Int64.self) {
                if let quota, used > quota { throw HubError.overQuota(used: used - Int64(bytes.count), adding: Int64(bytes.count), quota: quota) }
            }
            return true
        }
    }

    func granted(_ hashes: [String], to user: Int64) async throws -> Set<String> {
        var have = Set<String>()
        for try await hash in try await client.query("""
            SELECT encode(hash, 'hex') FROM blob_grants
            WHERE user_id = \(user) AND hash IN (SELECT decode(h, 'hex') FROM unnest(\(hashes)::text[]) AS h)
            """, logger: logger).decode(String.self) {
            have.insert(hash)
        }
        return have
    }

    func bytes(_ key: Data, for user: Int64) async throws -> Data? {
        let logger = logger
        if let replica, replica.isAvailable {
            // A purge takes the user's grants away without moving their position: the replica
            // answers only once it has replayed as many of the user's purges as the primary counts.
            // (No user row on the primary: the primary answers, whatever the replica holds.)
            var counted: Int64?
            for try await count in try await client.query("SELECT purges FROM users WHERE id = \(user)", logger: logger).decode(Int64.self) {
                counted = count
            }
            if let purges = counted, let bytes = await replica.answer("picture", patience: .seconds(8), {
                try await Self.bytes(key, for: user, afterPurges: purges, on: $0, logger: logger)
            }) {
                return bytes
            }
        }
        return try await Self.bytes(key, for: user, afterPurges: 0, on: client, logger: logger)
    }

    /// The picture's bytes when `user` is granted it on `client`, which has replayed at least
    /// `purges` of the user's purges; else nil.
    private static func bytes(_ key: Data, for user: Int64, afterPurges purges: Int64, on client: PostgresClient, logger: Logger) async throws -> Data? {
        try await client.query("""
            SELECT b.bytes FROM blobs b JOIN blob_grants g ON g.hash = b.hash JOIN users u ON u.id = g.user_id
            WHERE g.user_id = \(user) AND b.hash = \(key) AND u.purges >= \(purges)
            """, logger: logger).decode(Data.self).first(where: { _ in true })
    }
}
