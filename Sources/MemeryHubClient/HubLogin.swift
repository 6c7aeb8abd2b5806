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

    /// `durable: false` for a store that is a cache (`PrivateFile.write`).
    public func save(_ workspace: Workspace, durable: Bool = true) throws {
        try PrivateFile.write(try JSONEncoder().encode(self), to: Self.file(workspace), durable: durable)
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
    /// `durable: false` leaves out the flush, for a cache deleted at every start (a hub's
    /// working copy): a rename is still whole against a killed process, though not against
    /// a lost power supply.
    static func write(_ data: Data, to url: URL, durable: Bool = true) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // A name of its own for each write: two writers at once (two requests of one person
        // on a hub) each rename their own file, and the later rename wins.
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt64.random(in: 0 ... .max)).tmp")
        func failure(_ step: String) -> HubClientError {
            let code = errno
            let hint = code == ENOSPC || code == EDQUOT ? ": free some space and try again" : ""
            return HubClientError("\(url.path) cannot be written (\(step): \(String(cString: strerror(code))))\(hint)")
        }
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("creating \(temporary.lastPathComponent)") }
        var problem: HubClientError?
        let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        if written != data.count { problem = failure("writing") } else if durable, fsync(descriptor) != 0 { problem = failure("flushing") }
        close(descriptor)
        if problem == nil, rename(temporary.path, url.path) != 0 { problem = failure("renaming") }
        if let problem {
            unlink(temporary.path)
            throw problem
        }
    }
}
