import Foundation

/// What `EventStore.purge` removed.
public struct PurgeReport: Sendable, Equatable {
    public var events = 0
    public var blobs = 0
    public var blobBytes = 0
}

extension StoredEvent {
    /// The type a purged event's record keeps: its place in the log, nothing of its content.
    public static let purgedType = "$purged"
    public var isPurged: Bool { type == Self.purgedType }
}

extension EventStore {
    /// Removes streams for good — the one place data leaves the store. Their events become
    /// tombstones that keep only their place in the log (so sequences stay contiguous) and
    /// their ids (so an event sent again by a sync stays gone), its
    /// index entries, claims and blob references go, and every blob no other stream
    /// references is deleted. One transaction: all of it or none.
    /// `alsoAppend` is appended in the same transaction (the gallery's note of the purge).
    @discardableResult
    public func purge(_ streams: [UUID], alsoAppend writes: [StreamWrite] = []) throws -> PurgeReport {
        try write { txn in
            if let first = writes.first {
                _ = try append(writes, blobs: [], blobRefs: [], claim: [], release: [], owner: first.stream, now: Date(), in: txn)
            }
            var report = PurgeReport()
            for stream in streams { try purge(stream, into: &report, in: txn) }
            return report
        }
    }

    @discardableResult
    public func purge(_ stream: UUID, alsoAppend writes: [StreamWrite] = []) throws -> PurgeReport {
        try purge([stream], alsoAppend: writes)
    }

    private func purge(_ stream: UUID, into report: inout PurgeReport, in txn: Transaction) throws {
        let prefix = KeyEncoding.uuid(stream)
        var entries = [(key: [UInt8], sequence: UInt64)]()
        try txn.scan(streams, from: KeyEncoding.streamKey(stream, 0)) { key, value in
            guard key.count == 24, key.starts(with: prefix) else { return false }
            if let sequence = KeyEncoding.uint64(value) { entries.append((Array(key), sequence)) }
            return true
        }
        for entry in entries {
            let old = try event(at: entry.sequence, in: txn)
            let tombstone = StoredEvent(sequence: old.sequence, batch: old.batch, stream: stream, version: old.version,
                                        id: old.id, parent: old.parent, type: StoredEvent.purgedType, schemaVersion: 0, timeMilliseconds: old.timeMilliseconds,
                                        payload: Data("{}".utf8), checksum: RecordChecksum())
            try txn.put(log, KeyEncoding.bigEndian(entry.sequence), try EventRecord.encode(tombstone, recordChecksum))
            try txn.delete(streams, entry.key)
            report.events += 1
        }
        var heldClaims = [[UInt8]]()
        try txn.scan(claims) { key, value in
            if Array(value) == prefix { heldClaims.append(Array(key)) }
            return true
        }
        for claim in heldClaims { try txn.delete(claims, claim) }
        try txn.delete(snapshots, prefix)
        try removeCache(of: stream, in: txn)

        var referenced = [[UInt8]]()
        try txn.scan(blobReferences) { key, _ in
            if key.count == 48, Array(key[32...]) == prefix { referenced.append(Array(key[0..<32])) }
            return true
        }
        for hash in referenced {
            try txn.delete(blobReferences, hash + prefix)
            var stillUsed = false
            try txn.scan(blobReferences, from: hash) { key, _ in
                stillUsed = key.count == 48 && key.starts(with: hash)
                return false
            }
            if !stillUsed, let bytes = try txn.get(blobs, hash) {
                try txn.delete(blobs, hash)
                report.blobs += 1
                report.blobBytes += bytes.count
            }
        }
    }
}
