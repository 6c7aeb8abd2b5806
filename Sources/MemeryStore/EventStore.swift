import CLMDB
import Crypto
import Foundation

/// The append-only event log on LMDB: a global log, a per-stream index, content-addressed
/// blobs, unique claims and metadata. It knows streams and events, not memes.
public final class EventStore: Sendable {
    /// The store format this build writes and the newest it reads (docs/store-format.md).
    public static let formatVersion = 3
    /// A generous virtual reservation; LMDB on Linux only uses disk for written pages.
    public static let defaultMapSize = 1 << 30

    enum Name {
        static let log = "log"          // 8-byte big-endian sequence -> EventRecord
        static let streams = "streams"  // stream id + 8-byte version -> 8-byte sequence
        static let blobs = "blobs"      // 32-byte SHA-256 -> bytes
        static let claims = "claims"    // UTF-8 claim -> 16-byte stream id
        static let meta = "meta"        // UTF-8 key -> UTF-8 value
        static let blobRefs = "blobrefs"  // 32-byte SHA-256 + 16-byte stream id -> nothing
        static let snapshots = "snapshots"  // 16-byte stream id -> version (8) + format (4) + bytes
        static let ids = "ids"          // 16-byte event id -> 8-byte sequence (format 2)
        static let all = [log, streams, blobs, claims, meta, blobRefs, snapshots, ids]
    }

    public let directory: URL
    let env: LMDBEnvironment
    let log, streams, blobs, claims, meta: UInt32
    /// Which streams use which blob.
    let blobReferences: UInt32
    let snapshots: UInt32
    /// Which sequence holds each event id (format 2).
    let ids: UInt32
    /// The format the store's files are in: older than `formatVersion` until migrated
    /// (`StoreMigration`), and then only read.
    public let storedFormat: Int
    /// How its records are checked: CRC32C from format 3, SHA-256 before.
    let recordChecksum: EventRecord.Checksum

    /// Makes this store a cache: its commits are no longer flushed to the disk (see
    /// `LMDBEnvironment.flushCommits`). A hub's working copies, which PostgreSQL backs.
    public func keepAsCache() throws { try env.flushCommits(false) }

    /// Opens the store in `directory`, creating it when absent.
    public init(directory: URL, mapSize: Int = EventStore.defaultMapSize) throws {
        self.directory = directory
        try Self.prepare(directory)
        do {
            env = try LMDBEnvironment.open(directory: directory.path, mapSize: mapSize, databaseNames: Name.all)
        } catch let error as LMDBError where error.code == EACCES || error.code == EROFS {
            // Files or filesystem that cannot be written: still readable, never changed.
            do {
                env = try LMDBEnvironment.open(directory: directory.path, mapSize: mapSize, databaseNames: Name.all, readOnly: true)
            } catch let second as LMDBError where second.code == EACCES {
                // Not even the lock file can be written (someone else's store): read without it.
                do {
                    env = try LMDBEnvironment.open(directory: directory.path, mapSize: mapSize, databaseNames: Name.all, readOnly: true, withoutLock: true)
                } catch let third as LMDBError {
                    throw StoreError.unusableDirectory(path: directory.path, reason: third.message)
                }
            } catch let second as LMDBError {
                throw StoreError.unusableDirectory(path: directory.path, reason: second.message)
            }
        } catch let error as LMDBError where error.meansDamage {
            throw StoreError.damaged(sequence: nil, reason: "\(directory.appendingPathComponent("data.mdb").path) is not a readable store file (\(error.message))")
        } catch let error as LMDBError {
            throw StoreError.unusableDirectory(path: directory.path, reason: error.message)
        }
        log = env.database(Name.log)
        streams = env.database(Name.streams)
        blobs = env.database(Name.blobs)
        claims = env.database(Name.claims)
        meta = env.database(Name.meta)
        blobReferences = env.database(Name.blobRefs)
        snapshots = env.database(Name.snapshots)
        ids = env.database(Name.ids)
        storedFormat = try Self.checkFormat(env, meta: meta, directory: directory)
        recordChecksum = EventRecord.Checksum(format: storedFormat)
    }

    private static func prepare(_ directory: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StoreError.unusableDirectory(path: directory.path, reason: "it is a file, not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError.unusableDirectory(path: directory.path, reason: "it cannot be created (\(error.localizedDescription))")
        }
    }

    /// Clears reader slots left by killed processes (opening the store already does);
    /// returns how many there were.
    public func clearStaleReaders() throws -> Int { try env.clearStaleReaders() }

    /// True when the store can only be read (its files or filesystem are read-only).
    public var isReadOnly: Bool { env.readOnly }

    /// Every write of the store goes through here: refused at once when the store is
    /// read-only, and a full disk becomes an error that says so.
    @discardableResult
    func write<T>(_ body: (Transaction) throws -> T) throws -> T {
        guard !env.readOnly else { throw StoreError.readOnly(path: directory.path) }
        guard storedFormat == Self.formatVersion else { throw StoreError.olderFormat(found: storedFormat, path: directory.path) }
        do {
            return try env.write(body)
        } catch let error as LMDBError where [ENOSPC, EDQUOT, EIO].contains(error.code) {
            // LMDB reports a short write of a full disk as EIO. The pages the failed commit
            // wrote past the end of the file are given back, so the disk is no fuller than before.
            _ = try? env.trimToCommitted()
            throw StoreError.diskFull(path: directory.path)
        }
    }

    /// The store's format: a new store is marked with this build's; a newer one is refused.
    private static func checkFormat(_ env: LMDBEnvironment, meta: UInt32, directory: URL) throws -> Int {
        let key = Array("format".utf8)
        var found = try env.read { txn in try txn.get(meta, key) }
        if found == nil, !env.readOnly {
            found = try env.write { txn in
                // Another process may have marked it meanwhile: keep what it wrote.
                if let marked = try txn.get(meta, key) { return marked }
                let mark = Array(String(formatVersion).utf8)
                try txn.put(meta, key, mark, noOverwrite: true)
                return mark
            }
        }
        guard let found else { return formatVersion }
        guard let version = Int(String(decoding: found, as: UTF8.self)), version >= 1 else {
            throw StoreError.damaged(sequence: nil, reason: "unreadable format version")
        }
        if version > formatVersion {
            throw StoreError.newerFormat(found: version, supported: formatVersion)
        }
        return version
    }

    /// The map size now in force (it grows when a write fills it).
    public var mapSize: Int { env.mapSize }

    // MARK: Appending

    /// Events for one stream within an append.
    public struct StreamWrite: Sendable {
        public var stream: UUID
        /// The stream's version the caller decided against (0: a new stream); nil appends
        /// whatever the version, for events that depend on nothing before them.
        public var expectedVersion: UInt64?
        public var events: [NewEvent]
        /// The stream's state after these events, stored as its snapshot in the same
        /// transaction (a move of a creation's head, which a reader could not fold).
        public var snapshot: SnapshotWrite?
        /// Keeps the stream's cache (`StreamCache`) in step, in the same transaction: called with
        /// the events as stored, and the cache at the version after them. Not called when the
        /// events were stored already.
        public var derive: (@Sendable (StreamCache, [StoredEvent]) throws -> Void)?
        public init(stream: UUID, expectedVersion: UInt64?, events: [NewEvent], snapshot: SnapshotWrite? = nil,
                    derive: (@Sendable (StreamCache, [StoredEvent]) throws -> Void)? = nil) {
            self.stream = stream; self.expectedVersion = expectedVersion; self.events = events; self.snapshot = snapshot
            self.derive = derive
        }
    }

    public struct SnapshotWrite: Sendable {
        public var format: Int
        public var data: Data
        public init(format: Int, data: Data) { self.format = format; self.data = data }
    }

    /// Appends `events` to `stream` atomically, with the blobs they reference and the unique
    /// claims they take or release. Refuses a stale `expectedVersion` (0: a new stream).
    /// Returns once the commit is durable.
    @discardableResult
    public func append(to stream: UUID, expectedVersion: UInt64, events: [NewEvent],
                       blobs newBlobs: [Data] = [], blobRefs: [String] = [], claim: [String] = [], release: [String] = [],
                       now: Date = Date()) throws -> [StoredEvent] {
        try append([StreamWrite(stream: stream, expectedVersion: expectedVersion, events: events)],
                   blobs: newBlobs, blobRefs: blobRefs, claim: claim, release: release, now: now)
    }

    /// Appends to several streams in one transaction, all or nothing: every stream's expected
    /// version is checked first. The blobs written (and the existing ones named in
    /// `blobRefs`) are referenced by, and the claims held for, `owner` (by default the first
    /// stream); a blob is kept while any stream references it. Events of one call share a batch.
    @discardableResult
    public func append(_ writes: [StreamWrite], blobs newBlobs: [Data] = [], blobRefs: [String] = [],
                       claim: [String] = [], release: [String] = [], owner: UUID? = nil, now: Date = Date()) throws -> [StoredEvent] {
        guard let owner = owner ?? writes.first?.stream else { return [] }
        return try write { txn in
            try append(writes, blobs: newBlobs, blobRefs: blobRefs, claim: claim, release: release, owner: owner, now: now, in: txn)
        }
    }

    func append(_ writes: [StreamWrite], blobs newBlobs: [Data], blobRefs: [String], claim: [String], release: [String],
                owner: UUID, now: Date, in txn: Transaction) throws -> [StoredEvent] {
        // Events stored already (a retried sync) are answered as stored, and nothing is written.
        var alreadyStored = [StoredEvent]()
        var toWrite = [StreamWrite]()
        for write in writes {
            if let stored = try storedAlready(write, in: txn) { alreadyStored += stored } else { toWrite.append(write) }
        }
        guard !toWrite.isEmpty else { return alreadyStored }
        let writes = toWrite
        var versions = [UInt64]()
        for write in writes {
            let actual = try version(of: write.stream, in: txn)
            if let expected = write.expectedVersion, actual != expected {
                throw StoreError.conflict(stream: write.stream, expected: expected, actual: actual)
            }
            versions.append(actual)
        }
        for key in release {
            if let holder = try txn.get(claims, Array(key.utf8)), KeyEncoding.uuid(holder) == owner {
                try txn.delete(claims, Array(key.utf8))
            }
        }
        for key in claim {
            if let holder = try txn.get(claims, Array(key.utf8)), let holderID = KeyEncoding.uuid(holder), holderID != owner {
                throw StoreError.claimTaken(claim: key, owner: holderID)
            }
            try txn.put(claims, Array(key.utf8), KeyEncoding.uuid(owner))
        }
        for blob in newBlobs {
            guard let key = BlobHash.key(BlobHash.of(blob)) else { continue }
            try txn.put(blobs, key, Array(blob), noOverwrite: true)  // same bytes: keep the old copy
            try txn.put(blobReferences, key + KeyEncoding.uuid(owner), [])
        }
        for hash in blobRefs {
            guard let key = BlobHash.key(hash), try txn.get(blobs, key) != nil else { throw StoreError.missingBlob(hash: hash) }
            try txn.put(blobReferences, key + KeyEncoding.uuid(owner), [])
        }
        var sequence = try lastSequence(in: txn)
        let batch = sequence + 1
        // Clamped: a time from outside (a pull) converts without a trap whatever it says.
        let millis = Int64(exactly: (now.timeIntervalSince1970 * 1000).rounded()) ?? (now.timeIntervalSince1970 > 0 ? Int64.max : Int64.min)
        var stored = [StoredEvent]()
        stored.reserveCapacity(writes.reduce(0) { $0 + $1.events.count })
        // One cursor per index for the whole run of puts (closed before the commit).
        let logCursor = try WriteCursor(txn, log), streamCursor = try WriteCursor(txn, streams), idCursor = try WriteCursor(txn, ids)
        for (write, actual) in zip(writes, versions) {
            let firstOfWrite = stored.count
            for (offset, event) in write.events.enumerated() {
                sequence += 1
                var record = StoredEvent(sequence: sequence, batch: batch, stream: write.stream, version: actual + UInt64(offset) + 1,
                                         id: event.id, parent: event.parent, type: event.type, schemaVersion: event.schemaVersion,
                                         timeMilliseconds: millis, payload: event.payload, checksum: RecordChecksum())
                // Written straight into the space LMDB reserves in its map, keys from the stack.
                let size = try EventRecord.size(of: record, recordChecksum)
                try withUnsafeBytes(of: sequence.bigEndian) { sequenceKey in
                    record.checksum = EventRecord.write(record, into: try logCursor.reserve(key: sequenceKey, size: size, append: true), recordChecksum)
                    try KeyEncoding.withStreamKey(write.stream, record.version) { streamKey in
                        try streamCursor.put(key: streamKey, value: sequenceKey, flags: UInt32(MDB_NOOVERWRITE))
                    }
                    try withUnsafeBytes(of: event.id.uuid) { idKey in
                        do {
                            try idCursor.put(key: idKey, value: sequenceKey, flags: UInt32(MDB_NOOVERWRITE))
                        } catch let error as LMDBError where error.code == MDB_KEYEXIST {
                            throw StoreError.duplicateEventID(event.id)
                        }
                    }
                }
                stored.append(record)
            }
            if let snapshot = write.snapshot {
                try putSnapshot(write.stream, version: actual + UInt64(write.events.count), snapshot, in: txn)
            }
            if write.derive != nil { try derive(write, stored: Array(stored[firstOfWrite...]), in: txn) }
        }
        FailPoint.pass(FailPoint.afterPutBeforeCommit)
        return alreadyStored.isEmpty ? stored : alreadyStored + stored  // no copy of a thousand events for nothing
    }

    /// The events of `write` when they are stored already under their ids, nil when its
    /// first is not (one lookup per append: a later event's id found stored is refused by
    /// the id index as it is written). A write only partly stored is refused: appends are
    /// atomic, so it means two different events were given one id.
    private func storedAlready(_ write: StreamWrite, in txn: Transaction) throws -> [StoredEvent]? {
        guard let first = write.events.first, try txn.get(ids, KeyEncoding.uuid(first.id)) != nil else { return nil }
        return try write.events.map { event in
            guard let value = try txn.get(ids, KeyEncoding.uuid(event.id)), let sequence = KeyEncoding.uint64(value) else {
                throw StoreError.duplicateEventID(first.id)
            }
            let stored = try self.event(at: sequence, in: txn)
            guard stored.stream == write.stream else { throw StoreError.duplicateEventID(event.id) }
            return stored
        }
    }

    /// The event stored under `id`, if any.
    public func event(id: UUID) throws -> StoredEvent? {
        try env.read { txn in
            guard let value = try txn.get(ids, KeyEncoding.uuid(id)), let sequence = KeyEncoding.uint64(value) else { return nil }
            return try event(at: sequence, in: txn)
        }
    }

    // MARK: Reading

    /// The stream's current version (0 when it has no events).
    public func version(of stream: UUID) throws -> UInt64 {
        try env.read { txn in try version(of: stream, in: txn) }
    }

    func version(of stream: UUID, in txn: Transaction) throws -> UInt64 {
        guard let key = try txn.lastKey(streams, atMost: KeyEncoding.streamKey(stream, .max)),
              key.count == 24, KeyEncoding.uuid(key[0..<16]) == stream else { return 0 }
        return KeyEncoding.uint64(Array(key[16...])) ?? 0
    }

    /// The sequence of the newest event (0 for an empty store).
    public func lastSequence() throws -> UInt64 {
        try env.read { txn in try lastSequence(in: txn) }
    }

    func lastSequence(in txn: Transaction) throws -> UInt64 {
        guard let key = try txn.lastKey(log) else { return 0 }
        return KeyEncoding.uint64(key) ?? 0
    }

    /// Every event of `stream` in version order, each checked against its checksum.
    public func events(in stream: UUID, fromVersion: UInt64 = 1) throws -> [StoredEvent] {
        try env.read { txn in try events(in: stream, fromVersion: fromVersion, in: txn) }
    }

    func events(in stream: UUID, fromVersion: UInt64, in txn: Transaction) throws -> [StoredEvent] {
        var sequences = [UInt64]()
        let prefix = KeyEncoding.uuid(stream)
        try txn.scan(streams, from: KeyEncoding.streamKey(stream, fromVersion)) { key, value in
            guard key.count == 24, key.starts(with: prefix) else { return false }
            if let sequence = KeyEncoding.uint64(value) { sequences.append(sequence) }
            return true
        }
        return try sequences.map { try event(at: $0, in: txn) }
    }

    func event(at sequence: UInt64, in txn: Transaction) throws -> StoredEvent {
        // Read in the map: the record is copied once, into the event kept.
        guard let event = try txn.withValue(log, KeyEncoding.bigEndian(sequence), {
            try EventRecord.decode($0, sequence: sequence, recordChecksum)
        }) else {
            throw StoreError.damaged(sequence: sequence, reason: "the stream index points at a missing event")
        }
        return event
    }

    /// Visits the global log in order from `sequence` while `body` returns true.
    public func forEachEvent(from sequence: UInt64 = 1, _ body: (StoredEvent) throws -> Bool) throws {
        try forEachBorrowedEvent(from: sequence) { try body($0.stored()) }
    }

    /// `forEachEvent` with each record read in place, for a scan that decodes few of them
    /// or decodes them without copies: `event` is valid only inside `body`.
    public func forEachBorrowedEvent(from sequence: UInt64 = 1, _ body: (_ event: BorrowedEvent) throws -> Bool) throws {
        try env.read { txn in
            try txn.scan(log, from: KeyEncoding.bigEndian(sequence)) { key, value in
                guard let seq = KeyEncoding.uint64(key) else {
                    throw StoreError.damaged(sequence: nil, reason: "a log key of \(key.count) bytes")
                }
                return try body(try BorrowedEvent(value, sequence: seq, recordChecksum))
            }
        }
    }

    /// Visits the global log as `forEachEvent` does, passing over the records that fail
    /// their checks instead of stopping there: each is told to `damaged` with its sequence,
    /// the stream its envelope names (a guess: the damage may be there) and the reason.
    /// For what must go on past damage: listing the gallery, salvage.
    public func forEachReadableEvent(from sequence: UInt64 = 1, damaged: (UInt64, UUID?, String) -> Void,
                                     _ body: (StoredEvent) throws -> Bool) throws {
        try forEachReadableBorrowedEvent(from: sequence, damaged: damaged) { try body($0.stored()) }
    }

    /// `forEachReadableEvent` with each record read in place: `event` is valid only inside `body`.
    public func forEachReadableBorrowedEvent(from sequence: UInt64 = 1, damaged: (UInt64, UUID?, String) -> Void,
                                             _ body: (_ event: BorrowedEvent) throws -> Bool) throws {
        try env.read { txn in
            try txn.scan(log, from: KeyEncoding.bigEndian(sequence)) { key, value in
                guard let seq = KeyEncoding.uint64(key) else {
                    damaged(0, nil, "a log key of \(key.count) bytes")
                    return true
                }
                let event: BorrowedEvent
                do {
                    event = try BorrowedEvent(value, sequence: seq, recordChecksum)
                } catch StoreError.damaged(_, let reason) {
                    damaged(seq, EventRecord.streamIfReadable(value, recordChecksum), reason)
                    return true
                }
                return try body(event)
            }
        }
    }

    /// The global log from `sequence` on.
    public func events(from sequence: UInt64 = 1, limit: Int = .max) throws -> [StoredEvent] {
        var result = [StoredEvent]()
        try forEachEvent(from: sequence) { event in
            result.append(event)
            return result.count < limit
        }
        return result
    }

    /// The bytes of a blob, or nil when absent.
    /// The bytes of a blob, checked against their hash (damaged bytes are an error, never
    /// a picture), or nil when absent.
    public func blob(_ hash: String) throws -> Data? {
        guard let key = BlobHash.key(hash) else { return nil }
        return try env.read { txn -> Data? in
            guard let bytes = try txn.get(blobs, key) else { return nil }
            guard Array(SHA256.hash(data: bytes)) == key else {
                throw StoreError.damaged(sequence: nil, reason: "image \(hash.prefix(12))… does not match its hash (its bytes changed on disk)")
            }
            return Data(bytes)
        }
    }

    /// The stream holding a unique claim, if any.
    public func owner(ofClaim claim: String) throws -> UUID? {
        try env.read { txn in
            try txn.get(claims, Array(claim.utf8)).flatMap { KeyEncoding.uuid($0) }
        }
    }
}
