import Foundation
@testable import Memery
import MemeryCore
import MemeryStore
import MemeryTestSupport
import Testing

/// Snapshots are a cache: opening from snapshot + tail must equal a full replay.
@Suite struct SnapshotTests {
    func workspace() throws -> (Workspace, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        return (try Workspace(directory: dir.url), dir)
    }

    /// Random edits, undos, redos and checkouts through a session; at every step the head
    /// opened from the store (snapshot + tail) equals the head of the full replay.
    @Test(arguments: [11, 12, 13])
    func snapshotPlusTailEqualsFullReplay(seed: UInt64) throws {
        let (workspace, dir) = try workspace(); defer { dir.cleanup() }
        try workspace.create(name: "s", canvasWidth: 200, height: 100, background: .white)
        var rng = SeededGenerator(seed: seed)
        let session = try workspace.session("s")
        for step in 0..<350 {
            do {
                switch rng.next() % 8 {
                case 0...3: try session.edit(.addText(role: .free, text: "t\(step)", box: nil, style: .init()))
                case 4:
                    if let layer = try session.state.layers.randomElement(using: &rng) { try session.edit(.removeLayer(id: layer.id)) }
                case 5: try session.undo(steps: Int(rng.next() % 3) + 1)
                case 6: try session.redo()
                default: try session.edit(.rotate(degrees: 90))
                }
            } catch is DomainError {}
            if step % 25 == 0 {
                let opened = try workspace.head(of: "s")
                let replayed = CreationHead(try workspace.history(of: "s"))
                #expect(opened == replayed, "step \(step)")
            }
        }
        #expect(try workspace.store.snapshot(session.id) != nil, "a long history has a snapshot")
        #expect(try workspace.head(of: "s") == CreationHead(try workspace.history(of: "s")))
    }

    @Test func aSnapshotIsWrittenAndUsedAndItsTailFolded() throws {
        let (workspace, dir) = try workspace(); defer { dir.cleanup() }
        try workspace.create(name: "s", canvasWidth: 50, height: 50, background: .white)
        let session = try workspace.session("s")
        for n in 0..<250 { try session.edit(.setCaptions(top: "edit \(n)", bottom: nil)) }
        let snapshot = try #require(try workspace.store.snapshot(session.id))
        #expect(snapshot.version == 200 && snapshot.format == CreationHead.snapshotFormat)
        let cached = try #require(CreationHead.decoded(snapshot.data))
        #expect(cached.state.caption(.top)?.text?.text == "edit 197", "events 1-2 made the creation; edit n is event n + 3")
        #expect(try workspace.creation(named: "s").caption(.top)?.text?.text == "edit 249", "the tail after the snapshot is folded")
    }

    @Test func aSnapshotOfAnotherFormatOrPastTheEndIsIgnored() throws {
        let (workspace, dir) = try workspace(); defer { dir.cleanup() }
        let creation = try workspace.create(name: "s", canvasWidth: 50, height: 50, background: .white)
        try workspace.setCaptions("s", top: "truth", bottom: nil)
        var wrong = try workspace.head(of: "s")
        wrong.state.layers = []
        // Another format: ignored.
        try workspace.store.putSnapshot(creation.id, version: wrong.streamVersion, format: 99, data: try wrong.encoded())
        #expect(try workspace.creation(named: "s").caption(.top)?.text?.text == "truth")
        // Past the stream's end: ignored.
        try workspace.store.putSnapshot(creation.id, version: 999, format: CreationHead.snapshotFormat, data: try wrong.encoded())
        #expect(try workspace.creation(named: "s").caption(.top)?.text?.text == "truth")
        // Garbage: ignored.
        try workspace.store.putSnapshot(creation.id, version: wrong.streamVersion, format: CreationHead.snapshotFormat, data: Data("{".utf8))
        #expect(try workspace.creation(named: "s").caption(.top)?.text?.text == "truth")
    }

    @Test func purgeRemovesTheSnapshotToo() throws {
        let (workspace, dir) = try workspace(); defer { dir.cleanup() }
        let creation = try workspace.create(name: "s", canvasWidth: 50, height: 50, background: .white)
        let session = try workspace.session("s")
        for n in 0..<120 { try session.edit(.setCaptions(top: "e\(n)", bottom: nil)) }
        #expect(try workspace.store.snapshot(creation.id) != nil)
        _ = try workspace.purge("s")
        #expect(try workspace.store.snapshot(creation.id) == nil)
        #expect(try workspace.verify().isClean)
    }
}


@Suite struct HistoryTreeTextTests {
    /// A history of one edit: the creation named and its blank 10x10 canvas, events 1 and 2.
    static func genesis(_ name: String, time: Int64) throws -> CreationHistory {
        var history = CreationHistory(id: UUID())
        var creation = Creation(id: history.id)
        let made = try creation.decide(.create(name: name))
        made.forEach { creation = creation.evolve($0) }
        history.apply(made + (try creation.decide(.createCanvas(width: 10, height: 10, background: .white))), lastVersion: 2, time: time)
        return history
    }

    /// Edit, undo, edit: each round forks the tree one level deeper. Drawing a tree tens of
    /// thousands of forks deep must not overflow the stack.
    @Test func aVeryDeeplyBranchedHistoryIsDrawn() throws {
        var history = try Self.genesis("deep", time: 0)
        var version: UInt64 = 2
        func append(_ events: [CreationEvent]) {
            version += UInt64(events.count)
            history.apply(events, lastVersion: version, time: Int64(version))
        }
        let depth = 10_000
        for n in 0..<depth {
            append(try history.decide(.setCaptions(top: "a\(n)", bottom: nil)))
            append(try history.decideUndo())
            append(try history.decide(.setCaptions(top: "b\(n)", bottom: nil)))
        }
        let lines = HistoryTreeText.lines(history)
        #expect(lines.count == 1 + depth * 4, "each level: two branch labels and two edits")
        #expect(lines.last?.hasSuffix("← head") == true)
        #expect(lines.last?.hasPrefix(String(repeating: "  ", count: HistoryTreeText.maxIndent) + "v") == true, "the indent stops growing")
    }

    /// The drawing, character for character, of a tree branched twice, the second branch
    /// inside the first's last: the labels, the bars and the indents, the head. A part of a
    /// tree (`since`) draws nothing, since none of its edits is a root.
    @Test func aTreeBranchedTwiceIsDrawnAsItAlwaysWas() throws {
        var history = try Self.genesis("g", time: 0)
        var version: UInt64 = 2
        func append(_ events: [CreationEvent]) {
            version += UInt64(events.count)
            history.apply(events, lastVersion: version, time: Int64(version) * 1000)
        }
        append(try history.decide(.setCaptions(top: "a", bottom: nil)))
        append(try history.decideUndo())
        append(try history.decide(.setCaptions(top: "b", bottom: nil)))
        append(try history.decide(.setCaptions(top: "c", bottom: nil)))
        append(try history.decideUndo())
        append(try history.decide(.setCaptions(top: "d", bottom: nil)))
        append(try history.decide(.setCaptions(top: "e", bottom: nil)))
        #expect(HistoryTreeText.lines(history) == [
            "v2     1970-01-01T00:00:00Z  created \"g\"; blank 10x10 canvas (#ffffff)",
            "├ branch 1",
            "│ v3     1970-01-01T00:00:03Z  added top text L1 \"a\"",
            "└ branch 2",
            "  v5     1970-01-01T00:00:05Z  added top text L1 \"b\"",
            "  ├ branch 1",
            "  │ v6     1970-01-01T00:00:06Z  edited L1: text \"c\"",
            "  └ branch 2",
            "    v8     1970-01-01T00:00:08Z  edited L1: text \"d\"",
            "    v9     1970-01-01T00:00:09Z  edited L1: text \"e\"   ← head",
        ], "\(HistoryTreeText.lines(history))")
        let part = HistoryTreeAnswer(history, since: 5, tip: HistoryTreeText.tip(of: history, through: 5))
        #expect(part.since == 5 && part.nodes.map(\.version) == [6, 8, 9])
        #expect(HistoryTreeText.lines(part) == [])
    }

    /// Each line shows its own edit's time, to the second, though a second is formatted
    /// once for all the lines in it: times within a second, across seconds, before 1970.
    @Test func eachLineShowsItsOwnEditsTime() throws {
        var history = try Self.genesis("times", time: -1_500)
        let times: [Int64] = [-1_000, -1, 0, 999, 1_000, 1_001, 1_999, 2_000, 61_000, 61_999, 1_800_000_000_000]
        var version: UInt64 = 2
        for (n, time) in times.enumerated() {
            let events = try history.decide(.setCaptions(top: "edit \(n)", bottom: nil))
            version += UInt64(events.count)
            history.apply(events, lastVersion: version, time: time)
        }
        let shown = HistoryTreeText.lines(history).map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] }
        #expect(shown == ([-1_500] + times).map { Substring(HistoryTreeText.time($0)) }, "\(shown)")
        #expect(shown[0] == "1969-12-31T23:59:58Z" && shown[1] == "1969-12-31T23:59:59Z" && shown[3] == "1970-01-01T00:00:00Z")
    }

    /// Edit numbers pad to a column and are never cut: v100001 was printed as v10000.
    @Test func editNumbersPastSixDigitsArePrintedWhole() throws {
        var history = try Self.genesis("long", time: 0)
        history.apply(try history.decide(.setCaptions(top: "far", bottom: nil)), lastVersion: 100_001, time: 1)
        let lines = HistoryTreeText.lines(history)
        #expect(lines.map { $0.prefix(8) } == ["v2     1", "v100001 "], "\(lines)")
        let line = try HeadLineAnswer(name: "long", events: 100_001, head: history.head, last: 1,
                                      node: { HistoryTreeAnswer.Node($0, in: history) }, parent: { history.nodes[$0].parent })
        #expect(HistoryTreeText.lines(line).last?.hasPrefix("v100001 1970-01-01T00:00:00Z  added top text L1 \"far\"   ← head") == true,
                "\(HistoryTreeText.lines(line))")
    }
}

@Suite struct GallerySnapshotTests {
    /// The gallery opens from its snapshot and the events after it, and that equals folding
    /// its whole stream; a damaged snapshot is ignored.
    @Test func galleryFromSnapshotPlusTailEqualsFullReplay() throws {
        let (workspace, dir) = try { let dir = try TemporaryDirectory(); return (try Workspace(directory: dir.url), dir) }(); defer { dir.cleanup() }
        for n in 0..<130 { try workspace.create(name: "c\(n)", canvasWidth: 8, height: 8, background: .white) }
        for n in stride(from: 0, to: 130, by: 7) { try workspace.rename("c\(n)", to: "renamed \(n)") }
        try workspace.trash("c1")
        try workspace.move("c2", to: 1)
        let snapshot = try #require(try workspace.store.logSnapshot(WellKnownStreams.gallery), "a long gallery has a snapshot")
        #expect(snapshot.version >= CreationRepository.snapshotInterval, "it covers the log up to a sequence")
        let opened = try workspace.gallery()
        #expect(opened.all == (try workspace.galleryIndex.replay()).all)
        #expect(opened.all.count == 130 && opened.entries.first?.name == "c2" && opened.trash.map(\.name) == ["c1"])
        try workspace.store.putLogSnapshot(WellKnownStreams.gallery, sequence: snapshot.version, format: Gallery.snapshotFormat, data: Data("[".utf8))
        #expect(try Workspace(directory: dir.url).gallery().all == opened.all, "an unreadable snapshot is ignored")
    }

    /// One entry read alone (its membership stream, as a name lookup does) equals that entry
    /// in the whole gallery folded from the first event, and so does the gallery opened from
    /// its snapshot, across renewals of the snapshot, renames, the trash, favourites and purges.
    @Test func oneEntryReadAloneEqualsTheFullReplay() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        var ids = [UUID]()
        for round in 0..<2 {
            for n in 0..<130 { ids.append(try workspace.create(name: "r\(round)-\(n)", canvasWidth: 8, height: 8, background: .white).id) }
            for n in stride(from: 0, to: 130, by: 7) { try workspace.rename("r\(round)-\(n)", to: "renamed \(round) \(n)") }
            try workspace.trash("r\(round)-1")
            try workspace.setFavorite("r\(round)-3", true)
            _ = try workspace.purge("r\(round)-4")
            try workspace.move("r\(round)-5", to: 1)
            let replayed = try workspace.galleryIndex.replay()
            let fresh = try Workspace(directory: dir.url)  // a cold cache, as a new process has
            #expect(try fresh.store.logSnapshot(WellKnownStreams.gallery) != nil, "the gallery has a snapshot")
            #expect(try fresh.gallery().all == replayed.all)
            for id in ids { #expect(try fresh.galleryIndex.entry(id: id) == replayed.entry(id: id), "round \(round)") }
            #expect(try fresh.entry(named: "renamed \(round) 7").id == ids[round * 130 + 7])
        }
    }
}
