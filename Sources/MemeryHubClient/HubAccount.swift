public import Foundation
public import Memery
import NIOHTTP1
public import MemeryHubProtocol

/// Signing up, logging in and out, and the account's devices, for a store.
public enum HubAccount {
    /// A store belongs to one account: logging it in as another would send its creations
    /// there at the next sync. Logging in again as the same user on the same hub is fine.
    public static func refuseSwitching(_ workspace: Workspace, hub: String, user: String) throws {
        guard let current = try HubLogin.load(workspace) else { return }
        let address = try HubConnection(hub: hub).hub
        guard current.hub != address || current.user.lowercased() != user.lowercased() else { return }
        throw HubClientError("""
            this store is logged in as \(current.user) on \(current.hub), and its creations sync with that account: \
            run `memery logout` first to use it as \(user) on \(address) (or give another --store)
            """, isBadInput: true)
    }

    public static func signUp(hub: String, user: String, password: String) async throws {
        try check(user: user, password: password)
        _ = try await HubConnection(hub: hub).send(.POST, HubPaths.accounts, body: try JSONEncoder().encode(SignUpRequest(user: user, password: password)))
    }

    /// Logs the store in as `user` on this device; the token is kept in the store's folder.
    @discardableResult
    public static func logIn(_ workspace: Workspace, hub: String, user: String, password: String, device: String) async throws -> HubLogin {
        if let problem = AccountRules.problem(withUser: user) { throw HubClientError("user \"\(user.prefix(40))\": \(problem)", isBadInput: true) }
        try refuseSwitching(workspace, hub: hub, user: user)
        let previous = try HubLogin.load(workspace)
        let connection = try HubConnection(hub: hub)
        let answer = try await connection.json(.POST, HubPaths.sessions, LoginRequest(user: user, password: password, device: device), as: LoginAnswer.self)
        let login = HubLogin(hub: connection.hub, user: answer.user, role: answer.role, session: answer.session, token: answer.token)
        try login.save(workspace)
        // Logged in again as the same user: the session this store had is not needed any more.
        if let previous { _ = try? await previous.connection().send(.DELETE, HubPaths.sessions + "/" + previous.session.uuidString.lowercased()) }
        return login
    }

    /// Ends this device's session (or every device's), then forgets the login. A hub that
    /// cannot be reached still leaves this store logged out, and says so.
    public static func logOut(_ workspace: Workspace, all: Bool) async throws -> String? {
        guard let login = try HubLogin.load(workspace) else { return nil }
        var note: String?
        do {
            _ = try await login.connection().send(.DELETE, all ? HubPaths.sessions : HubPaths.sessions + "/current")
        } catch let error as HubClientError where error.status == 401 {
            // Revoked already.
        } catch let error as HubClientError {
            note = "the hub could not be told (\(error.description)); the session stays listed there until revoked"
        }
        try HubLogin.remove(workspace)
        return note
    }

    public static func account(_ login: HubLogin) async throws -> AccountAnswer {
        try await login.connection().json(.GET, HubPaths.account, as: AccountAnswer.self)
    }

    public static func changePassword(_ login: HubLogin, old: String, new: String) async throws {
        if let problem = AccountRules.problem(withPassword: new) { throw HubClientError(problem, isBadInput: true) }
        _ = try await login.connection().send(.PUT, HubPaths.password, body: try JSONEncoder().encode(PasswordChange(old: old, new: new)))
    }

    public static func revoke(_ login: HubLogin, session: UUID) async throws {
        _ = try await login.connection().send(.DELETE, HubPaths.sessions + "/" + session.uuidString.lowercased())
    }

    public static func delete(_ workspace: Workspace, _ login: HubLogin, password: String) async throws {
        _ = try await login.connection().send(.DELETE, HubPaths.account, body: try JSONEncoder().encode(AccountDeletion(password: password)))
        try HubLogin.remove(workspace)
    }

    static func check(user: String, password: String) throws {
        if let problem = AccountRules.problem(withUser: user) { throw HubClientError("user \"\(user.prefix(40))\": \(problem)", isBadInput: true) }
        if let problem = AccountRules.problem(withPassword: password) { throw HubClientError(problem, isBadInput: true) }
    }
}
