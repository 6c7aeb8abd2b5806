import Foundation
import Memery
import MemeryHub
import MemeryHubClient
import MemeryLocks
import MemeryServer

/// One person's creations on a hub that serves them the editor: a store of its own under
/// `--cache-dir`, built from PostgreSQL by a pull and kept current by another (woken by the
/// hub's watch, LISTEN/NOTIFY underneath). It syncs through the hub's own API on loopback as
/// the person's browser session, so an edit from a page passes every rule a device's push
/// does (admission, quotas, checkpoints) and converges as sync does: no second way into the
/// database. It is a cache: an edit is acknowledged only once its push is committed, and a
/// copy whose push failed is let go, so it never holds what PostgreSQL lacks.
final class WorkingCopy: Sendable {
    let user: Int64
    let folder: URL
    let workspace: Workspace
    let editor: EditorResponder
    private let login: Locked<HubLogin>
    private let turns = SyncTurns()
    private let state = Locked(State())

    private struct State {
        var lastUsed = ContinuousClock.now
        var inFlight = 0
        var watcher: Task<Void, Never>?
        var closed = false
    }

    /// Opens a new store in `folder` and fills it from the hub: everything the person has.
    init(person: HubPerson, hub: String, folder: URL, settings: ServerSettings, files: EditorFiles) async throws {
        user = person.user
        self.folder = folder
        workspace = try Workspace(directory: folder)
        workspace.keepDecodedImages(upTo: 64 << 20)
        // Each person's own helpers, never another's (they run the person's filters).
        workspace.keepHelpersWarm(1)
        let login = HubLogin(hub: hub, user: person.name, role: person.role, session: person.session, token: person.token)
        // The editor's hub features (recommendations, search, share) read the store's login.
        try login.save(workspace)
        self.login = Locked(login)
        editor = EditorResponder(workspace: workspace, settings: settings, files: files)
        _ = try await sync()
        startFollowing()
    }

    private func startFollowing() {
        state.withLock { state in
            guard !state.closed, state.watcher == nil else { return }
            state.watcher = Task { [weak self] in
                guard let self else { return }
                await self.follow()
            }
        }
    }

    /// The session the person's newest request came with: the copy syncs as it (an older one
    /// may have been signed out).
    func use(_ person: HubPerson) throws {
        let changed = login.withLock { login -> HubLogin? in
            guard login.token != person.token else { return nil }
            login.token = person.token
            login.session = person.session
            login.role = person.role
            return login
        }
        if let changed {
            try changed.save(workspace)
            startFollowing()  // it stopped if the old session was signed out
        }
    }

    /// Returns once no sync is under way: a change is decided on what the last pull brought.
    func settled() async { await turns.settled() }

    /// Push what the store has that the hub lacks, pull what it lacks: one at a time, and a
    /// caller waits for a sync that began after it asked (its edit is in it).
    @discardableResult
    func sync() async throws -> SyncReport {
        let login = self.login.withLock { $0 }
        let workspace = workspace
        return try await turns.run { try await Syncer(workspace: workspace, login: login).run() }
    }

    /// Follows the hub: waits on its watch for a push from anywhere (another hub, a CLI
    /// machine), then pulls; again until the copy is let go.
    private func follow() async {
        var position: Int64 = 0
        while !Task.isCancelled {
            do {
                let login = self.login.withLock { $0 }
                try await HubWatch.wait(login, after: position)
                try Task.checkCancellation()
                position = try await sync().position
            } catch is CancellationError {
                return
            } catch let error as HubClientError where error.status == 401 {
                // Signed out: the person's next request, with another session, follows again.
                state.withLock { $0.watcher = nil }
                return
            } catch {
                try? await Task.sleep(for: .seconds(2))  // the hub is stopping, or the session was revoked: a later request brings another
            }
        }
    }

    // MARK: Use, for the least recently used to be let go first

    func begin() { state.withLock { $0.inFlight += 1; $0.lastUsed = .now } }
    func end() { state.withLock { $0.inFlight -= 1; $0.lastUsed = .now } }
    var idleSince: ContinuousClock.Instant? { state.withLock { $0.inFlight == 0 ? $0.lastUsed : nil } }

    /// Bytes on disk (the store's files).
    var size: Int64 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    /// Stops following the hub and the pages' updates, and deletes the store: what it held is
    /// in PostgreSQL.
    func close() async {
        let watcher = state.withLock { state -> Task<Void, Never>? in
            state.closed = true
            defer { state.watcher = nil }
            return state.watcher
        }
        watcher?.cancel()
        await editor.close()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Syncs of one copy, one at a time: a caller's sync starts after it asked, so it carries
/// every edit made before.
actor SyncTurns {
    private var last: Task<SyncReport, any Error>?

    func run(_ work: @escaping @Sendable () async throws -> SyncReport) async throws -> SyncReport {
        let previous = last
        let next = Task {
            _ = try? await previous?.value
            return try await work()
        }
        last = next
        return try await next.value
    }

    func settled() async { _ = try? await last?.value }
}
