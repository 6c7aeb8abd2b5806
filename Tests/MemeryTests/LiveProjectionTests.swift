import Foundation
@testable import Memery
import MemeryCore
@testable import MemeryStore
import MemeryTestSupport
import Testing

/// A long-lived workspace keeps its projections and follows the global log; undo, redo and
/// checkout leave a state that opens without replaying the tree.
@Suite struct LiveProjectionTests {
    /// Two workspaces on one store stand for two processes: what one appends, the other's
    /// cached gallery, garage, templates and heads pick up by following the log.
    @Test func cachedProjectionsFollowWhatOthersAppend() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let server = try Workspace(directory: dir.url), other = try Workspace(directory: dir.url)
        try server.create(name: "a", canvasWidth: 40, height: 30, background: .white)
        #expect(try server.creation(named: "a").textLayers.isEmpty)  // cached now
        #expect(try server.gallery().count == 1)
        #expect(try server.templates().all.isEmpty)

        try other.setCaptions("a", top: "from elsewhere", bottom: nil)
        try other.create(name: "b", canvasWidth: 40, height: 30, background: .white)
        try other.rename("b", to: "bee")
        try other.saveTemplate(from: "a", as: "t")
        #expect(try server.creation(named: "a").textLayers.map(\.text?.text) == ["from elsewhere"])
        #expect(try server.gallery().entries.map(\.name) == ["a", "bee"])
        #expect(try server.templates().all.map(\.name) == ["t"])

        // What the cache holds equals a fresh read after every kind of change.
        try other.undo("a")
        try other.trash("bee")
        #expect(try server.head(of: "a") == (try Workspace(directory: dir.url).creations.readHead(try server.entry(named: "a").id).head).named("a"))
        #expect(try server.gallery() == (try server.galleryIndex.replay()))
    }

    /// A purge elsewhere and a damaged record elsewhere, met while following the log with
    /// heads cached: the cache answers as a fresh read of the store does. The purged
    /// creation is gone from the gallery and its head with it; the damaged one is named as
    /// damaged, not answered from the head cached before the damage.
    @Test func aPurgeOrADamagedRecordMetWhileFollowingAnswersAsAFreshRead() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let server = try Workspace(directory: dir.url), other = try Workspace(directory: dir.url)
        for name in ["a", "b", "c"] { try server.create(name: name, canvasWidth: 40, height: 30, background: .white) }
        for name in ["a", "b", "c"] { _ = try server.head(of: name) }  // cached now
        #expect(try server.gallery().count == 3)
        let purged = try server.entry(named: "b")

        try other.setCaptions("a", top: "after the purge", bottom: nil)
        _ = try other.purge("b")
        try other.setCaptions("c", top: "kept", bottom: nil)
        #expect(try server.gallery().entries.map(\.name) == ["a", "c"])
        #expect(throws: (any Error).self) { try server.head(of: "b") }
        // Asked by its entry from before the purge: what a fresh read gives (the stream is
        // empty now), not the head cached before the purge.
        let byEntry = try? server.head(of: purged)
        #expect(byEntry == (try? Workspace(directory: dir.url).head(of: purged)) && byEntry?.state.canvas == nil, "\(String(describing: byEntry))")
        #expect(try server.head(of: "a").state.textLayers.map(\.text?.text) == ["after the purge"])
        #expect(try server.head(of: "c").state.textLayers.map(\.text?.text) == ["kept"])

        // One byte of a caption's record changed where it lies (the checksum no longer matches).
        try other.setCaptions("a", top: "DAMAGED-MARKER-TEXT", bottom: nil)
        let file = try FileHandle(forUpdating: dir.url.appendingPathComponent("data.mdb"))
        defer { try? file.close() }
        let bytes = try Data(contentsOf: dir.url.appendingPathComponent("data.mdb"))
        let marker = try #require(bytes.range(of: Data("DAMAGED-MARKER-TEXT".utf8)))
        try #require(bytes[marker.upperBound...].range(of: Data("DAMAGED-MARKER-TEXT".utf8)) == nil, "the text is in the file once: its record")
        try file.seek(toOffset: UInt64(marker.lowerBound - bytes.startIndex + 3))
        try file.write(contentsOf: Data([bytes[marker.lowerBound + 3] ^ 0x01]))
        try file.synchronize()

        let fresh = try Workspace(directory: dir.url)
        for reader in [server, fresh] {
            let damaged = #expect(throws: (any Error).self) { try reader.head(of: "a") }
            #expect(String(describing: damaged).contains("damaged"), "\(String(describing: damaged))")
            #expect(try reader.head(of: "c").state.textLayers.map(\.text?.text) == ["kept"])
        }
        #expect(try server.gallery() == (try fresh.gallery()))
    }

    /// After undo, redo and checkout of a small state the store holds a snapshot at the
    /// stream's end, so the next reader folds nothing and never replays the tree.
    @Test func headMovesStoreTheStateTheyLeadTo() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        let id = try workspace.create(name: "m", canvasWidth: 40, height: 30, background: .white).id
        for n in 1...5 { try workspace.setCaptions("m", top: "edit \(n)", bottom: nil) }
        for move in [{ try workspace.undo("m", steps: 2) }, { try workspace.redo("m") }, { try workspace.checkout("m", event: 3) }] {
            let history = try move()
            let snapshot = try #require(try workspace.store.snapshot(id))
            #expect(snapshot.version == history.streamVersion, "a move's snapshot is at the stream's end")
            let stored = try #require(CreationHead.decoded(snapshot.data))
            #expect(stored.state.textLayers.map(\.text?.text) == history.state.textLayers.map(\.text?.text))
            #expect(try Workspace(directory: dir.url).head(of: "m") == CreationHead(history))
        }
    }

    /// A creation of 200 text layers, whose state is about 100 KiB of JSON: past the size a
    /// move stores as the snapshot.
    static func largeCreation(_ name: String, in workspace: Workspace) throws -> UUID {
        let id = try workspace.create(name: name, canvasWidth: 400, height: 300, background: .white).id
        let session = try workspace.session(name)
        for n in 0..<200 { try session.edit(.addText(role: .free, text: "layer \(n) " + String(repeating: "w", count: 150), box: nil, style: .init())) }
        return id
    }

    /// A move to a large state (here about 100 KiB of JSON) writes the history index, not a
    /// snapshot: the next reader opens the head from the index (no replay) and renews the
    /// snapshot there, so that the reader after it folds nothing.
    @Test func movesOfALargeStateAreOpenedFromTheHistoryIndex() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        let id = try Self.largeCreation("m", in: workspace)
        for move in [{ try workspace.undo("m", steps: 2) }, { try workspace.redo("m") }, { try workspace.checkout("m", event: 190) }] {
            let history = try move()
            #expect(try workspace.store.snapshot(id)?.version != history.streamVersion, "a move writes no snapshot of a large state")
            let reader = try Workspace(directory: dir.url)
            #expect(try reader.head(of: "m") == CreationHead(history))
            #expect(reader.histories.statistics.built == 0, "opened from the index, not replayed")
            let snapshot = try #require(try workspace.store.snapshot(id))
            #expect(snapshot.version == history.streamVersion, "the reader renewed the snapshot at the stream's end")
            #expect(snapshot.data.count > 64 * 1024)
            #expect(try #require(CreationHead.decoded(snapshot.data)).state == history.state)
        }
    }

    /// A long-lived process (memery serve, a hub's working copy) keeps the large head its own
    /// move led to: its next read neither opens it again from the index nor renews the
    /// snapshot there, and it is the head a new process opens.
    @Test func aLongLivedProcessKeepsTheLargeHeadItMovedTo() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let server = try Workspace(directory: dir.url)
        let id = try Self.largeCreation("m", in: server)
        #expect(try server.head(of: "m").state.layers.count == 200)  // held, as a server holds it
        for (edit, layers) in [(Edit.undo(steps: 2), 198), (.redo(branch: nil), 199), (.checkout(.event(190)), nil)] {
            let result = try server.perform(edit, on: "m")
            let snapshot = try server.store.snapshot(id)?.version
            let head = try server.head(of: "m")
            #expect(try server.store.snapshot(id)?.version == snapshot, "\(edit): not opened again, so no snapshot renewed")
            #expect(head.streamVersion == result.version && (layers.map { head.state.layers.count == $0 } ?? true))
            #expect(head == (try Workspace(directory: dir.url).head(of: "m")), "what a new process opens from the index")
        }
        // An edit after the move folds onto the kept head, as after any edit.
        try server.perform(.captions(top: "after", bottom: nil), on: "m")
        #expect(try server.head(of: "m") == (try Workspace(directory: dir.url).head(of: "m")))

        // Another process's edit after a move: the server's next read has it.
        try server.perform(.undo(steps: 1), on: "m")
        try Workspace(directory: dir.url).perform(.captions(top: "from elsewhere", bottom: nil), on: "m")
        #expect(try server.head(of: "m").state.caption(.top)?.text?.text == "from elsewhere")
        #expect(try server.head(of: "m") == (try Workspace(directory: dir.url).head(of: "m")))

        // A process that held nothing before its move (a one-shot command's) keeps the head
        // without reading the log, and still reads the gallery and the head right after it.
        let oneShot = try Workspace(directory: dir.url)
        try oneShot.perform(.undo(steps: 1), on: "m")
        #expect(try oneShot.gallery().entries.map(\.name) == ["m"])
        #expect(try oneShot.head(of: "m") == (try Workspace(directory: dir.url).head(of: "m")))
    }
}

extension CreationHead {
    func named(_ name: String) -> CreationHead {
        var copy = self
        copy.state.name = name
        return copy
    }
}
