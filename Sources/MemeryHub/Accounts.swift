import Crypto
import Foundation
import MemeryHTTP
import HTTPTypes
import Hummingbird
import Logging
import MemeryHubProtocol

/// Who a request is: the user and the session (one per device) its token names.
struct SignedIn: Sendable {
    var user: Int64
    var name: String
    var role: String
    var session: UUID
    var isManager: Bool { role == "manager" }
}

/// Signing up, logging in and out, passwords: the rules, over records kept in PostgreSQL
/// or, in the router tests, in memory.
struct Accounts: Sendable {
    let records: any AccountRecords
    let passwords: Passwords
    let limits: LoginLimits
    /// Who a request is from, as the limits count addresses (`--trusted-proxy`).
    var addresses = ClientAddress()
    let logger: Logger
    /// The browser's session cookie as this hub sets it (`Secure` over https).
    var cookie = SessionCookie(secure: false)
    /// Sessions looked up lately (none kept without one: the router tests in memory).
    var sessions: SessionCache?

    func signUp(_ request: SignUpRequest, from address: String) async throws -> String {
        if let problem = AccountRules.problem(withUser: request.user) { throw HubError.badRequest("user \"\(request.user.prefix(40))\(request.user.count > 40 ? "…" : "")\": \(problem)") }
        if let problem = AccountRules.problem(withPassword: request.password) { throw HubError.badRequest(problem) }
        guard !request.password.contains("\u{0}") else { throw HubError.badRequest("a password cannot hold the NUL character") }
        try await limits.signUp(from: address)
        let hash = try await passwords.hash(request.password, from: address)
        guard try await records.addUser(name: request.user, key: request.user.lowercased(), passwordHash: hash) != nil else {
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
        let found = try await records.user(key: request.user.lowercased())
        guard let found,
              try await passwords.verify(request.password, against: found.passwordHash, from: address, account: request.user, slowedBy: attempt.wait) else {
            if found == nil { try await passwords.burn(request.password, from: address, slowedBy: attempt.wait) }
            logger.notice("login refused", metadata: ["user": "\(request.user.prefix(40))", "address": "\(address)"])
            throw HubError(.unauthorized, "unauthorized", "wrong user name or password")
        }
        try await limits.succeeded(attempt)
        // Shown by `memery account` and the devices page: controls (NUL, which PostgreSQL
        // refuses, escape sequences, bidirectional overrides) become U+FFFD.
        let named = LibraryRules.printable(String(request.device.prefix(100)))
        let device = named.isEmpty ? "unnamed device" : named
        let token = Self.newToken(), session = UUID()
        try await records.addSession(session, user: found.id, tokenHash: Data(SHA256Digest.of(token)), device: device)
        logger.info("logged in", metadata: ["user": "\(found.name)", "device": "\(device)"])
        return LoginAnswer(user: found.name, role: found.role, session: session, token: token)
    }

    /// The hash of the session token the request carries, as sessions are kept; 401 without one.
    func session(_ headers: HTTPFields) throws -> Data {
        Data(SHA256Digest.of(try token(headers)))
    }

    /// The bearer token a device sends, or else the session cookie a browser sends
    /// (`SessionCookie`, its changes held to this hub's origin by `SameOriginChanges`).
    func token(_ headers: HTTPFields) throws -> String {
        let token: String
        if let value = headers[.authorization] {
            // The scheme's name is case-insensitive (RFC 9110 §11.1): `bearer` is `Bearer`.
            guard value.count > 7, value.prefix(7).lowercased() == "bearer " else { throw HubError.unauthorized }
            token = String(value.dropFirst(7).trimmingOptionalWhitespace)
        } else {
            guard let fromCookie = cookie.token(in: headers) else { throw HubError.unauthorized }
            token = fromCookie
        }
        guard !token.isEmpty, token.utf8.count < 200 else { throw HubError.unauthorized }
        return token
    }

    /// The user and session of a request's bearer token; `HubError.unauthorized` without one.
    func signedIn(_ headers: HTTPFields) async throws -> SignedIn {
        try await signedIn(tokenHash: try session(headers))
    }

    /// The user and session of a token's hash (`session`); `HubError.unauthorized` without one.
    func signedIn(tokenHash: Data) async throws -> SignedIn {
        if let who = sessions?.signedIn(tokenHash) { return who }
        let lookup = sessions?.beginLookup()
        guard let who = try await records.signedIn(tokenHash: tokenHash) else { throw HubError.unauthorized }
        sessions?.keep(who, for: tokenHash, from: lookup)
        return who
    }

    func account(of who: SignedIn) async throws -> AccountAnswer {
        let devices = try await records.sessions(of: who.user).map { session in
            var device = session
            device.current = session.id == who.session
            return device
        }
        return AccountAnswer(user: who.name, role: who.role, devices: devices, position: try await records.newestPosition(of: who.user))
    }

    /// Ends one session of the user's (their own current one, or another device's).
    func revoke(_ session: UUID, of who: SignedIn) async throws {
        defer { sessions?.forget(user: who.user) }  // at once here; other hubs hear of it
        guard try await records.removeSession(session, of: who.user) else {
            throw HubError.notFound("no session \(session.uuidString.lowercased()) of yours: `memery account` lists them")
        }
    }

    func revokeAll(of who: SignedIn) async throws {
        defer { sessions?.forget(user: who.user) }
        try await records.removeSessions(of: who.user)
    }

    /// A new password; every other device is logged out, this one stays.
    func changePassword(_ change: PasswordChange, of who: SignedIn, from address: String) async throws {
        if let problem = AccountRules.problem(withPassword: change.new) { throw HubError.badRequest(problem) }
        guard !change.new.contains("\u{0}") else { throw HubError.badRequest("a password cannot hold the NUL character") }
        // Asked before the password is checked, so that it costs no attempt: a change to the
        // same password would sign every other device out for nothing.
        guard change.new != change.old else { throw HubError.badRequest("the new password is the one the account has now: choose another") }
        try await requirePassword(change.old, of: who, from: address)
        let hash = try await passwords.hash(change.new, from: address)
        defer { sessions?.forget(user: who.user) }
        try await records.setPassword(hash, of: who.user, keeping: who.session)
    }

    /// The account and everything of it: events, sessions, grants; pictures nobody else uses.
    func delete(_ deletion: AccountDeletion, of who: SignedIn, from address: String) async throws {
        try await requirePassword(deletion.password, of: who, from: address)
        defer { sessions?.forget(user: who.user) }
        try await records.removeUser(who.user, name: who.name)
        logger.info("deleted an account", metadata: ["user": "\(who.name)"])
    }

    /// A password check of a signed-in person's, counted and limited as a login is: a
    /// stolen token must not be a way around the login limits.
    private func requirePassword(_ password: String, of who: SignedIn, from address: String) async throws {
        let attempt = try await limits.begin(user: who.name, address: address)
        let hash = try await records.passwordHash(of: who.user)
        guard let hash, try await passwords.verify(password, against: hash, from: address, account: who.name, slowedBy: attempt.wait) else {
            throw HubError(.forbidden, "forbidden", "the current password is not right: type it again (it is the one you signed in with)")
        }
        try await limits.succeeded(attempt)
    }

    /// The address the limits count for a request.
    func address(_ request: Request, _ context: HubContext) -> String {
        addresses.of(peer: context.peerAddress, headers: request.headers)
    }

    /// Makes a user a manager: only the hub's own command does this, never the API.
    func grantManager(_ name: String) async throws {
        defer { sessions?.forgetAll() }
        guard try await records.makeManager(key: name.lowercased()) else {
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
