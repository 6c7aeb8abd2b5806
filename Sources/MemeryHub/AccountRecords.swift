import Foundation
import Logging
import MemeryHubProtocol
import PostgresNIO

/// A user as kept: what logging in needs.
struct UserRecord: Sendable {
    var id: Int64
    var name: String
    var role: String
    var passwordHash: String
}

/// Where users and their sessions are kept: PostgreSQL in service (`PostgresAccountRecords`),
/// memory in the router tests (`InMemoryHubRecords`). The rules (names, passwords, the login
/// limits) are `Accounts`'s, the same over either.
protocol AccountRecords: Sendable {
    /// The new user's id; nil when `key` (the name in lower case) is taken.
    func addUser(name: String, key: String, passwordHash: String) async throws -> Int64?
    func user(key: String) async throws -> UserRecord?
    func passwordHash(of user: Int64) async throws -> String?
    func addSession(_ id: UUID, user: Int64, tokenHash: Data, device: String) async throws
    /// The user and session a token's hash names; its last use noted.
    func signedIn(tokenHash: Data) async throws -> SignedIn?
    /// The user's sessions, oldest first, each as `memery account` lists it (`current` is
    /// set by the caller, who knows which session asked).
    func sessions(of user: Int64) async throws -> [DeviceSession]
    /// The position of the user's newest event (0 without any).
    func newestPosition(of user: Int64) async throws -> Int64
    /// False when the user has no such session.
    func removeSession(_ id: UUID, of user: Int64) async throws -> Bool
    func removeSessions(of user: Int64) async throws
    /// A new password, and every session but `keeping` ended, at once.
    func setPassword(_ hash: String, of user: Int64, keeping session: UUID) async throws
    /// The user and everything of theirs: events, sessions, grants, login counts naming
    /// them, and pictures nobody else uses.
    func removeUser(_ user: Int64, name: String) async throws
    /// False when no user has `key`.
    func makeManager(key: String) async throws -> Bool
}

struct PostgresAccountRecords: AccountRecords {
    let client: PostgresClient
    let logger: Logger

    func addUser(name: String, key: String, passwordHash: String) async throws -> Int64? {
        try await client.query("""
            INSERT INTO users (name, name_key, password_hash) VALUES (\(name), \(key), \(passwordHash))
            ON CONFLICT (name_key) DO NOTHING RETURNING id
            """, logger: logger).decode(Int64.self).first(where: { _ in true })
    }

    func user(key: String) async throws -> UserRecord? {
        for try await (id, name, role, hash) in try await client.query(
            "SELECT id, name, role, password_hash FROM users WHERE name_key = \(key)", logger: logger).decode((Int64, String, String, String).self) {
            return UserRecord(id: id, name: name, role: role, passwordHash: hash)
        }
        return nil
    }

    func passwordHash(of user: Int64) async throws -> String? {
        try await client.query("SELECT password_hash FROM users WHERE id = \(user)", logger: logger).decode(String.self).first(where: { _ in true })
    }

    func addSession(_ id: UUID, user: Int64, tokenHash: Data, device: String) async throws {
        try await client.query("INSERT INTO sessions (id, user_id, token_hash, device) VALUES (\(id), \(user), \(tokenHash), \(device))", logger: logger)
    }

    func signedIn(tokenHash: Data) async throws -> SignedIn? {
        for try await (user, name, role, session) in try await client.execute(SessionOfToken(tokenHash: tokenHash), logger: logger) {
            return SignedIn(user: user, name: name, role: role, session: session)
        }
        return nil
    }

    /// The user's sessions, oldest first, each as `memery account` lists it (`current` is
    /// set by the caller, who knows which session asked).
    func sessions(of user: Int64) async throws -> [DeviceSession] {
        var sessions = [DeviceSession]()
        for try await (id, device, created, seen) in try await client.query("""
            SELECT id, device, (extract(epoch FROM created_at) * 1000)::bigint, (extract(epoch FROM last_seen) * 1000)::bigint
            FROM sessions WHERE user_id = \(user) ORDER BY created_at
            """, logger: logger).decode((UUID, String, Int64, Int64).self) {
            sessions.append(DeviceSession(id: id, device: device, created: created, lastSeen: seen, current: false))
        }
        return sessions
    }

    func newestPosition(of user: Int64) async throws -> Int64 {
        for try await value in try await client.execute(NewestPosition(user: user), logger: logger) { return value }
        return 0
    }

    func removeSession(_ id: UUID, of user: Int64) async throws -> Bool {
        try await client.query("DELETE FROM sessions WHERE id = \(id) AND user_id = \(user) RETURNING id", logger: logger)
            .decode(UUID.self).first(where: { _ in true }) != nil
    }

    func removeSessions(of user: Int64) async throws {
        try await client.query("DELETE FROM sessions WHERE user_id = \(user)", logger: logger)
    }

    func setPassword(_ hash: String, of user: Int64, keeping session: UUID) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("UPDATE users SET password_hash = \(hash) WHERE id = \(user)", logger: logger)
            try await connection.query("DELETE FROM sessions WHERE user_id = \(user) AND id <> \(session)", logger: logger)
        }
    }

    func removeUser(_ user: Int64, name: String) async throws {
        try await client.query("DELETE FROM users WHERE id = \(user)", logger: logger)
        // Its rows in the login counts name it too.
        let key = name.lowercased(), pair = "pair:\(key)@"
        try await client.query("DELETE FROM login_failures WHERE key = \("user:" + key) OR starts_with(key, \(pair))", logger: logger)
        // Pictures nobody else uses go too. An upload granting one meanwhile locks it (or
        // makes the delete fail on the grant's reference): then it stays, as it should.
        do {
            try await client.query("""
                DELETE FROM blobs b WHERE hash IN (
                    SELECT hash FROM blobs c WHERE NOT EXISTS (SELECT 1 FROM blob_grants g WHERE g.hash = c.hash)
                    FOR UPDATE SKIP LOCKED)
                AND NOT EXISTS (SELECT 1 FROM blob_grants g WHERE g.hash = b.hash)
                AND NOT EXISTS (SELECT 1 FROM library l WHERE l.hash = b.hash OR l.base_hash = b.hash)
                """, logger: logger)
        } catch {
            logger.notice("unused pictures were left for later", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    func makeManager(key: String) async throws -> Bool {
        try await client.query("UPDATE users SET role = 'manager' WHERE name_key = \(key) RETURNING id", logger: logger)
            .decode(Int64.self).first(where: { _ in true }) != nil
    }
}
