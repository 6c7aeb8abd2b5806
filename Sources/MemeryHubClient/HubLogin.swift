public import Foundation
public import Memery
import NIOHTTP1
import MemeryHubProtocol

/// A store's login to a hub: kept in the store's folder (`hub/login.json`, mode 0600, never
/// printed). It is written whole, by rename, only after the hub answered: a kill during
/// login leaves the machine logged out.
public struct HubLogin: Codable, Sendable, Equatable {
    public var hub: String
    public var user: String
    public var role: String
    public var session: UUID
    public var token: String

    public init(hub: String, user: String, role: String, session: UUID, token: String) {
        self.hub = hub; self.user = user; self.role = role; self.session = session; self.token = token
    }

    static func folder(_ workspace: Workspace) -> URL { workspace.directory.appendingPathComponent("hub", isDirectory: true) }
    static func file(_ workspace: Workspace) -> URL { folder(workspace).appendingPathComponent("login.json") }

    /// The store's login, or nil when it is logged out.
    public static func load(_ workspace: Workspace) throws -> HubLogin? {
        let url = file(workspace)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(HubLogin.self, from: Data(contentsOf: url))
        } catch {
            throw HubClientError("\(url.path) is unreadable: run `memery logout` and log in again")
        }
    }

    public func save(_ workspace: Workspace) throws {
        try PrivateFile.write(try JSONEncoder().encode(self), to: Self.file(workspace))
    }

    public static func remove(_ workspace: Workspace) throws {
        try? FileManager.default.removeItem(at: file(workspace))
        try? FileManager.default.removeItem(at: SyncState.file(workspace))
    }

    /// A connection as this device.
    public func connection() throws -> HubConnection { try HubConnection(hub: hub, token: token, user: user) }
}

/// Files only their owner can read, replaced whole: written to a new file of mode 0600,
/// flushed, then renamed over the old one.
enum PrivateFile {
    static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw HubClientError("\(temporary.path) cannot be written: \(String(cString: strerror(errno)))") }
        let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw HubClientError("\(url.path) cannot be written (is the disk full?): \(String(cString: strerror(errno)))")
        }
    }
}
