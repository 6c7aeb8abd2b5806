import Crypto
import Foundation

/// What `EventStore.verify()` found.
public struct VerifyReport: Sendable, Equatable {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The first bad log sequence, when the problem is in the log or its index.
        public var sequence: UInt64?
        /// The stream the problem is in, when it could be read.
        public var stream: UUID?
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
    /// Every problem met, in the order met, each once (at most `VerifyReport.listed`;
    /// `unlisted` counts the rest).
    public var problems: [Problem] = []
    public var unlisted = 0
    static let listed = 1_000

    /// The first problem met, or nil when the store is clean.
    public var problem: Problem? { problems.first }

    public var isClean: Bool { problems.isEmpty }

    mutating func note(_ sequence: UInt64?, _ reason: String, stream: UUID? = nil) {
        let problem = Problem(sequence: sequence, stream: stream, reason: reason)
        guard problems.count < Self.listed else { unlisted += 1; return }
        problems.append(problem)
    }
}

extension EventStore {
    /// Reads the whole store in one snapshot: every record's checksum, the log's sequences,
    /// the stream index both ways, every blob's hash and every claim's owner. It goes on past
    /// a problem: every one is reported, so that one does not hide the next.
    public func verify() throws -> VerifyReport {
        try env.read { txn in
            var report = VerifyReport()
            func fail(_ sequence: UInt64?, _ reason: String, stream: UUID? = nil) {
                report.note(sequence, reason, stream: stream)
            }
            do {
                if let format = try txn.get(meta, Array("format".utf8)) {
                    report.formatVersion = Int(String(decoding: format, as: UTF8.self)) ?? 0
                }
                // The log: contiguous sequences, sound records, each one indexed.
                var expected: UInt64 = 1
                var unreadable = 0
                // Where each unreadable record's problem is listed: the stream index, read
                // next, knows its true stream (the record's own bytes may be what is damaged).
                var unreadableProblems = [UInt64: Int]()
                try txn.scan(log) { key, value in
                    guard let sequence = KeyEncoding.uint64(key) else {
                        fail(expected, "a log key of \(key.count) bytes")
                        return true
                    }
                    if sequence != expected { fail(expected, "the log jumps from \(expected &- 1) to \(sequence)") }
                    expected = sequence &+ 1
                    let event: StoredEvent
                    do {
                        event = try EventRecord.decode(value, sequence: sequence, recordChecksum)
                    } catch let error as StoreError {
                        guard case let .damaged(_, reason) = error else { throw error }
                        // Its stream, if the envelope still says (the checksum covers all of it).
                        let listed = report.problems.count
                        fail(sequence, reason, stream: EventRecord.streamIfReadable(value, recordChecksum))
                        if report.problems.count > listed { unreadableProblems[sequence] = listed }
                        unreadable += 1
                        return true
                    }
                    if report.formatVersion >= 2 {
                        if try txn.get(ids, KeyEncoding.uuid(event.id)).flatMap(KeyEncoding.uint64) != sequence {
                            fail(sequence, "the event id index does not point at this event (\(event.id.uuidString.lowercased()))", stream: event.stream)
                        }
                    }
                    let indexed = try txn.get(streams, KeyEncoding.streamKey(event.stream, event.version))
                    if event.isPurged {
                        if indexed != nil { fail(sequence, "a purged event is still indexed", stream: event.stream) }
                        report.purged += 1
                    } else {
                        if indexed.flatMap(KeyEncoding.uint64) != sequence {
                            fail(sequence, "the stream index does not point at this event", stream: event.stream)
                        }
                        report.events += 1
                    }
                    return true
                }
                // The id index: one entry per logged event (each checked above to point at it).
                let idEntries = try txn.count(ids)
                if report.formatVersion >= 2, idEntries != report.events + report.purged + unreadable {
                    fail(nil, "the event id index has \(idEntries) entries for \(report.events + report.purged + unreadable) events")
                }
                // The stream index: versions from 1 without gaps, each pointing at a logged event.
                var current: UUID?
                var version: UInt64 = 0
                try txn.scan(streams) { key, value in
                    guard key.count == 24, let stream = KeyEncoding.uuid(Array(key[0..<16])),
                          let keyVersion = KeyEncoding.uint64(Array(key[16...])),
                          let sequence = KeyEncoding.uint64(value) else {
                        fail(nil, "a malformed stream index entry")
                        return true
                    }
                    if stream != current { current = stream; version = 0; report.streams += 1 }
                    if keyVersion != version + 1 {
                        fail(sequence, "stream \(stream.uuidString.lowercased()) jumps from version \(version) to \(keyVersion)", stream: stream)
                    }
                    version = keyVersion
                    guard let record = try txn.get(log, KeyEncoding.bigEndian(sequence)) else {
                        fail(sequence, "the stream index points at a missing event", stream: stream)
                        return true
                    }
                    // An unreadable record was reported with the log.
                    guard let event = try? record.withUnsafeBytes({ try EventRecord.decode($0, sequence: sequence, recordChecksum) }) else {
                        if let index = unreadableProblems[sequence], report.problems.indices.contains(index) {
                            report.problems[index].stream = stream
                        }
                        return true
                    }
                    if event.stream != stream || event.version != keyVersion {
                        fail(sequence, "the stream index entry does not match the event", stream: stream)
                    }
                    return true
                }
                // Blobs: the key is the hash of the bytes, and some stream uses it.
                try txn.scan(blobs) { key, value in
                    if !Array(SHA256.hash(data: value)).elementsEqual(key) {
                        fail(nil, "blob \(BlobHash.hex(key)) does not match its hash")
                    }
                    var used = false
                    try txn.scan(blobReferences, from: Array(key)) { ref, _ in
                        used = ref.count == 48 && ref.starts(with: key)
                        return false
                    }
                    if !used { fail(nil, "blob \(BlobHash.hex(key)) is referenced by no stream") }
                    report.blobs += 1
                    report.blobBytes += value.count
                    return true
                }
                // Blob references: each names a stored blob.
                try txn.scan(blobReferences) { key, _ in
                    let named = key.count == 48 ? try txn.get(blobs, Array(key[0..<32])) : nil
                    if named == nil {
                        fail(nil, "a blob reference names a missing blob \(BlobHash.hex(UnsafeRawBufferPointer(rebasing: key[0..<min(32, key.count)])))",
                             stream: key.count == 48 ? KeyEncoding.uuid(Array(key[32...])) : nil)
                    }
                    return true
                }
                // Claims: every owner is a stream with events.
                try txn.scan(claims) { key, value in
                    if let owner = KeyEncoding.uuid(Array(value)), try self.version(of: owner, in: txn) > 0 {} else {
                        fail(nil, "claim \"\(String(decoding: key, as: UTF8.self))\" has no owning stream")
                    }
                    report.claims += 1
                    return true
                }
            }
            return report
        }
    }
}
