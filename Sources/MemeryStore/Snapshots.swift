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
    public func putSnapshot(_ stream: UUID, version: UInt64, format: Int, data: Data) throws {
        try write { txn in
            try putSnapshot(stream, version: version, EventStore.SnapshotWrite(format: format, data: data), in: txn)
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
            guard let value = try txn.get(snapshots, KeyEncoding.uuid(stream)), value.count >= 12,
                  let version = KeyEncoding.uint64(Array(value[0..<8])) else { return nil }
            let format = Int(value[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            guard version <= (try self.version(of: stream, in: txn)) else { return nil }
            return Snapshot(version: version, format: format, data: Data(value[12...]))
        }
    }

    // MARK: Rows

    /// Replaces the stream's snapshot together with rows of it that can be read one at a
    /// time (key: the stream id + the row's id), all in one transaction, so the rows always
    /// reflect the snapshot's version: `rows` are written, `removedRows` deleted, others kept.
    public func putSnapshot(_ stream: UUID, version: UInt64, format: Int, data: Data,
                            rows: [(id: UUID, data: Data)], removedRows: [UUID]) throws {
        try write { txn in
            try putSnapshot(stream, version: version, EventStore.SnapshotWrite(format: format, data: data), in: txn)
            for row in rows { try txn.put(snapshots, KeyEncoding.uuid(stream) + KeyEncoding.uuid(row.id), Array(row.data)) }
            for id in removedRows { try txn.delete(snapshots, KeyEncoding.uuid(stream) + KeyEncoding.uuid(id)) }
            FailPoint.pass(FailPoint.duringSnapshot)
        }
    }

    /// One row of the stream's snapshot and the events after the snapshot, read together:
    /// what a point lookup folds. Nil when the stream has no snapshot.
    public func snapshotRow(_ stream: UUID, row: UUID) throws -> (version: UInt64, format: Int, row: Data?, tail: [StoredEvent])? {
        try env.read { txn in
            guard let header = try txn.get(snapshots, KeyEncoding.uuid(stream), prefix: 12),
                  let version = KeyEncoding.uint64(Array(header[0..<8])) else { return nil }
            let format = Int(header[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            guard version <= (try self.version(of: stream, in: txn)) else { return nil }
            let data = try txn.get(snapshots, KeyEncoding.uuid(stream) + KeyEncoding.uuid(row)).map { Data($0) }
            return (version, format, data, try events(in: stream, fromVersion: version + 1, in: txn))
        }
    }
}
