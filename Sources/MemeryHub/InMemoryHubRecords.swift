import Foundation
import MemeryHubProtocol

/// Users, sessions, login counts and pictures kept in memory, with the same answers as the
/// PostgreSQL records: what the router tests run on when no database is wanted. The sync's
/// event log and the library have no twin here: their work is PostgreSQL's own (one
/// `hub_push_checked` call per push, full-text search), and a second implementation would
/// test itself rather than the hub. A hub built on these serves accounts and pictures only.
actor InMemoryHubRecords: AccountRecords, LoginRecords, PictureRecords {
    private struct User {
        var name: String
        var key: String
        var role = "member"
        var passwordHash: String
        var storedBytes: Int64 = 0
    }
    private struct Session {
        var user: Int64
        var tokenHash: Data
        var record: DeviceSession
    }
    private var users = [Int64: User]()
    private var sessions = [UUID: Session]()
    private var attempts = [(id: Int64, key: String, at: Date)]()
    private var pictures = [Data: Data]()
    private var grants = Set<Grant>()
    private var nextID: Int64 = 1
    /// How far the tests have moved the clock on, to age login counts out of their window.
    private var ahead: TimeInterval = 0

    private struct Grant: Hashable {
        var user: Int64
        var key: Data
    }

    func advanceClock(by interval: TimeInterval) {
        ahead += interval
    }

    private func clock() -> Date { Date() + ahead }

    private func newID() -> Int64 {
        defer { nextID += 1 }
        return nextID
    }

    private static func milliseconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1000) }

    // MARK: AccountRecords

    func addUser(name: String, key: String, passwordHash: String) -> Int64? {
        guard !users.values.contains(where: { $0.key == key }) else { return nil }
        let id = newID()
        users[id] = User(name: name, key: key, passwordHash: passwordHash)
        return id
    }

    func user(key: String) -> UserRecord? {
        users.first { $0.value.key == key }.map { UserRecord(id: $0.key, name: $0.value.name, role: $0.value.role, passwordHash: $0.value.passwordHash) }
    }

    func passwordHash(of user: Int64) -> String? { users[user]?.passwordHash }

    func addSession(_ id: UUID, user: Int64, tokenHash: Data, device: String) {
        let now = Self.milliseconds(clock())
        sessions[id] = Session(user: user, tokenHash: tokenHash, record: DeviceSession(id: id, device: device, created: now, lastSeen: now, current: false))
    }

    func signedIn(tokenHash: Data) -> SignedIn? {
        guard let (id, session) = sessions.first(where: { $0.value.tokenHash == tokenHash }), let user = users[session.user] else { return nil }
        sessions[id]?.record.lastSeen = Self.milliseconds(clock())
        return SignedIn(user: session.user, name: user.name, role: user.role, session: id)
    }

    func sessions(of user: Int64) -> [DeviceSession] {
        sessions.values.filter { $0.user == user }.map(\.record).sorted { ($0.created, $0.id.uuidString) < ($1.created, $1.id.uuidString) }
    }

    /// No events are kept here.
    func newestPosition(of user: Int64) -> Int64 { 0 }

    func removeSession(_ id: UUID, of user: Int64) -> Bool {
        guard sessions[id]?.user == user else { return false }
        sessions[id] = nil
        return true
    }

    func removeSessions(of user: Int64) {
        sessions = sessions.filter { $0.value.user != user }
    }

    func setPassword(_ hash: String, of user: Int64, keeping session: UUID) {
        users[user]?.passwordHash = hash
        sessions = sessions.filter { $0.value.user != user || $0.key == session }
    }

    func removeUser(_ user: Int64, name: String) {
        users[user] = nil
        removeSessions(of: user)
        grants = grants.filter { $0.user != user }
        let key = name.lowercased()
        attempts.removeAll { $0.key == "user:" + key || $0.key.hasPrefix("pair:\(key)@") }
        let used = Set(grants.map(\.key))
        pictures = pictures.filter { used.contains($0.key) }
    }

    func makeManager(key: String) -> Bool {
        guard let id = users.first(where: { $0.value.key == key })?.key else { return false }
        users[id]?.role = "manager"
        return true
    }

    // MARK: LoginRecords

    func record(_ keys: [String]) -> [(id: Int64, key: String)] {
        let now = clock()
        return keys.map { key in
            let id = newID()
            attempts.append((id, key, now))
            return (id, key)
        }
    }

    func counts(_ keys: [String], within window: TimeInterval) -> [String: (count: Int64, wait: Int64)] {
        let now = clock()
        var counts = [String: (count: Int64, wait: Int64)]()
        for key in Set(keys) {
            let times = attempts.filter { $0.key == key && now.timeIntervalSince($0.at) < window }.map(\.at)
            guard let oldest = times.min() else { continue }
            // Rounded, as PostgreSQL's cast to bigint rounds.
            counts[key] = (Int64(times.count), Int64((window - now.timeIntervalSince(oldest)).rounded()))
        }
        return counts
    }

    func forget(_ ids: [Int64]) {
        let gone = Set(ids)
        attempts.removeAll { gone.contains($0.id) }
    }

    func forgetOld() {
        let now = clock()
        attempts.removeAll { now.timeIntervalSince($0.at) > 24 * 3600 }
    }

    // MARK: PictureRecords

    func keep(_ key: Data, _ bytes: Data, for user: Int64, quota: Int64?) throws -> Bool {
        guard !grants.contains(Grant(user: user, key: key)), let used = users[user]?.storedBytes else { return false }
        let adding = Int64(bytes.count)
        if let quota, used + adding > quota { throw HubError.overQuota(used: used, adding: adding, quota: quota) }
        pictures[key] = pictures[key] ?? bytes
        grants.insert(Grant(user: user, key: key))
        users[user]?.storedBytes = used + adding
        return true
    }

    func granted(_ hashes: [String], to user: Int64) -> Set<String> {
        Set(hashes.filter { grants.contains(Grant(user: user, key: Data(hexBytes($0)))) })
    }

    func bytes(_ key: Data, for user: Int64) -> Data? {
        grants.contains(Grant(user: user, key: key)) ? pictures[key] : nil
    }
}
