import Foundation
import Testing
@testable import MemeryStore

@Suite struct MultiStreamAndPurgeTests {
    @Test func appendToSeveralStreamsIsAllOrNothing() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = try EventStore(directory: dir.url)
        let a = UUID(), gallery = UUID()
        let stored = try store.append([
            .init(stream: a, expectedVersion: 0, events: [event("{}")]),
            .init(stream: gallery, expectedVersion: 0, events: [event(#"{"added":1}"#)]),
        ])
        #expect(stored.map(\.batch) == [1, 1])
        #expect(stored.map(\.version) == [1, 1])
        // One stale stream refuses the whole append.
        #expect(throws: StoreError.conflict(stream: gallery, expected: 0, actual: 1)) {
            try store.append([.init(stream: UUID(), expectedVersion: 0, events: [event("{}")]),
                              .init(stream: gallery, expectedVersion: 0, events: [event("{}")])])
        }
        #expect(try store.lastSequence() == 2)
        #expect(try store.verify().isClean)
    }

    @Test func purgeRemovesAStreamAndTheBlobsOnlyItUsed() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = try EventStore(directory: dir.url)
        let doomed = UUID(), kept = UUID()
        let own = Data("only the doomed stream has this".utf8), shared = Data("both use this".utf8)
        try store.append(to: doomed, expectedVersion: 0, events: [event(#"{"secret":"PURGE-ME"}"#), event("{}")],
                         blobs: [own, shared], claim: ["name:doomed"])
        try store.append(to: kept, expectedVersion: 0, events: [event("{}")], blobRefs: [BlobHash.of(shared)])
        try store.append(to: doomed, expectedVersion: 2, events: [event("{}")])

        let report = try store.purge(doomed)
        #expect(report == PurgeReport(events: 3, blobs: 1, blobBytes: own.count))
        #expect(try store.events(in: doomed).isEmpty)
        #expect(try store.version(of: doomed) == 0)
        #expect(try store.owner(ofClaim: "name:doomed") == nil)
        #expect(try store.blob(BlobHash.of(own)) == nil)
        #expect(try store.blob(BlobHash.of(shared)) == shared, "still used by another stream")
        #expect(try store.events(in: kept).count == 1)
        // The log keeps its numbering; the purged records say nothing of what they held.
        let log = try store.events()
        #expect(log.map(\.sequence) == [1, 2, 3, 4])
        #expect(log.filter(\.isPurged).count == 3)
        #expect(!log.contains { String(decoding: $0.payload, as: UTF8.self).contains("PURGE-ME") })
        let verify = try store.verify()
        #expect(verify.isClean, "\(String(describing: verify.problem))")
        #expect(verify.events == 1 && verify.purged == 3 && verify.blobs == 1)
        // The stream id can be used again from scratch.
        try store.append(to: doomed, expectedVersion: 0, events: [event("{}")])
    }

    @Test func referencingAMissingBlobIsRefused() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = try EventStore(directory: dir.url)
        let missing = String(repeating: "ab", count: 32)
        #expect(throws: StoreError.missingBlob(hash: missing)) {
            try store.append(to: UUID(), expectedVersion: 0, events: [event("{}")], blobRefs: [missing])
        }
        #expect(try store.lastSequence() == 0)
    }
}
