import CLMDB
import Foundation
import MemeryCRC32C

/// Records kept beside one stream and derived from its events: an index that answers a
/// question without replaying them (a creation's history tree). A cache, never the truth:
/// each value carries a CRC32C and one that fails it reads as absent; whoever finds them
/// behind the stream (its `version` is what they are checked against) builds them again.
/// They live in the snapshots database under the stream's id and a key of the caller's (the
/// stream's snapshot is under the id alone), so a purge removes them with the stream and a
/// migration leaves them behind, as it does snapshots.
///
/// Valid only inside the transaction that handed it out: `EventStore.readCache`,
/// `EventStore.updateCache`, or an append's `StreamWrite.derive`.
public struct StreamCache {
    let txn: Transaction
    let store: EventStore
    public let stream: UUID
    /// The stream's version in this transaction (after the events of an append that derives).
    public let version: UInt64
    let writable: Bool

    /// The value under `key`, or nil when absent or damaged.
    public func get(_ key: [UInt8]) throws -> [UInt8]? {
        guard let stored = try txn.get(store.snapshots, fullKey(key)), stored.count >= 4 else { return nil }
        let body = stored.dropLast(4)
        let crc = body.withUnsafeBytes { memery_crc32c(0, $0.baseAddress, $0.count) }
        let kept = stored.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return crc == kept ? Array(body) : nil
    }

    /// Visits the stream's records in key order from the first key at or after `start`, while
    /// `body` returns true: each key without the stream's id, and its value in place (valid
    /// only during the call), or nil when it fails its checksum. Reading a range this way
    /// costs a step of a cursor a record, where `get` costs a lookup from the root.
    public func scan(from start: [UInt8], _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) throws -> Bool) throws {
        let prefix = KeyEncoding.uuid(stream)
        try txn.scan(store.snapshots, from: fullKey(start)) { key, stored in
            guard key.count > prefix.count, key.starts(with: prefix) else { return false }
            let suffix = UnsafeRawBufferPointer(rebasing: key[prefix.count...])
            guard stored.count >= 4 else { return try body(suffix, nil) }
            let value = UnsafeRawBufferPointer(rebasing: stored[..<(stored.count - 4)])
            let crc = memery_crc32c(0, value.baseAddress, value.count)
            let kept = UInt32(bigEndian: stored.loadUnaligned(fromByteOffset: stored.count - 4, as: UInt32.self))
            return try body(suffix, crc == kept ? value : nil)
        }
    }

    public func put(_ key: [UInt8], _ value: [UInt8]) throws {
        precondition(writable, "a stream's cache is written only in a write transaction")
        let crc = value.withUnsafeBytes { memery_crc32c(0, $0.baseAddress, $0.count) }
        try txn.put(store.snapshots, fullKey(key), value + withUnsafeBytes(of: crc.bigEndian) { Array($0) })
    }

    /// Removes every record of the stream's cache (its snapshot stays).
    public func removeAll() throws {
        precondition(writable, "a stream's cache is written only in a write transaction")
        try store.removeCache(of: stream, in: txn)
    }

    /// The stream's events stored at `count` consecutive global sequences from `sequence`,
    /// each checked against its checksum; one of another stream is damage.
    public func events(fromSequence sequence: UInt64, count: Int) throws -> [StoredEvent] {
        try (0..<UInt64(count)).map { offset in
            let event = try store.event(at: sequence + offset, in: txn)
            guard event.stream == stream else {
                throw StoreError.damaged(sequence: sequence + offset, reason: "an index of stream \(stream) points at another stream's event")
            }
            return event
        }
    }

    /// The stream's events from version `first` through `last`, checked.
    public func events(fromVersion first: UInt64, through last: UInt64) throws -> [StoredEvent] {
        try store.events(in: stream, fromVersion: first, in: txn).prefix { $0.version <= last }
    }

    private func fullKey(_ key: [UInt8]) -> [UInt8] {
        precondition(!key.isEmpty, "an empty key is the stream's snapshot")
        return KeyEncoding.uuid(stream) + key
    }
}

extension EventStore {
    /// Reads the stream's cache and events in one consistent snapshot of the store.
    public func readCache<T>(_ stream: UUID, _ body: (StreamCache) throws -> T) throws -> T {
        try env.read { txn in
            try body(StreamCache(txn: txn, store: self, stream: stream, version: try version(of: stream, in: txn), writable: false))
        }
    }

    /// Writes the stream's cache in a transaction of its own; `body` sees the stream's version
    /// in it and writes nothing when that is not the version it built for.
    public func updateCache(_ stream: UUID, _ body: (StreamCache) throws -> Void) throws {
        try write { txn in
            try body(StreamCache(txn: txn, store: self, stream: stream, version: try version(of: stream, in: txn), writable: true))
        }
    }

    func derive(_ write: StreamWrite, stored: [StoredEvent], in txn: Transaction) throws {
        guard let derive = write.derive, let last = stored.last?.version else { return }
        try derive(StreamCache(txn: txn, store: self, stream: write.stream, version: last, writable: true), stored)
    }

    /// Deletes every cache record of `stream`: the keys after its id, never the snapshot itself.
    func removeCache(of stream: UUID, in txn: Transaction) throws {
        let prefix = KeyEncoding.uuid(stream)
        var keys = [[UInt8]]()
        try txn.scan(snapshots, from: prefix + [0]) { key, _ in
            guard key.count > 16, key.starts(with: prefix) else { return false }
            keys.append(Array(key))
            return true
        }
        for key in keys { try txn.delete(snapshots, key) }
    }
}
