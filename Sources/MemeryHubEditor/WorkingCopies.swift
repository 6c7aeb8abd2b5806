import Foundation
import MemeryHub
import MemeryServer

/// The working copies a hub keeps (`--cache-dir`), one per person it serves, within
/// `--cache-gb` and `maxCopies`: past either, the least recently used copies with no
/// request under way are let go. A copy is a cache: the hub opens each afresh (a folder
/// left by an earlier process is deleted at start), and building one is a pull.
actor WorkingCopies {
    let folder: URL
    let budgetBytes: Int64
    let maxCopies: Int
    let settings: ServerSettings
    let files: EditorFiles
    private var hub: (address: String, signals: HubSignals, sync: HubLocalSync)?
    private var copies: [Int64: WorkingCopy] = [:]
    /// Copies being built: a second request waits for the same build.
    private var building: [Int64: Task<WorkingCopy, any Error>] = [:]
    private var lastBudgetCheck = ContinuousClock.now

    init(folder: URL, budgetBytes: Int64, maxCopies: Int = 256, settings: ServerSettings, files: EditorFiles) throws {
        self.folder = folder
        self.budgetBytes = budgetBytes
        self.maxCopies = maxCopies
        self.settings = settings
        self.files = files
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // One hub per folder: a second would delete the first one's copies below.
        let lock = open(folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            throw HubEditorError.cacheInUse(folder.path)
        }
        // The lock is held for the process's life (closed at exit).
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("copies"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("copies"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    func started(at address: String, signals: HubSignals, sync: HubLocalSync) { hub = (address, signals, sync) }

    /// The hub's sync calls, once it has started.
    var sync: HubLocalSync? { hub?.sync }

    /// The person's copy, built on first use; marked in use (`begin`) until the caller's `end`.
    func copy(for person: HubPerson) async throws -> WorkingCopy {
        if let copy = copies[person.user] {
            copy.begin()
            do {
                try await copy.use(person)
            } catch {
                copy.end()
                throw error
            }
            if ContinuousClock.now - lastBudgetCheck > .seconds(10) { await keepWithinBudget() }
            return copy
        }
        let build: Task<WorkingCopy, any Error>
        if let running = building[person.user] {
            build = running
        } else {
            guard let hub else { throw HubEditorError.starting }
            // A new folder each time: a copy let go may still be closing in its old one.
            let place = folder.appendingPathComponent("copies").appendingPathComponent("\(person.user)-\(UUID().uuidString.prefix(8))")
            let (settings, files) = (settings, files)
            build = Task {
                try await WorkingCopy(person: person, hub: hub.address, signals: hub.signals, sync: hub.sync, folder: place, settings: settings, files: files,
                                      signedOut: { [weak self] copy in await self?.discard(copy) })
            }
            building[person.user] = build
        }
        do {
            let copy = try await build.value
            building[person.user] = nil
            copies[person.user] = copy
            copy.begin()
            await keepWithinBudget()
            return copy
        } catch {
            building[person.user] = nil
            throw error
        }
    }

    /// A copy whose push failed, or whose person's session is gone: let go (the next request
    /// builds it again from PostgreSQL).
    func discard(_ copy: WorkingCopy) async {
        guard copies[copy.user] === copy else { return }
        copies[copy.user] = nil
        await copy.close()
    }

    /// Lets the least recently used idle copies go until the rest fit the budget. The ones
    /// chosen leave the table before any wait, so no request can take one meanwhile.
    private func keepWithinBudget() async {
        lastBudgetCheck = .now
        var total = copies.values.reduce(0) { $0 + $1.size }
        var count = copies.count
        var leaving = [WorkingCopy]()
        let idle = copies.values.compactMap { copy in copy.idleSince.map { (copy, $0) } }.sorted { $0.1 < $1.1 }
        for (copy, _) in idle where total > budgetBytes || count > maxCopies {
            total -= copy.size
            count -= 1
            copies[copy.user] = nil
            leaving.append(copy)
        }
        for copy in leaving { await copy.close() }
    }

    var count: Int { copies.count }
}

public enum HubEditorError: Error, CustomStringConvertible {
    case starting
    case cacheInUse(String)
    public var description: String {
        switch self {
        case .starting: "the hub is still starting: try again in a moment"
        case .cacheInUse(let path): "another hub uses the cache folder \(path): give each hub its own --cache-dir"
        }
    }
}
