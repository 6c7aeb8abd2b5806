import Crypto
import Foundation

/// What `EventStore.verify()` found.
public struct VerifyReport: Sendable, Equatable {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The first bad log sequence, when the problem is in the log or its index.
        public var sequence: UInt64?
        public var reason: String
        public var description: String {
            sequence.map { "sequence \($0): \(reason)" } ?? reason
        }
    }

    public var events = 0
    /// Tombstones of purged events: their place in the log, nothing else.
    public var purged = 0
    public var streams = 0
    public var blobs = 0
    public var blobBytes = 0
    public var claims = 0
    public var formatVersion = 0
    /// The first problem met, or nil when the store is clean.
    public var problem: Problem?

    public var isClean: Bool { problem == nil }
}

extension EventStore {
    /// Reads the whole store in one snapshot: every record's checksum, the log's sequences,
    /// the stream index both ways, every blob's hash and every claim's owner.
    public func verify() throws -> VerifyReport {
        try env.read { txn in
            var report = VerifyReport()
            func fail(_ sequence: UInt64?, _ reason: String) throws -> Never {
                report.problem = .init(sequence: sequence, reason: reason)
                throw VerifyStop()
            }
            do {
                if let format = try txn.get(meta, Array("format".utf8)) {
                    report.formatVersion = Int(String(decoding: format, as: UTF8.self)) ?? 0
                }
                // The log: contiguous sequences, sound records, each one indexed.
                var expected: UInt64 = 1
                try txn.scan(log) { key, value in
                    guard let sequence = KeyEncoding.uint64(key) else { try fail(expected, "a log key of \(key.count) bytes") }
                    guard sequence == expected else { try fail(expected, "the log jumps from \(expected - 1) to \(sequence)") }
                    let event: StoredEvent
                    do {
                        event = try EventRecord.decode(value, sequence: sequence)
                    } catch let error as StoreError {
                        if case let .damaged(_, reason) = error { try fail(sequence, reason) }
                        throw error
                    }
                    if report.formatVersion >= 2 {
                        guard try txn.get(ids, KeyEncoding.uuid(event.id)).flatMap(KeyEncoding.uint64) == sequence else {
                            try fail(sequence, "the event id index does not point at this event (\(event.id.uuidString.lowercased()))")
                        }
                    }
                    let indexed = try txn.get(streams, KeyEncoding.streamKey(event.stream, event.version))
                    if event.isPurged {
                        guard indexed == nil else { try fail(sequence, "a purged event is still indexed") }
                        report.purged += 1
                    } else {
                        guard indexed.flatMap(KeyEncoding.uint64) == sequence else {
                            try fail(sequence, "the stream index does not point at this event")
                        }
                        report.events += 1
                    }
                    expected += 1
                    return true
                }
                // The id index: one entry per logged event (each checked above to point at it).
                let idEntries = try txn.count(ids)
                if report.formatVersion >= 2, idEntries != report.events + report.purged {
                    try fail(nil, "the event id index has \(idEntries) entries for \(report.events + report.purged) events")
                }
                // The stream index: versions from 1 without gaps, each pointing at a logged event.
                var current: UUID?
                var version: UInt64 = 0
                try txn.scan(streams) { key, value in
                    guard key.count == 24, let stream = KeyEncoding.uuid(Array(key[0..<16])),
                          let keyVersion = KeyEncoding.uint64(Array(key[16...])),
                          let sequence = KeyEncoding.uint64(value) else {
                        try fail(nil, "a malformed stream index entry")
                    }
                    if stream != current { current = stream; version = 0; report.streams += 1 }
                    guard keyVersion == version + 1 else {
                        try fail(sequence, "stream \(stream.uuidString.lowercased()) jumps from version \(version) to \(keyVersion)")
                    }
                    version = keyVersion
                    guard let record = try txn.get(log, KeyEncoding.bigEndian(sequence)) else {
                        try fail(sequence, "the stream index points at a missing event")
                    }
                    let event = try record.withUnsafeBytes { try EventRecord.decode($0, sequence: sequence) }
                    guard event.stream == stream, event.version == keyVersion else {
                        try fail(sequence, "the stream index entry does not match the event")
                    }
                    return true
                }
                // Blobs: the key is the hash of the bytes, and some stream uses it.
                try txn.scan(blobs) { key, value in
                    guard Array(SHA256.hash(data: value)).elementsEqual(key) else {
                        try fail(nil, "blob \(BlobHash.hex(key)) does not match its hash")
                    }
                    var used = false
                    try txn.scan(blobReferences, from: Array(key)) { ref, _ in
                        used = ref.count == 48 && ref.starts(with: key)
                        return false
                    }
                    guard used else { try fail(nil, "blob \(BlobHash.hex(key)) is referenced by no stream") }
                    report.blobs += 1
                    report.blobBytes += value.count
                    return true
                }
                // Blob references: each names a stored blob.
                try txn.scan(blobReferences) { key, _ in
                    guard key.count == 48, try txn.get(blobs, Array(key[0..<32])) != nil else {
                        try fail(nil, "a blob reference names a missing blob \(BlobHash.hex(UnsafeRawBufferPointer(rebasing: key[0..<min(32, key.count)])))")
                    }
                    return true
                }
                // Claims: every owner is a stream with events.
                try txn.scan(claims) { key, value in
                    guard let owner = KeyEncoding.uuid(Array(value)), try self.version(of: owner, in: txn) > 0 else {
                        try fail(nil, "claim \"\(String(decoding: key, as: UTF8.self))\" has no owning stream")
                    }
                    report.claims += 1
                    return true
                }
            } catch is VerifyStop {
            }
            return report
        }
    }
}

private struct VerifyStop: Error {}
