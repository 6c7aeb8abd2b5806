import Foundation
import Testing
@testable import MemeryStore

@Suite struct EventStoreTests {
    @Test func appendedEventsReadBackInStreamAndLogOrder() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = try EventStore(directory: dir.url)
        let a = UUID(), b = UUID()
        try store.append(to: a, expectedVersion: 0, events: [event(#"{"n":1}"#), event(#"{"n":2}"#)])
        try store.append(to: b, expectedVersion: 0, events: [event(#"{"n":3}"#)])
        try store.append(to: a, expectedVersion: 2, events: [event(#"{"n":4}"#)])

        let streamA = try store.events(in: a)
        #expect(streamA.map(\.version) == [1, 2, 3])
        #expect(streamA.map(\.sequence) == [1, 2, 4])
        #expect(streamA.map(\.batch) == [1, 1, 4], "events appended together share a batch")
        #expect(streamA.map { String(decoding: $0.payload, as: UTF8.self) } == [#"{"n":1}"#, #"{"n":2}"#, #"{"n":4}"#])
        #expect(try store.version(of: a) == 3)
        #expect(try store.version(of: b) == 1)
        #expect(try store.version(of: UUID()) == 0)
        #expect(try store.lastSequence() == 4)
        #expect(try store.events(from: 3).map(\.stream) == [b, a])
        #expect(try store.events(in: a, fromVersion: 3).map(\.sequence) == [4])
    }

    /// A record read in place (`forEachBorrowedEvent`) says what its copy says, field for field.
    @Test func aBorrowedRecordReadsAsItsCopy() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = try EventStore(directory: dir.url)
        let a = UUID(), b = UUID(), parent = UUID()
        try store.append(to: a, expectedVersion: 0, events: [event(#"{"n":1}"#), event(#"{"n":2}"#, type: "Ünïcødé type")])
        try store.append(to: b, expectedVersion: 0, events: [event(#"{"gone":true}"#)])
        try store.append(to: a, expectedVersion: 2, events: [NewEvent(parent: parent, type: "Edited", schemaVersion: 7,
                                                                      payload: Data(String(repeating: "x", count: 5_000).utf8))])
        _ = try store.purge([b])

        var borrowed = [StoredEvent](), typesInPlace = [String](), purged = [Bool]()
        try store.forEachBorrowedEvent { event in
            borrowed.append(event.stored())
            typesInPlace.append(String(decoding: event.typeUTF8, as: UTF8.self))
            purged.append(event.isPurged)
            #expect(event.batch == event.stored().batch && event.id == event.stored().id && event.parent == event.stored().parent)
            #expect(Data(event.payload) == event.stored().payload)
            return true
        }
        let copied = try store.events()
        #expect(borrowed == copied)
        #expect(copied.map(\.version) == [1, 2, 1, 3] && copied[2].isPurged)
        #expect(typesInPlace == copied.map(\.type) && purged == [false, false, true, false])
        #expect(copied[1].type == "Ünïcødé type" && copied[3].payload.count == 5_000)
        #expect(copied.map(\.parent) == [nil, nil, nil, parent] && copied.map(\.schemaVersion)[3] == 7)
        var stopped = [UInt64]()
        try store.forEachBorrowedEvent(from: 2) { stopped.append($0.sequence); return $0.sequence < 3 }
        #expect(stopped == [2, 3], "from a sequence, and only while asked")
    }

    @Test func eventsSurviveReopening() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let id = UUID()
        do {
            let store = try EventStore(directory: dir.url)
            try store.append(to: id, expectedVersion: 0, events: [event(#"{"kept":true}"#)])
        }
        let reopened = try EventStore(directory: dir.url)
        let events = try reopened.events(in: id)
        #expect(events.count == 1)
        #expect(events.first?.payload == Data(#"{"kept":true}"#.utf8))
        #expect(events.first?.type == "Noted")
    }

    @Test func staleExpectedVersionIsRefusedWithConflict() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = try EventStore(directory: dir.url)
        let id = UUID()
        try store.append(to: id, expectedVersion: 0, events: [event("{}")])
        #expect(throws: StoreError.conflict(stream: id, expected: 0, actual: 1)) {
            try store.append(to: id, expectedVersion: 0, events: [event("{}")])
        }
        #expect(throws: StoreError.conflict(stream: id, expected: 5, actual: 1)) {
            try store.append(to: id, expectedVersion: 5, events: [event("{}")])
        }
        #expect(try store.lastSequence() == 1)
    }

    @Test func blobIsStoredOnlyTogetherWithItsEvent() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = try EventStore(directory: dir.url)
        let id = UUID()
        try store.append(to: id, expectedVersion: 0, events: [event("{}")])
        let refused = Data("picture bytes that must not land".utf8)
        #expect(throws: StoreError.self) {
            try store.append(to: id, expectedVersion: 0, events: [event("{}")], blobs: [refused])
        }
        #expect(try store.blob(BlobHash.of(refused)) == nil)

        let accepted = Data("picture bytes".utf8)
        try store.append(to: id, expectedVersion: 1, events: [event("{}")], blobs: [accepted, accepted])
        #expect(try store.blob(BlobHash.of(accepted)) == accepted)
        #expect(try store.verify().blobs == 1)
    }

    @Test func claimHeldByAnotherStreamIsRefused() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = try EventStore(directory: dir.url)
        let first = UUID(), second = UUID()
        try store.append(to: first, expectedVersion: 0, events: [event("{}")], claim: ["name:cat"])
        #expect(throws: StoreError.claimTaken(claim: "name:cat", owner: first)) {
            try store.append(to: second, expectedVersion: 0, events: [event("{}")], claim: ["name:cat"])
        }
        #expect(try store.version(of: second) == 0)
        #expect(try store.owner(ofClaim: "name:cat") == first)
        // Released by its owner, the claim can be taken.
        try store.append(to: first, expectedVersion: 1, events: [event("{}")], release: ["name:cat"])
        try store.append(to: second, expectedVersion: 0, events: [event("{}")], claim: ["name:cat"])
        #expect(try store.owner(ofClaim: "name:cat") == second)
    }

    @Test func mapGrowsFromATinyMapAndKeepsEverything() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let tiny = 64 * 1024
        let id = UUID()
        var blobs = [Data]()
        do {
            let store = try EventStore(directory: dir.url, mapSize: tiny)
            for index in 0..<40 {
                let blob = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* (index + 7)) })
                blobs.append(blob)
                try store.append(to: id, expectedVersion: UInt64(index), events: [event(#"{"i":\#(index)}"#)], blobs: [blob])
            }
            #expect(store.mapSize > tiny)
        }
        let reopened = try EventStore(directory: dir.url, mapSize: tiny)
        #expect(try reopened.events(in: id).count == 40)
        for blob in blobs { #expect(try reopened.blob(BlobHash.of(blob)) == blob) }
        let report = try reopened.verify()
        #expect(report.isClean)
        #expect(report.events == 40)
        #expect(report.blobs == 40)
    }

    @Test func storeOfANewerFormatIsRefused() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        do {
            let store = try EventStore(directory: dir.url)
            try store.env.write { txn in try txn.put(store.meta, Array("format".utf8), Array(String(EventStore.formatVersion + 1).utf8)) }
        }
        #expect(throws: StoreError.newerFormat(found: EventStore.formatVersion + 1, supported: EventStore.formatVersion)) {
            _ = try EventStore(directory: dir.url)
        }
    }

    @Test func storeDirectoryThatIsAFileIsRefused() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let file = dir.url.appendingPathComponent("not-a-dir")
        try Data("x".utf8).write(to: file)
        do {
            _ = try EventStore(directory: file)
            Issue.record("opening a file as a store should fail")
        } catch let error as StoreError {
            #expect(error.description.contains("it is a file, not a directory"))
        }
    }
}

/// Store format 2: every event has an id, and an event appended again under its id (a sync
/// that retries after a lost answer) stores nothing and succeeds.
@Suite struct EventIdentityTests {
    @Test func anEventAppendedAgainUnderItsIDStoresNothingAndAnswersAsStored() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = try EventStore(directory: dir.url)
        let stream = UUID(), parent = UUID()
        let events = [NewEvent(parent: parent, type: "A", schemaVersion: 1, payload: Data("{\"n\":1}".utf8)),
                      NewEvent(parent: parent, type: "B", schemaVersion: 1, payload: Data("{\"n\":2}".utf8))]
        let first = try store.append(to: stream, expectedVersion: 0, events: events)
        #expect(first.map(\.id) == events.map(\.id))
        #expect(first.allSatisfy { $0.parent == parent })
        // Again, with the version it was decided against then (stale now): the same answer.
        let again = try store.append(to: stream, expectedVersion: 0, events: events)
        #expect(again == first)
        #expect(try store.lastSequence() == 2)
        #expect(try store.event(id: events[1].id)?.sequence == 2)
        // Read back from the log: the ids and parent survive the record's encoding.
        let read = try store.events(in: stream)
        #expect(read.map(\.id) == events.map(\.id) && read.map(\.parent) == [parent, parent])
        #expect(try store.verify().isClean)
    }

    @Test func aDifferentEventUnderAStoredIDIsRefusedAndNothingIsStored() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = try EventStore(directory: dir.url)
        let stream = UUID()
        let event = NewEvent(type: "A", schemaVersion: 1, payload: Data("{}".utf8))
        try store.append(to: stream, expectedVersion: 0, events: [event])
        // The stored one and a new one in one write: partly stored cannot be.
        let fresh = NewEvent(type: "B", schemaVersion: 1, payload: Data("{}".utf8))
        #expect(throws: StoreError.duplicateEventID(event.id)) {
            try store.append(to: stream, expectedVersion: 1, events: [event, fresh])
        }
        // The same id on another stream.
        #expect(throws: StoreError.duplicateEventID(event.id)) {
            try store.append(to: UUID(), expectedVersion: 0, events: [event])
        }
        #expect(try store.lastSequence() == 1)
        #expect(try store.event(id: fresh.id) == nil)
    }

    /// New ids are time-ordered (UUID version 7), so the id index grows at its end.
    @Test func newIDsAreVersionSevenAndOrderedByTime() {
        let earlier = EventIdentity.newID(now: Date(timeIntervalSince1970: 1_800_000_000))
        let later = EventIdentity.newID(now: Date(timeIntervalSince1970: 1_800_000_000.002))
        #expect(earlier.uuidString.lowercased().split(separator: "-")[2].hasPrefix("7"))
        #expect(KeyEncoding.uuid(earlier).lexicographicallyPrecedes(KeyEncoding.uuid(later)))
        #expect(earlier.uuidString.hasPrefix("01A3185C-5000"), "the milliseconds lead: \(earlier)")
        // A format-1 event's id is derived, the same in every copy of the store.
        let stream = UUID()
        #expect(EventIdentity.formatOneID(stream: stream, version: 3) == EventIdentity.formatOneID(stream: stream, version: 3))
        #expect(EventIdentity.formatOneID(stream: stream, version: 3) != EventIdentity.formatOneID(stream: stream, version: 4))
    }

    /// The random bits are read ahead from the kernel in pages: ids of different milliseconds,
    /// across several refills, each take fresh bits, and every one of the 74 varies.
    @Test func idsAcrossRefillsTakeFreshRandomBits() {
        let start = 1_800_000_000.0
        let ids = (0..<2_000).map { EventIdentity.newID(now: Date(timeIntervalSince1970: start + Double($0) / 1000 + 0.0004)) }
        #expect(Set(ids).count == ids.count)
        let malformed = ids.map { KeyEncoding.uuid($0) }.filter { $0[6] >> 4 != 7 || $0[8] >> 6 != 0b10 }
        #expect(malformed.isEmpty, "version 7 and the RFC variant in every id")
        // Every random bit varies somewhere: none is stuck at 0 or 1 (74 bits: 12 + 62).
        let randomBits = ids.map { KeyEncoding.uuid($0) }.map { b -> (UInt16, UInt64) in
            (UInt16(b[6] & 0x0f) << 8 | UInt16(b[7]), b[8...15].reduce(0) { $0 << 8 | UInt64($1) } & (1 << 62 - 1))
        }
        #expect(randomBits.reduce(0) { $0 | $1.0 } == 0x0fff && randomBits.reduce(0x0fff) { $0 & $1.0 } == 0)
        #expect(randomBits.reduce(0) { $0 | $1.1 } == 1 << 62 - 1 && randomBits.reduce(1 << 62 - 1) { $0 & $1.1 } == 0)
    }

    /// Within one millisecond ids rise (a batch's ids go into the id index as appends), by
    /// a random step; past the last value of the 62 low bits the 12 high ones carry, and past
    /// all 74 the bits are fresh. The generator itself, since other tests mint ids meanwhile.
    @Test func idsOfOneMillisecondRise() {
        var words = EventIdentity.RandomWords()
        let millis: UInt64 = 1_800_000_000_000
        let parts = (0..<2_000).map { _ in words.randomPart(inMillisecond: millis) }
        let rising = zip(parts, parts.dropFirst()).allSatisfy { ($0.high, $0.low) < ($1.high, $1.low) }
        #expect(rising, "each id of the millisecond above the one before")
        let steps = zip(parts, parts.dropFirst()).map { $1.low &- $0.low }
        #expect(steps.allSatisfy { $0 >= 1 && $0 <= 1 << 32 } && Set(steps).count > 1_990, "random steps of 1 to 2^32")
        #expect(parts.allSatisfy { $0.high <= 0x0fff && $0.low <= EventIdentity.RandomWords.lowBits })
        // The next millisecond starts afresh, not a step above the last id (by chance: 2^-42).
        let next = words.randomPart(inMillisecond: millis + 1), last = parts.last!
        #expect(!(next.high == last.high && next.low > last.low && next.low - last.low <= 1 << 32))
        // Past the low bits' end the high bits carry; past the end of both, fresh bits (no trap).
        words.last = (millis, 7, EventIdentity.RandomWords.lowBits)
        let carried = words.randomPart(inMillisecond: millis)
        #expect(carried.high == 8 && carried.low < 1 << 32)
        words.last = (millis, 0x0fff, EventIdentity.RandomWords.lowBits)
        let afresh = words.randomPart(inMillisecond: millis)
        #expect(afresh.high <= 0x0fff && afresh.low <= EventIdentity.RandomWords.lowBits)
    }

    @Test func verifyFindsAnEventMissingFromTheIDIndex() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let store = try EventStore(directory: dir.url)
        let event = NewEvent(type: "A", schemaVersion: 1, payload: Data("{}".utf8))
        try store.append(to: UUID(), expectedVersion: 0, events: [event])
        try store.env.write { txn in _ = try txn.delete(store.ids, KeyEncoding.uuid(event.id)) }
        let report = try store.verify()
        #expect(report.problem?.sequence == 1)
        #expect(report.problem?.reason.contains("event id index") == true, "\(String(describing: report.problem))")
    }
}
