import Foundation
import Memery
import MemeryHub
import MemeryHubClient
import MemeryLocks
import MemeryServer

/// One person's creations on a hub that serves them the editor: a store of its own under
/// `--cache-dir`, built from PostgreSQL by a pull and kept current by another whenever the
/// hub hears of a push past what it holds (`HubSignals`: LISTEN/NOTIFY, no request of its
/// own while nothing happens). It syncs through the hub's own sync calls, in process
/// (`HubLocalSync`: what the API's routes run, without the HTTP and the JSON), as the
/// person's browser session, so an edit from a page passes every rule a device's push does
/// (admission, quotas, checkpoints) and converges as sync does: no second way into the
/// database. It is a cache: an edit is acknowledged only once its push is committed, and a
/// copy whose push failed is let go, so it never holds what PostgreSQL lacks.
final class WorkingCopy: Sendable {
    let user: Int64
    let folder: URL
    let workspace: Workspace
    let editor: EditorResponder
    private let signals: HubSignals
    /// The hub's sync calls, made in process as the person's session.
    private let hubSync: HubLocalSync
    private let login: Locked<HubLogin>
    private let turns = SyncTurns()
    /// Where the copy's syncs got: in memory, since the copy is deleted at every start.
    private let syncState = KeptSyncState()
    private let state = Locked(State())
    /// Told when the person's session is gone (signed out, revoked, the account deleted).
    private let signedOut: @Sendable (WorkingCopy) async -> Void
    /// A copy nobody asked for this long stops following the hub (and lets its helpers go);
    /// the next request catches it up first.
    static let followIdle: Duration = .seconds(300)

    private struct State {
        var lastUsed = ContinuousClock.now
        var inFlight = 0
        var follower: Task<Void, Never>?
        var closed = false
        /// The hub position the last sync pulled through.
        var position: Int64 = 0
    }

    /// Opens a new store in `folder` and fills it from the hub: everything the person has.
    /// On failure nothing is left in the folder.
    init(person: HubPerson, hub: String, signals: HubSignals, sync hubSync: HubLocalSync, folder: URL, settings: ServerSettings, files: EditorFiles,
         signedOut: @escaping @Sendable (WorkingCopy) async -> Void) async throws {
        user = person.user
        self.folder = folder
        self.signals = signals
        self.hubSync = hubSync
        self.signedOut = signedOut
        let login = HubLogin(hub: hub, user: person.name, role: person.role, session: person.session, token: person.token)
        self.login = Locked(login)
        do {
            workspace = try Workspace(directory: folder)
            workspace.keepDecodedImages(upTo: 64 << 20)
            // A cache of PostgreSQL, deleted at every start: its commits need not wait for the disk.
            try workspace.keepAsCache()
            // The editor's hub features (recommendations, search, share) read the store's login.
            try login.save(workspace, durable: false)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        editor = EditorResponder(workspace: workspace, settings: settings, files: files)
        // Rings are counted from before the first pull: a push during it is not missed.
        signals.watch(user)
        let rings = signals.rings(user)
        do {
            try await sync()
        } catch {
            signals.unwatch(user)
            await editor.close()
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        startFollowing(from: rings)
    }

    /// The session the person's newest request came with: the copy syncs as it (an older one
    /// may have been signed out). A copy that stopped following catches up first.
    func use(_ person: HubPerson) async throws {
        // Two browsers of one person alternate here. The file is written inside the lock, so
        // it ends with the newest request's session; not flushed, since the copy is a cache.
        let workspace = workspace, closed = isClosed
        try login.withLock { login in
            guard login.token != person.token else { return }
            var newest = login
            newest.token = person.token
            newest.session = person.session
            newest.role = person.role
            // Kept only once written: a failed write is tried again by the next request.
            if !closed { try newest.save(workspace, durable: false) }
            login = newest
        }
        if state.withLock({ $0.follower == nil && !$0.closed }) {
            let rings = signals.rings(user)
            try await sync()
            startFollowing(from: rings)
        }
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    private func startFollowing(from rings: UInt64) {
        // Each person's own helpers, never another's (they run the person's filters), kept
        // warm while the person is here.
        workspace.keepHelpersWarm(1)
        state.withLock { state in
            guard !state.closed, state.follower == nil else { return }
            state.follower = Task { [weak self] in
                guard let self else { return }
                await self.follow(from: rings)
            }
        }
    }

    /// Push what the store has that the hub lacks, pull what it lacks: one at a time, and a
    /// caller waits for a sync that began after it asked (its edit is in it).
    @discardableResult
    func sync() async throws -> SyncReport {
        let login = self.login.withLock { $0 }
        let workspace = workspace
        let (state, editor, syncState) = (state, editor, syncState)
        let transport = hubSync.session(token: login.token)
        return try await turns.run {
            let report = try await Syncer(workspace: workspace, login: login, keptIn: syncState, through: transport).run()
            // Inside the turn: whoever waits for the turns to settle sees where it got.
            state.withLock { $0.position = max($0.position, report.position) }
            if report.eventsDown > 0 { editor.storeChanged() }
            return report
        }
    }

    /// Returns once no sync is under way: a change is decided on what the last pull brought.
    func settled() async { await turns.settled() }

    /// Pulls when the hub says a push went past what the copy holds (its own pushes' notices
    /// name positions it has already); without a notice, every 30 s as a net, and every
    /// second while the hub's listening connection is lost. Stops when the copy is idle.
    private func follow(from start: UInt64) async {
        var seen = start, lastSync = ContinuousClock.now
        while !Task.isCancelled {
            let rings = signals.rings(user)
            let rang = rings != seen
            seen = rings
            // The copy's own push rings before its sync has read the answer: let that sync end first.
            if rang { await settled() }
            let behind = rang && (signals.position(user).map { $0 > state.withLock { $0.position } } ?? true)
            let net = ContinuousClock.now - lastSync >= (signals.isListening ? .seconds(30) : .seconds(1))
            if behind || net {
                do {
                    try await sync()
                    lastSync = .now
                } catch let error as HubClientError where error.status == 401 {
                    state.withLock { $0.follower = nil }
                    await signedOut(self)
                    return
                } catch {
                    try? await Task.sleep(for: .seconds(2))  // the hub is stopping or busy: again soon
                }
            }
            if state.withLock({ $0.inFlight == 0 && ContinuousClock.now - $0.lastUsed > Self.followIdle }) {
                state.withLock { $0.follower = nil }
                workspace.keepHelpersWarm(0)
                return
            }
            await signals.wait(user, since: seen, atMost: signals.isListening ? .seconds(30) : .seconds(1))
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

    /// Stops following the hub and the pages' updates, waits for the requests still using it
    /// (up to 30 s), and deletes the store: what it held is in PostgreSQL.
    func close() async {
        let (wasClosed, follower) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            defer { state.closed = true; state.follower = nil }
            return (state.closed, state.follower)
        }
        guard !wasClosed else { return }
        follower?.cancel()
        signals.unwatch(user)
        await editor.close()
        workspace.keepHelpersWarm(0)
        let end = ContinuousClock.now + .seconds(30)
        while state.withLock({ $0.inFlight > 0 }), ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(50)) }
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
