import Foundation
import MemeryHub
import MemeryServer

/// The working copies a hub keeps (`--cache-dir`), one per person it serves, within
/// `--cache-gb`: past it, the least recently used copies with no request under way are let
/// go. A copy is a cache: the hub opens each afresh (a folder left by an earlier process is
/// deleted at start), and building one is a pull.
actor WorkingCopies {
    let folder: URL
    let budgetBytes: Int64
    let settings: ServerSettings
    let files: EditorFiles
    private var hub: String?
    private var copies: [Int64: WorkingCopy] = [:]
    /// Copies being built: a second request waits for the same build.
    private var building: [Int64: Task<WorkingCopy, any Error>] = [:]

    init(folder: URL, budgetBytes: Int64, settings: ServerSettings, files: EditorFiles) throws {
        self.folder = folder
        self.budgetBytes = budgetBytes
        self.settings = settings
        self.files = files
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // One hub per folder: a second would delete the first one's copies below.
        let lock = open(folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            throw HubEditorError.cacheInUse(folder.path)
        }
        // Held for the process's life (closed at exit).
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("copies"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("copies"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    func started(at address: String) { hub = address }

    /// The person's copy, built on first use; marked in use until `done`.
    func copy(for person: HubPerson) async throws -> WorkingCopy {
        if let copy = copies[person.user] {
            try copy.use(person)
            copy.begin()
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
            build = Task { try await WorkingCopy(person: person, hub: hub, folder: place, settings: settings, files: files) }
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

    /// A copy whose push failed: let go, so the next request builds it again from PostgreSQL.
    func discard(_ copy: WorkingCopy) async {
        guard copies[copy.user] === copy else { return }
        copies[copy.user] = nil
        await copy.close()
    }

    /// Lets the least recently used idle copies go until the rest fit the budget.
    private func keepWithinBudget() async {
        var total = copies.values.reduce(0) { $0 + $1.size }
        let idle = copies.values.compactMap { copy in copy.idleSince.map { (copy, $0) } }.sorted { $0.1 < $1.1 }
        for (copy, _) in idle where total > budgetBytes {
            total -= copy.size
            copies[copy.user] = nil
            await copy.close()
        }
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
