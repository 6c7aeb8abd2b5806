import Foundation

/// Moves a store of an older format to this build's: copy, convert, verify, swap.
///
/// The new store is built beside the old one (`DIR/.migrating/`), checked with `verify`
/// and by the caller, and only then swapped in by renames; the old `data.mdb` is kept
/// (as `DIR/format-N.data.mdb`) until the new one is in place, and a migration cut short at
/// any point is finished or undone by the next open. Processes of this build take turns on
/// `DIR/migration.lock`, and only one of them migrates.
public enum StoreMigration {
    /// What a migration did, in one line for people, and what it changed beyond the format.
    public struct Report: Sendable, Equatable {
        public var from: Int
        public var to: Int
        /// The events in the old store's log (purged ones too).
        public var events: Int
        /// What the conversion had to change that people should know (renames).
        public var notes: [String]
    }

    static let workName = ".migrating"
    static func keptName(_ format: Int) -> String { "format-\(format).data.mdb" }

    /// Opens the store in `directory`, migrating it first when it is in an older format.
    /// `convert` fills the new, empty store from the old one and checks what it made (it
    /// throws to abandon the migration, leaving the old store as it was) and returns notes.
    public static func open(directory: URL, mapSize: Int,
                            convert: (_ old: EventStore, _ new: EventStore) throws -> [String]) throws -> (EventStore, Report?) {
        if !interrupted(directory) {
            let store = try EventStore(directory: directory, mapSize: mapSize)
            if store.storedFormat == EventStore.formatVersion || store.isReadOnly { return (store, nil) }
        }
        // Older, or a migration was cut short: take the lock, then look again (another
        // process may have migrated meanwhile).
        let lock = try MigrationLock(directory)
        defer { lock.release() }
        try finishInterrupted(directory)
        let report = try migrate(directory, mapSize: mapSize, convert: convert)
        // Both environments are closed now: the files can be swapped.
        if let report {
            try swap(directory, keeping: report.from)
        }
        return (try EventStore(directory: directory, mapSize: mapSize), report)
    }

    /// Builds and checks the new store in the work directory; nil when there was nothing to do.
    private static func migrate(_ directory: URL, mapSize: Int,
                                convert: (EventStore, EventStore) throws -> [String]) throws -> Report? {
        let old = try EventStore(directory: directory, mapSize: mapSize)
        guard old.storedFormat < EventStore.formatVersion else { return nil }
        let work = directory.appendingPathComponent(workName)
        try? FileManager.default.removeItem(at: work)
        do {
            let oldSize = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("data.mdb").path)[.size] as? Int) ?? 0
            let new = try EventStore(directory: work, mapSize: max(mapSize, oldSize * 2))
            let notes = try convert(old, new)
            let check = try new.verify()
            if let problem = check.problem {
                throw StoreError.damaged(sequence: problem.sequence,
                                         reason: "the migrated copy failed its check (\(problem.reason)); the store was left in format \(old.storedFormat)")
            }
            return Report(from: old.storedFormat, to: EventStore.formatVersion, events: Int(try old.lastSequence()), notes: notes)
        } catch {
            try? FileManager.default.removeItem(at: work)
            throw error
        }
    }

    /// Old data.mdb aside, new data.mdb and lock.mdb in, then the old one and the work
    /// directory go. Each step is a rename, so `finishInterrupted` can tell where a crash stopped.
    private static func swap(_ directory: URL, keeping format: Int) throws {
        let files = FileManager.default
        let data = directory.appendingPathComponent("data.mdb")
        let kept = directory.appendingPathComponent(keptName(format))
        let work = directory.appendingPathComponent(workName)
        try files.moveItem(at: data, to: kept)
        try rename(work.appendingPathComponent("data.mdb"), data)
        // A new lock file too: a process still holding the old environment keeps the old one.
        try? rename(work.appendingPathComponent("lock.mdb"), directory.appendingPathComponent("lock.mdb"))
        try files.removeItem(at: kept)
        try? files.removeItem(at: work)
    }

    /// True when a migration was cut short between its renames.
    private static func interrupted(_ directory: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.contains { $0.hasPrefix("format-") && $0.hasSuffix(".data.mdb") }
    }

    /// Finishes (or undoes) a swap a crash cut short. Run under the migration lock.
    private static func finishInterrupted(_ directory: URL) throws {
        let files = FileManager.default
        let data = directory.appendingPathComponent("data.mdb")
        let work = directory.appendingPathComponent(workName)
        let names = (try? files.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix("format-") && name.hasSuffix(".data.mdb") {
            let kept = directory.appendingPathComponent(name)
            if files.fileExists(atPath: data.path) {
                // The new file is in place: the old one was about to go.
                try? rename(work.appendingPathComponent("lock.mdb"), directory.appendingPathComponent("lock.mdb"))
                try files.removeItem(at: kept)
            } else if files.fileExists(atPath: work.appendingPathComponent("data.mdb").path) {
                try rename(work.appendingPathComponent("data.mdb"), data)
                try? rename(work.appendingPathComponent("lock.mdb"), directory.appendingPathComponent("lock.mdb"))
                try files.removeItem(at: kept)
            } else {
                try rename(kept, data)  // nothing new to put in: back as it was
            }
        }
        try? files.removeItem(at: work)
    }

    /// rename(2): replaces the target atomically.
    private static func rename(_ from: URL, _ to: URL) throws {
        guard Foundation.rename(from.path, to.path) == 0 else {
            throw StoreError.unusableDirectory(path: to.deletingLastPathComponent().path,
                                               reason: "cannot move \(from.lastPathComponent) into place (\(String(cString: strerror(errno))))")
        }
    }

    /// An exclusive flock on DIR/migration.lock, held while a process migrates.
    /// The file goes when the lock is let go: a process still waiting on it then finds the
    /// store migrated, and one that comes later makes a new file and finds the same.
    private struct MigrationLock {
        let descriptor: Int32
        let path: String

        init(_ directory: URL) throws {
            path = directory.appendingPathComponent("migration.lock").path
            descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw StoreError.unusableDirectory(path: directory.path, reason: "cannot create migration.lock (\(String(cString: strerror(errno))))")
            }
            while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        }

        func release() {
            unlink(path)
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }
}

extension StoreMigration {
    /// The conversion of a store whose events need no change: each is written again in the
    /// new format (from format 2 to 3, with a CRC32C for its SHA-256), with the same claims.
    public static func copyUnchanged(_ old: EventStore, into new: EventStore) throws -> [String] {
        try old.copyEvents(into: new, claims: { try old.allClaims() }) { $0 }
        return []
    }
}

extension EventStore {
    /// Copies every event of this store into `target` (a new, empty store of this build's
    /// format) at its sequence, batch, stream and version, as `convert` gives it (its id,
    /// parent and payload); blobs and their references as they are; the claims given.
    /// Snapshots are a cache and are not copied. One transaction: all or nothing.
    /// `claims` is asked once every event was converted.
    public func copyEvents(into target: EventStore, claims makeClaims: () throws -> [String: UUID],
                           convert: (StoredEvent) throws -> StoredEvent) throws {
        var converted = [StoredEvent]()
        try forEachEvent { event in
            converted.append(try convert(event))
            return true
        }
        let claims = try makeClaims()
        // Pictures go straight from the old map to the new one, never all held in memory (a
        // store's pictures can be gigabytes); this body may run again after the map grows.
        try target.write { txn in
            for event in converted {
                let key = KeyEncoding.bigEndian(event.sequence)
                try txn.put(target.log, key, try EventRecord.encode(event, target.recordChecksum))
                if !event.isPurged { try txn.put(target.streams, KeyEncoding.streamKey(event.stream, event.version), key) }
                try txn.put(target.ids, KeyEncoding.uuid(event.id), key, noOverwrite: true)
            }
            try env.read { old in
                try old.scan(blobs) { key, value in try txn.put(target.blobs, Array(key), Array(value)); return true }
                try old.scan(blobReferences) { key, _ in try txn.put(target.blobReferences, Array(key), []); return true }
            }
            for (claim, owner) in claims { try txn.put(target.claims, Array(claim.utf8), KeyEncoding.uuid(owner)) }
        }
    }

    /// Every unique claim and the stream holding it.
    public func allClaims() throws -> [String: UUID] {
        try env.read { txn in
            var result = [String: UUID]()
            try txn.scan(claims) { key, value in
                if let owner = KeyEncoding.uuid(Array(value)) { result[String(decoding: key, as: UTF8.self)] = owner }
                return true
            }
            return result
        }
    }
}
