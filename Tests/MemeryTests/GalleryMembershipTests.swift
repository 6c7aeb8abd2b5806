import Foundation
@_spi(Tools) @testable import Memery
import MemeryCore
import MemeryLocks
import MemeryStore
import MemeryTestSupport
import Testing

/// Each creation's place in the gallery lives in its own membership stream.
@Suite struct GalleryMembershipTests {
    @Test func galleryChangesTouchOnlyTheCreationsOwnStream() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        let a = try workspace.create(name: "a", canvasWidth: 8, height: 8, background: .white).id
        let b = try workspace.create(name: "b", canvasWidth: 8, height: 8, background: .white).id
        try workspace.create(name: "c", canvasWidth: 8, height: 8, background: .white)
        try workspace.rename("a", to: "A2")
        try workspace.setFavorite("b", true)
        try workspace.move("b", to: 3)
        try workspace.trash("c")
        let store = workspace.eventStore
        #expect(try store.version(of: WellKnownStreams.gallery) == 0, "no shared gallery stream is written")
        #expect(try store.version(of: GalleryIndex.membershipStream(of: a)) == 2, "added, renamed")
        #expect(try store.version(of: GalleryIndex.membershipStream(of: b)) == 3, "added, favourite, placed")
        #expect(GalleryIndex.membershipStream(of: a) == GalleryIndex.membershipStream(of: a) && GalleryIndex.membershipStream(of: a) != a)
        let gallery = try Workspace(directory: dir.url).gallery()
        #expect(gallery.entries.map(\.name) == ["A2", "b"] && gallery.trash.map(\.name) == ["c"])
        #expect(gallery.all == (try workspace.galleryIndex.replay()).all)
    }

    /// Two workspaces on one store (two processes) make creations at once: neither waits
    /// for nor conflicts with the other, and both see every creation.
    @Test func creationsMadeAtOnceInTwoProcessesNeverConflict() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let one = try Workspace(directory: dir.url), two = try Workspace(directory: dir.url)
        _ = try one.gallery()  // both follow the log from here
        _ = try two.gallery()
        let failures = Locked([String]())
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            do {
                for n in 0..<40 { try [one, two][index].create(name: "w\(index)-\(n)", canvasWidth: 4, height: 4, background: .white) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        for workspace in [one, two] { #expect(try workspace.gallery().count == 80) }
        #expect(try one.gallery().all == (try two.galleryIndex.replay()).all)
        // Each process's creations in the order it made them.
        let names = try one.gallery().entries.map(\.name)
        for index in 0..<2 {
            let mine = names.filter { $0.hasPrefix("w\(index)-") }
            #expect(mine == (0..<40).map { "w\(index)-\($0)" })
        }
    }

    /// The same event appended again (a sync that retried) changes nothing.
    @Test func aMembershipEventSentTwiceIsStoredOnce() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        let id = try workspace.create(name: "once", canvasWidth: 4, height: 4, background: .white).id
        let stream = GalleryIndex.membershipStream(of: id)
        let stored = try workspace.eventStore.events(in: stream)
        let again = stored.map { NewEvent(id: $0.id, parent: $0.parent, type: $0.type, schemaVersion: $0.schemaVersion, payload: $0.payload) }
        let answer = try workspace.eventStore.append(to: stream, expectedVersion: 0, events: again)
        #expect(answer.map(\.sequence) == stored.map(\.sequence))
        #expect(try workspace.eventStore.version(of: stream) == 1 && (try workspace.gallery().count) == 1)
    }
}
