import CLMDB
import Foundation
import MemeryLocks

/// One open LMDB environment (a store directory holding data.mdb and lock.mdb).
///
/// Transactions are closures, as GRDB does for SQLite. A write that fills the map is
/// aborted, the map is grown, and the write is run again; a map grown by another process
/// is adopted before the next transaction. Sync stays on: a returned write is durable.
///
/// Shared by every thread of the process (`open` gives one environment per store): LMDB
/// serializes write transactions itself (one writer across threads and processes) and,
/// opened with MDB_NOTLS, lets any thread run read transactions beside it.
///
/// `@unchecked Sendable`, earned: the handle is LMDB's thread-safe environment; the
/// database handles are fixed once `init` returns; the map size is guarded by a mutex and
/// changed only under the resize lock held exclusively.
public final class LMDBEnvironment: @unchecked Sendable {
    let handle: OpaquePointer
    /// Guards the map size: every transaction holds it shared, resizing holds it exclusive,
    /// because LMDB allows mdb_env_set_mapsize only while this process has no transaction.
    /// On the heap: a pthread lock must not move, and a class's stored property may.
    private let resizeLock: UnsafeMutablePointer<pthread_rwlock_t>
    private var databases: [String: MDB_dbi] = [:]
    /// How many times a write may grow the map before giving up.
    private let maxGrowths = 40
    private let currentMapSize: Locked<Int>
    /// The key `open` shares this environment under.
    private var registryKey: String?

    public var mapSize: Int { currentMapSize.withLock { $0 } }
    /// Opened read-only (the store's files or filesystem cannot be written).
    public let readOnly: Bool

    /// Opens (and creates, if needed) the environment in `directory` with the named databases.
    /// Read-only, the databases must exist already and every write fails.
    /// `withoutLock`: read-only, and the lock file cannot be written either (a store of
    /// someone else's): no reader table is kept, so a writer elsewhere could reuse pages
    /// under a long read; reads here are short and each is checked against its checksum.
    public init(directory: String, mapSize: Int, databaseNames: [String], readOnly: Bool = false, withoutLock: Bool = false) throws {
        var env: OpaquePointer?
        try LMDBError.check(mdb_env_create(&env), "mdb_env_create")
        guard let env else { throw LMDBError(code: EINVAL, operation: "mdb_env_create") }
        handle = env
        currentMapSize = Locked(mapSize)
        self.readOnly = readOnly
        resizeLock = .allocate(capacity: 1)
        pthread_rwlock_init(resizeLock, nil)
        do {
            try LMDBError.check(mdb_env_set_maxdbs(env, MDB_dbi(databaseNames.count + 2)), "mdb_env_set_maxdbs")
            try LMDBError.check(mdb_env_set_mapsize(env, mapSize), "mdb_env_set_mapsize")
            // NOTLS: read transactions are not tied to a thread (Swift tasks hop threads).
            // No NOSYNC, no WRITEMAP: an acknowledged commit must be on disk.
            let flags = UInt32(MDB_NOTLS) | (readOnly ? UInt32(MDB_RDONLY) : 0) | (readOnly && withoutLock ? UInt32(MDB_NOLOCK) : 0)
            try LMDBError.check(mdb_env_open(env, directory, flags, 0o644), "mdb_env_open")
            // Readers left behind by a killed process would pin old pages forever. (On a
            // read-only filesystem LMDB keeps no reader table, and there is nothing to check.)
            var dead: Int32 = 0
            let checked = mdb_reader_check(env, &dead)
            if !readOnly && !withoutLock { try LMDBError.check(checked, "mdb_reader_check") }
            currentMapSize.withLock { $0 = Self.currentMapSize(env) }
            let open = { (txn: Transaction) throws in
                for name in databaseNames {
                    var dbi: MDB_dbi = 0
                    try LMDBError.check(mdb_dbi_open(txn.handle, name, readOnly ? 0 : UInt32(MDB_CREATE), &dbi), "mdb_dbi_open(\(name))")
                    self.databases[name] = dbi
                }
            }
            if readOnly {
                // Handles opened in a transaction live on only if it commits, read-only too.
                var txn: OpaquePointer?
                try LMDBError.check(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin")
                do { try open(Transaction(handle: txn!)) } catch { mdb_txn_abort(txn); throw error }
                try LMDBError.check(mdb_txn_commit(txn), "mdb_txn_commit")
            } else {
                try write(open)
            }
        } catch {
            // Every property is set by now, so deinit runs and closes the environment:
            // closing it here as well would free it twice.
            throw error
        }
    }

    /// Stops (or resumes) flushing commits to the disk. Only for a store that is a cache of
    /// somewhere else and is deleted when its process starts again: a process killed still
    /// leaves its commits in the kernel's page cache, but a machine that stops may lose them
    /// or leave the files damaged.
    public func flushCommits(_ flush: Bool) throws {
        try LMDBError.check(mdb_env_set_flags(handle, UInt32(MDB_NOSYNC), flush ? 0 : 1), "mdb_env_set_flags")
    }

    /// Clears reader slots left by dead processes; returns how many there were.
    public func clearStaleReaders() throws -> Int {
        var dead: Int32 = 0
        try LMDBError.check(mdb_reader_check(handle, &dead), "mdb_reader_check")
        return Int(dead)
    }

    deinit {
        // Closed under the registry's lock, so that `open` never opens the same files while
        // this close is under way (closing drops the process's locks on lock.mdb).
        // (One that failed to open was never registered, and its init holds that lock.)
        if let registryKey {
            Self.registry.withLock { open in
                mdb_env_close(handle)
                open[registryKey] = nil
            }
        } else {
            mdb_env_close(handle)
        }
        pthread_rwlock_destroy(resizeLock)
        resizeLock.deallocate()
    }

    // MARK: One environment per store per process

    /// LMDB forbids opening one environment twice in a process (a second close would drop
    /// the first one's locks), so environments are shared by the directory's identity.
    private final class Weak: @unchecked Sendable {  // set once, read under the registry lock
        weak var environment: LMDBEnvironment?
        init(_ environment: LMDBEnvironment) { self.environment = environment }
    }
    private static let registry = Locked<[String: Weak]>([:])

    /// The environment of the store in `directory`: the one this process has open (whatever
    /// mode it was opened in), or a new one, opened under the registry's lock so that two
    /// threads never open the same files twice.
    public static func open(directory: String, mapSize: Int, databaseNames: [String], readOnly: Bool = false,
                            withoutLock: Bool = false) throws -> LMDBEnvironment {
        var info = stat()
        let key = stat(directory, &info) == 0 ? "\(info.st_dev):\(info.st_ino)" : directory
        while true {
            let shared: LMDBEnvironment? = try registry.withLock { open in
                if let entry = open[key] { return entry.environment }  // nil: its close is under way
                let environment = try LMDBEnvironment(directory: directory, mapSize: mapSize, databaseNames: databaseNames, readOnly: readOnly,
                                                      withoutLock: withoutLock)
                environment.registryKey = key
                open[key] = Weak(environment)
                return environment
            }
            if let shared { return shared }
            sched_yield()  // the last user is closing it: wait for the close
        }
    }

    /// The handle of a database opened at init.
    public func database(_ name: String) -> MDB_dbi {
        guard let dbi = databases[name] else { preconditionFailure("database \(name) was not opened") }
        return dbi
    }

    /// Runs `body` in a read-only snapshot of the store.
    @discardableResult
    public func read<T>(_ body: (Transaction) throws -> T) throws -> T {
        let txn = try begin(flags: UInt32(MDB_RDONLY))
        defer { mdb_txn_abort(txn); pthread_rwlock_unlock(resizeLock) }
        return try body(Transaction(handle: txn))
    }

    /// Runs `body` in a write transaction and commits it; `body` is run again after the map
    /// grows, so it must have no effects outside the transaction. Returns once durable.
    @discardableResult
    public func write<T>(_ body: (Transaction) throws -> T) throws -> T {
        var growths = 0
        while true {
            let seen = mapSize
            do {
                return try writeOnce(body)
            } catch let error as LMDBError where error.isMapFull && growths < maxGrowths {
                growths += 1
                try grow(from: seen)
                FailPoint.pass(FailPoint.duringMapGrowth)
            }
        }
    }

    private func writeOnce<T>(_ body: (Transaction) throws -> T) throws -> T {
        let txn = try begin(flags: 0)
        defer { pthread_rwlock_unlock(resizeLock) }
        let result: T
        do {
            result = try body(Transaction(handle: txn))
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
        // mdb_txn_commit frees the transaction whether or not it succeeds.
        try LMDBError.check(mdb_txn_commit(txn), "mdb_txn_commit")
        return result
    }

    /// Gives back the room a failed write took: LMDB writes a transaction's new pages past
    /// the end of data.mdb before its commit, and a commit that fails (a full disk) leaves the
    /// file grown. Nothing committed lies past the last page the newest commit uses, and no
    /// snapshot reads beyond it (that page only ever grows), so the file is cut back there,
    /// under the writer's lock so that no other write is extending it. Returns the bytes given back.
    @discardableResult
    public func trimToCommitted() throws -> Int {
        let txn = try begin(flags: 0)
        defer { mdb_txn_abort(txn); pthread_rwlock_unlock(resizeLock) }
        var info = MDB_envinfo(), stat = MDB_stat(), fd: Int32 = -1
        mdb_env_info(handle, &info)
        mdb_env_stat(handle, &stat)
        try LMDBError.check(mdb_env_get_fd(handle, &fd), "mdb_env_get_fd")
        let committed = off_t(info.me_last_pgno + 1) * off_t(stat.ms_psize)
        var status = Glibc.stat()
        guard fstat(fd, &status) == 0, status.st_size > committed else { return 0 }
        guard ftruncate(fd, committed) == 0 else { throw LMDBError(code: errno, operation: "ftruncate") }
        return Int(status.st_size - committed)
    }

    /// Begins a transaction holding the resize lock shared; adopts a map another process grew.
    private func begin(flags: UInt32) throws -> OpaquePointer {
        while true {
            pthread_rwlock_rdlock(resizeLock)
            var txn: OpaquePointer?
            let rc = mdb_txn_begin(handle, nil, flags, &txn)
            if rc == MDB_SUCCESS, let txn { return txn }
            pthread_rwlock_unlock(resizeLock)
            guard rc == MDB_MAP_RESIZED else { throw LMDBError(code: rc, operation: "mdb_txn_begin") }
            try setMapSize(0)  // 0 adopts the size recorded by the other process
        }
    }

    /// Doubles the map (at least +1 MiB), unless another thread grew it meanwhile.
    private func grow(from seen: Int) throws {
        pthread_rwlock_wrlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        guard mapSize == seen else { return }
        try LMDBError.check(mdb_env_set_mapsize(handle, max(seen * 2, seen + 1 << 20)), "mdb_env_set_mapsize")
        currentMapSize.withLock { $0 = Self.currentMapSize(handle) }
    }

    private func setMapSize(_ size: Int) throws {
        pthread_rwlock_wrlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        try LMDBError.check(mdb_env_set_mapsize(handle, size), "mdb_env_set_mapsize")
        currentMapSize.withLock { $0 = Self.currentMapSize(handle) }
    }

    private static func currentMapSize(_ env: OpaquePointer) -> Int {
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        return info.me_mapsize
    }
}
