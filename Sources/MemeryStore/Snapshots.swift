import Foundation

/// A cached fold of a stream up to a version. Never the truth: a reader folds the events
/// after it, and ignores a snapshot of another format (or one past the stream's end).
public struct Snapshot: Sendable, Equatable {
    public var version: UInt64
    public var format: Int
    public var data: Data
}

extension EventStore {
    /// Replaces the stream's snapshot. Written in its own transaction, after the edit it
    /// follows was acknowledged: losing one costs a longer fold, never an edit.
    /// `derive` writes the stream's cache records in the same transaction (the caches kept
    /// with the snapshot: one commit, not two).
    public func putSnapshot(_ stream: UUID, version: UInt64, format: Int, data: Data,
                            derive: ((StreamCache) throws -> Void)? = nil) throws {
        try write { txn in
            try putSnapshot(stream, version: version, EventStore.SnapshotWrite(format: format, data: data), in: txn)
            try derive?(StreamCache(txn: txn, store: self, stream: stream, version: try self.version(of: stream, in: txn), writable: true))
            FailPoint.pass(FailPoint.duringSnapshot)
        }
    }

    func putSnapshot(_ stream: UUID, version: UInt64, _ snapshot: SnapshotWrite, in txn: Transaction) throws {
        let value = KeyEncoding.bigEndian(version) + withUnsafeBytes(of: UInt32(snapshot.format).bigEndian) { Array($0) } + Array(snapshot.data)
        try txn.put(snapshots, KeyEncoding.uuid(stream), value)
    }

    /// The stream's snapshot, if it has one that is not past the stream's end.
    public func snapshot(_ stream: UUID) throws -> Snapshot? {
        try env.read { txn in
            guard let snapshot = try storedSnapshot(stream, in: txn), snapshot.version <= (try version(of: stream, in: txn)) else { return nil }
            return snapshot
        }
    }

    /// The size of the stream's snapshot in bytes, without copying it (nil: none).
    public func snapshotSize(_ stream: UUID) throws -> Int? {
        try env.read { txn in try txn.get(snapshots, KeyEncoding.uuid(stream)).map { max(0, $0.count - 12) } }
    }

    /// The snapshot stored under `key`, as written (its version not yet checked against anything).
    private func storedSnapshot(_ key: UUID, in txn: Transaction) throws -> Snapshot? {
        guard let value = try txn.get(snapshots, KeyEncoding.uuid(key)), value.count >= 12,
              let version = KeyEncoding.uint64(Array(value[0..<8])) else { return nil }
        let format = Int(value[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        return Snapshot(version: version, format: format, data: Data(value[12...]))
    }

    // MARK: Projections of the whole log

    /// Replaces the snapshot of a projection over the whole log (`key` names it; `sequence`
    /// is the last global sequence it covers). A cache, in its own transaction.
    public func putLogSnapshot(_ key: UUID, sequence: UInt64, format: Int, data: Data) throws {
        try write { txn in
            try putSnapshot(key, version: sequence, EventStore.SnapshotWrite(format: format, data: data), in: txn)
            FailPoint.pass(FailPoint.duringSnapshot)
        }
    }

    /// The snapshot of a projection over the whole log, if it has one not past the log's end.
    public func logSnapshot(_ key: UUID) throws -> Snapshot? {
        try env.read { txn in
            guard let snapshot = try storedSnapshot(key, in: txn), snapshot.version <= (try lastSequence(in: txn)) else { return nil }
            return snapshot
        }
    }
}
