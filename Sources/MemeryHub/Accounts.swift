import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MemeryHubProtocol
import PostgresNIO

/// Who a request is: the user and the session (one per device) its token names.
struct SignedIn: Sendable {
    var user: Int64
    var name: String
    var role: String
    var session: UUID
    var isManager: Bool { role == "manager" }
}

/// Users, their sessions and the login limits, in PostgreSQL.
struct Accounts: Sendable {
    let client: PostgresClient
    let passwords: Passwords
    let limits: LoginLimits
    /// Who a request is from, as the limits count addresses (`--trusted-proxy`).
    var addresses = ClientAddress()
    let logger: Logger

    func signUp(_ request: SignUpRequest, from address: String) async throws -> String {
        if let problem = AccountRules.problem(withUser: request.user) { throw HubError.badRequest("user \"\(request.user.prefix(40))\": \(problem)") }
        if let problem = AccountRules.problem(withPassword: request.password) { throw HubError.badRequest(problem) }
        guard !request.password.contains("\u{0}") else { throw HubError.badRequest("a password cannot hold the NUL character") }
        try await limits.signUp(from: address)
        let hash = try await passwords.hash(request.password, from: address)
        let rows = try await client.query("""
            INSERT INTO users (name, name_key, password_hash) VALUES (\(request.user), \(request.user.lowercased()), \(hash))
            ON CONFLICT (name_key) DO NOTHING RETURNING id
            """, logger: logger)
        guard try await rows.decode(Int64.self).first(where: { _ in true }) != nil else {
            throw HubError(.conflict, "conflict", "the user name \(request.user) is taken: choose another")
        }
        logger.info("signed up", metadata: ["user": "\(request.user)"])
        return request.user
    }

    func logIn(_ request: LoginRequest, from address: String) async throws -> LoginAnswer {
        // A name no account can have fails like a wrong password, before it reaches a query,
        // and counts against the address all the same.
        guard AccountRules.problem(withUser: request.user) == nil, !request.password.contains("\u{0}") else {
            let attempt = try await limits.begin(user: nil, address: address)
            try await passwords.burn(request.password, from: address, slowedBy: attempt.wait)
            throw HubError(.unauthorized, "unauthorized", "wrong user name or password")
        }
        // The attempt counts before the password is checked, so guesses sent at once are
        // counted together; it is forgotten when the password was right.
        let attempt = try await limits.begin(user: request.user, address: address)
        let rows = try await client.query("SELECT id, name, role, password_hash FROM users WHERE name_key = \(request.user.lowercased())", logger: logger)
        var found: (Int64, String, String, String)?
        for try await row in rows.decode((Int64, String, String, String).self) { found = row }
        guard let (id, name, role, hash) = found,
              try await passwords.verify(request.password, against: hash, from: address, account: request.user, slowedBy: attempt.wait) else {
            if found == nil { try await passwords.burn(request.password, from: address, slowedBy: attempt.wait) }
            logger.notice("login refused", metadata: ["user": "\(request.user.prefix(40))", "address": "\(address)"])
            throw HubError(.unauthorized, "unauthorized", "wrong user name or password")
        }
        try await limits.succeeded(attempt)
        let named = String(request.device.filter { $0 != "\u{0}" }.prefix(100))
        let device = named.isEmpty ? "unnamed device" : named
        let token = Self.newToken(), session = UUID()
        try await client.query("""
            INSERT INTO sessions (id, user_id, token_hash, device) VALUES (\(session), \(id), \(Data(SHA256Digest.of(token))), \(device))
            """, logger: logger)
        logger.info("logged in", metadata: ["user": "\(name)", "device": "\(device)"])
        return LoginAnswer(user: name, role: role, session: session, token: token)
    }

    /// The user and session of a request's bearer token; `HubError.unauthorized` without one.
    /// The hash of the bearer token the request carries, as sessions are kept; 401 without one.
    static func session(_ headers: HTTPFields) throws -> Data {
        // The scheme's name is case-insensitive (RFC 9110 §11.1): `bearer` is `Bearer`.
        guard let value = headers[.authorization], value.count > 7, value.prefix(7).lowercased() == "bearer " else { throw HubError.unauthorized }
        let token = String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, token.count < 200 else { throw HubError.unauthorized }
        return Data(SHA256Digest.of(token))
    }

    func signedIn(_ headers: HTTPFields) async throws -> SignedIn {
        for try await (user, name, role, session) in try await client.execute(SessionOfToken(tokenHash: try Self.session(headers)), logger: logger) {
            return SignedIn(user: user, name: name, role: role, session: session)
        }
        throw HubError.unauthorized
    }

    func account(of who: SignedIn) async throws -> AccountAnswer {
        var devices = [DeviceSession]()
        let rows = try await client.query("""
            SELECT id, device, (extract(epoch FROM created_at) * 1000)::bigint, (extract(epoch FROM last_seen) * 1000)::bigint
            FROM sessions WHERE user_id = \(who.user) ORDER BY created_at
            """, logger: logger)
        for try await (id, device, created, seen) in rows.decode((UUID, String, Int64, Int64).self) {
            devices.append(DeviceSession(id: id, device: device, created: created, lastSeen: seen, current: id == who.session))
        }
        var position: Int64 = 0
        for try await value in try await client.execute(NewestPosition(user: who.user), logger: logger) { position = value }
        return AccountAnswer(user: who.name, role: who.role, devices: devices, position: position)
    }

    /// Ends one session of the user's (their own current one, or another device's).
    func revoke(_ session: UUID, of who: SignedIn) async throws {
        let rows = try await client.query("DELETE FROM sessions WHERE id = \(session) AND user_id = \(who.user) RETURNING id", logger: logger)
        guard try await rows.decode(UUID.self).first(where: { _ in true }) != nil else {
            throw HubError.notFound("no session \(session.uuidString.lowercased()) of yours: `memery account` lists them")
        }
    }

    func revokeAll(of who: SignedIn) async throws {
        try await client.query("DELETE FROM sessions WHERE user_id = \(who.user)", logger: logger)
    }

    /// A new password; every other device is logged out, this one stays.
    func changePassword(_ change: PasswordChange, of who: SignedIn, from address: String) async throws {
        if let problem = AccountRules.problem(withPassword: change.new) { throw HubError.badRequest(problem) }
        guard !change.new.contains("\u{0}") else { throw HubError.badRequest("a password cannot hold the NUL character") }
        try await requirePassword(change.old, of: who, from: address)
        let hash = try await passwords.hash(change.new, from: address)
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("UPDATE users SET password_hash = \(hash) WHERE id = \(who.user)", logger: logger)
            try await connection.query("DELETE FROM sessions WHERE user_id = \(who.user) AND id <> \(who.session)", logger: logger)
        }
    }

    /// The account and everything of it: events, sessions, grants; pictures nobody else uses.
    func delete(_ deletion: AccountDeletion, of who: SignedIn, from address: String) async throws {
        try await requirePassword(deletion.password, of: who, from: address)
        try await client.query("DELETE FROM users WHERE id = \(who.user)", logger: logger)
        // Its rows in the login counts name it too.
        let name = who.name.lowercased(), pair = "pair:\(who.name.lowercased())@"
        try await client.query("""
            DELETE FROM login_failures WHERE key = \("user:" + name) OR starts_with(key, \(pair))
            """, logger: logger)
        logger.info("deleted an account", metadata: ["user": "\(who.name)"])
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

    /// A password check of a signed-in person's, counted and limited as a login is: a
    /// stolen token must not be a way around the login limits.
    private func requirePassword(_ password: String, of who: SignedIn, from address: String) async throws {
        let attempt = try await limits.begin(user: who.name, address: address)
        var hash: String?
        for try await value in try await client.query("SELECT password_hash FROM users WHERE id = \(who.user)", logger: logger).decode(String.self) {
            hash = value
        }
        guard let hash, try await passwords.verify(password, against: hash, from: address, account: who.name, slowedBy: attempt.wait) else {
            throw HubError(.forbidden, "forbidden", "the password given is not this account's")
        }
        try await limits.succeeded(attempt)
    }

    /// The address the limits count for a request.
    func address(_ request: Request, _ context: HubContext) -> String {
        addresses.of(peer: context.peerAddress, headers: request.headers)
    }

    /// Makes a user a manager: only the hub's own command does this, never the API.
    func grantManager(_ name: String) async throws {
        let rows = try await client.query("UPDATE users SET role = 'manager' WHERE name_key = \(name.lowercased()) RETURNING id", logger: logger)
        guard try await rows.decode(Int64.self).first(where: { _ in true }) != nil else {
            throw HubStartError("no user \(name) on this hub: they sign up first (`memery account signup HUB --user \(name)`)")
        }
    }

    /// 32 random bytes as base64url: what a device keeps and sends; the hub keeps only its hash.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = (0..<4).map { _ in generator.next() as UInt64 }
        let bytes = words.withUnsafeBytes { Data($0) }
        return bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
