import Foundation
import Testing
@testable import MemeryStore

@Suite struct VerifyTests {
    @Test func cleanStoreVerifiesWithCounts() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = try EventStore(directory: dir.url)
        try store.append(to: UUID(), expectedVersion: 0, events: [event("{}"), event("{}")],
                         blobs: [Data("b".utf8)], claim: ["k"])
        let report = try store.verify()
        #expect(report.isClean)
        #expect(report.events == 2)
        #expect(report.streams == 1)
        #expect(report.blobs == 1)
        #expect(report.claims == 1)
        #expect(report.formatVersion == 3)
    }

    /// Writes three events, the second carrying a marker, then flips one byte of the
    /// marker in a copy of data.mdb.
    private func damagedCopy() throws -> (TemporaryDirectory, UUID) {
        let original = try TemporaryDirectory(); defer { original.cleanup() }
        let id = UUID()
        do {
            let store = try EventStore(directory: original.url)
            try store.append(to: id, expectedVersion: 0, events: [event(#"{"a":1}"#)])
            try store.append(to: id, expectedVersion: 1, events: [event(#"{"marker":"FLIP-ME-PLEASE"}"#)])
            try store.append(to: id, expectedVersion: 2, events: [event(#"{"a":3}"#)])
            #expect(try store.verify().isClean)
        }
        let copy = try TemporaryDirectory()
        var bytes = try Data(contentsOf: original.url.appendingPathComponent("data.mdb"))
        let marker = Data("FLIP-ME-PLEASE".utf8)
        // LMDB's copy-on-write may leave stale copies of the page: flip every one.
        var flipped = 0
        var searchFrom = bytes.startIndex
        while let range = bytes.range(of: marker, in: searchFrom..<bytes.endIndex) {
            bytes[range.lowerBound + 5] ^= 0x20
            flipped += 1
            searchFrom = range.upperBound
        }
        #expect(flipped >= 1)
        try bytes.write(to: copy.url.appendingPathComponent("data.mdb"))
        return (copy, id)
    }

    @Test func flippedByteInACopyIsFoundByVerify() throws {
        let (copy, _) = try damagedCopy(); defer { copy.cleanup() }
        let report = try EventStore(directory: copy.url).verify()
        #expect(!report.isClean)
        #expect(report.problem?.sequence == 2)
        #expect(report.problem?.reason == "checksum mismatch")
    }

    @Test func readingADamagedEventThrowsInsteadOfReturningIt() throws {
        let (copy, id) = try damagedCopy(); defer { copy.cleanup() }
        let store = try EventStore(directory: copy.url)
        #expect(throws: StoreError.damaged(sequence: 2, reason: "checksum mismatch")) {
            _ = try store.events(in: id)
        }
    }
}
