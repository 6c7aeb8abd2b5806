import Foundation
@testable import Memery
import MemeryCore
@testable import MemeryStore
import MemeryTestSupport
import Testing

/// The history index kept beside a creation's stream answers every question undo, redo and
/// checkout ask exactly as the tree replayed from the first event does; moves and snapshots
/// write it and readers catch it up with the edits since, so a new process moves the head
/// without replaying; and whatever it cannot place or that damages it (a sync's appends
/// sorted in before, a move from an older build, a flipped byte) costs one replay, never a
/// wrong answer.
@Suite struct HistoryIndexTests {
    static func index<T>(_ workspace: Workspace, _ name: String, _ body: (HistoryIndexReader?) throws -> T) throws -> T {
        try workspace.store.readCache(try workspace.entry(named: name).id) { cache in try body(try HistoryIndexReader(cache)) }
    }

    /// Every answer of the index against the replayed tree's.
    static func expectSameAnswers(_ workspace: Workspace, _ name: String, _ step: Int) throws {
        let tree = try workspace.creations.loadHistory(try workspace.entry(named: name).id).history
        try index(workspace, name) { found in
            let index = try #require(found, "step \(step): the index covers the stream")
            #expect(index.head == tree.head && index.genesis == tree.genesis && index.streamVersion == tree.streamVersion, "step \(step)")
            #expect(Int(index.meta.nodeCount) == tree.nodes.count && Int(index.meta.nodeCount + index.meta.moveCount) == tree.batches.count, "step \(step)")
            for node in tree.nodes.indices {
                #expect(try index.editID(of: node) == tree.editID(of: node) && index.parent(of: node) == tree.parent(of: node))
                #expect(try (0..<index.childCount(of: node)).map { try index.child($0 + 1, of: node) } == tree.nodes[node].children)
                #expect(try index.state(at: node) == tree.state(at: node), "step \(step), node \(node)")
                #expect(try index.summary(of: node) == HistoryTreeText.summary(node, in: tree))
            }
            #expect(try index.treeAnswer(name: name) == HistoryTreeAnswer(tree), "step \(step): the whole tree, from the index's records")
            for version in 0...tree.streamVersion + 1 {
                #expect(try index.batch(holdingEvent: version) == tree.batch(holdingEvent: version), "step \(step), v\(version)")
                #expect(try index.head(afterBatchStartingAtOrBefore: version) == tree.head(afterBatchStartingAtOrBefore: version))
            }
            for time in Set(tree.batches.flatMap { [$0.time - 1, $0.time, $0.time + 1] }) {
                #expect(try index.head(afterBatchMadeAtOrBefore: time) == tree.head(afterBatchMadeAtOrBefore: time), "step \(step), t\(time)")
            }
            for last in [1, 4, tree.nodes.count + 1] {
                #expect(try HeadLineAnswer(name: name, events: index.streamVersion, head: index.head, last: last, node: index.answerNode, parent: index.parent(of:))
                    == Self.headLine(of: tree, named: name, last: last), "step \(step), the last \(last)")
            }
        }
    }

    /// The edits leading to the head as the replayed tree gives them.
    static func headLine(of tree: CreationHistory, named name: String, last: Int) throws -> HeadLineAnswer {
        try HeadLineAnswer(name: name, events: tree.streamVersion, head: tree.head, last: last,
                           node: { HistoryTreeAnswer.Node($0, in: tree) }, parent: { tree.nodes[$0].parent })
    }

    /// Random edits, undos, redos and checkouts, each few from a new workspace (as a new
    /// process): the index never needed a replay, and answers as the tree does.
    @Test(arguments: [21, 22, 23])
    func theIndexAnswersAsTheReplayedTreeDoes(seed: UInt64) throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        var workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "m", canvasWidth: 120, height: 80, background: .white)
        var rng = SeededGenerator(seed: seed)
        for step in 0..<160 {
            if step % 5 == 0 { workspace = try Workspace(directory: dir.url) }
            let edit: Edit
            switch rng.next() % 9 {
            case 0...2: edit = .captions(top: "top \(step)", bottom: nil, style: TextStyleChanges())
            case 3: edit = .addText(text: "free \(step)", box: nil, style: TextStyleChanges())
            case 4: edit = .rotate(degrees: 90, .canvas)
            case 5: edit = .undo(steps: Int(rng.next() % 3) + 1)
            case 6: edit = .redo(branch: rng.next() % 2 == 0 ? nil : 1)
            case 7: edit = .checkout(.event(rng.next() % (try workspace.head(of: "m").streamVersion) + 1))
            default: edit = .checkout(.time("1s"))
            }
            do { try workspace.perform(edit, on: "m") } catch is DomainError {}
            #expect(workspace.histories.statistics.built == 0, "step \(step): moved on the index, no replay")
            if step % 20 == 19 {
                try Self.expectSameAnswers(workspace, "m", step)
                // `memery history --last` in a new process: the tree's answer, without its replay.
                let reader = try Workspace(directory: dir.url)
                let line = try reader.headLine(of: "m", last: 6)
                #expect(reader.histories.statistics.built == 0, "step \(step): the line read from the index")
                #expect(try line == Self.headLine(of: try workspace.history(of: "m"), named: "m", last: 6), "step \(step)")
                #expect(line.head == (try workspace.head(of: "m").headVersion) && line.nodes.count <= 6)
                // `memery history` in a new process: the whole tree and its drawing, without a replay.
                let drawer = try Workspace(directory: dir.url)
                let tree = try drawer.historyTree(of: "m"), replayed = try workspace.history(of: "m")
                #expect(drawer.histories.statistics.built == 0, "step \(step): the tree read from the index")
                #expect(tree == HistoryTreeAnswer(replayed) && HistoryTreeText.lines(tree) == HistoryTreeText.lines(replayed), "step \(step)")
                // What `memery history` prints, drawn from the description records alone.
                let printer = try Workspace(directory: dir.url)
                #expect(try Self.drawing(printer, "m") == Self.text(HistoryTreeText.lines(replayed)), "step \(step)")
                #expect(printer.histories.statistics.built == 0, "step \(step): drawn from the index")
            }
        }
        #expect(try Workspace(directory: dir.url).head(of: "m") == CreationHead(try workspace.history(of: "m")))
    }

    /// A state past 64 KiB: its moves write no snapshot, so readers open the head from the
    /// index. Random edits, undos, redos (branches among them) and checkouts, each from a new
    /// workspace; after each, a new reader's head is the replayed tree's, and it replayed nothing.
    @Test func readersOfALargeStateOpenTheHeadFromTheIndexAsTheReplayDoes() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "big", canvasWidth: 400, height: 300, background: .white)
        let session = try workspace.session("big")
        for n in 0..<180 { try session.edit(.addText(role: .free, text: "layer \(n) " + String(repeating: "w", count: 150), box: nil, style: .init())) }
        var rng = SeededGenerator(seed: 34)
        var readFromTheIndex = 0
        for step in 0..<40 {
            let edit: Edit
            switch rng.next() % 6 {
            case 0, 1: edit = .captions(top: "top \(step)", bottom: nil, style: TextStyleChanges())
            case 2: edit = .undo(steps: Int(rng.next() % 3) + 1)
            case 3: edit = .redo(branch: rng.next() % 2 == 0 ? nil : 1)
            case 4: edit = .checkout(.event(150 + rng.next() % (try workspace.head(of: "big").streamVersion - 150)))
            default: edit = .addText(text: "more \(step)", box: nil, style: TextStyleChanges())
            }
            do { try Workspace(directory: dir.url).perform(edit, on: "big") } catch is DomainError {}
            let id = session.id, version = try workspace.store.version(of: id)
            if try workspace.store.snapshot(id)?.version != version { readFromTheIndex += 1 }
            let reader = try Workspace(directory: dir.url)
            #expect(try reader.head(of: "big") == CreationHead(try Workspace(directory: dir.url).history(of: "big")), "step \(step): \(edit.op)")
            #expect(reader.histories.statistics.built == 0, "step \(step): \(edit.op) opened without a replay")
        }
        #expect(readFromTheIndex >= 8, "moves left the head to the index \(readFromTheIndex) times")
    }

    /// A long history: a new process undoes, redoes and checks out from the index (a few
    /// records and at most a checkpoint's distance of events), and lands where the tree does.
    @Test func aNewProcessMovesTheHeadOfALongHistoryWithoutReplaying() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let first = try Workspace(directory: dir.url)
        try first.create(name: "long", canvasWidth: 64, height: 64, background: .white)
        let session = try first.session("long")
        for n in 0..<3_000 { try session.edit(.setCaptions(top: "edit \(n) " + String(repeating: "x", count: 60), bottom: nil)) }
        let id = session.id
        let checkpoints = try first.store.readCache(id) { cache in
            try (0..<3_001).filter { try cache.get(HistoryIndex.stateKey(UInt32($0))) != nil }.count
        }
        #expect(checkpoints >= 2 && checkpoints < 100, "checkpoints every ~64 KiB of payloads: \(checkpoints)")

        func fresh(_ edit: Edit) throws -> (EditResult, Workspace) {
            let workspace = try Workspace(directory: dir.url)
            let result = try workspace.perform(edit, on: "long")
            #expect(workspace.histories.statistics.built == 0, "\(edit.op): no replay")
            return (result, workspace)
        }
        var (result, workspace) = try fresh(.undo(steps: 5))
        #expect(result.head?.version == 2_997 && result.state?.caption(.top)?.text?.text.hasPrefix("edit 2994 ") == true)
        (result, workspace) = try fresh(.redo(branch: nil))
        #expect(result.head?.version == 2_998 && result.head?.summary.hasPrefix("edited L1: text \"edit 2995 ") == true)
        (result, workspace) = try fresh(.checkout(.event(1_000)))
        #expect(result.state?.caption(.top)?.text?.text.hasPrefix("edit 997 ") == true)
        #expect(try workspace.creation(named: "long") == CreationHead(try workspace.history(of: "long")).state)
    }

    /// Plain edits leave the index as it was (a durable edit writes no third B-tree); a reader
    /// catches it up with the edits since, and the snapshot's renewal every 100 events, or a
    /// move of the head, writes it caught up.
    @Test func editsAreCaughtUpFromTheTailAndWrittenWithSnapshotsAndMoves() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        let id = try workspace.create(name: "m", canvasWidth: 80, height: 60, background: .white).id
        func covered() throws -> UInt64? { try workspace.store.readCache(id) { try HistoryIndex.meta(in: $0)?.coveredVersion } }
        #expect(try covered() == 2, "the first append writes it")
        for n in 0..<50 { try workspace.perform(.captions(top: "e\(n)", bottom: nil, style: TextStyleChanges()), on: "m") }
        #expect(try covered() == 2, "edits do not write it")
        try Self.expectSameAnswers(workspace, "m", 0)
        try workspace.perform(.undo(steps: 1), on: "m")
        #expect(try covered() == 53, "a move writes it, caught up")
        for n in 50..<100 { try workspace.perform(.captions(top: "e\(n)", bottom: nil, style: TextStyleChanges()), on: "m") }
        #expect(try covered() == 100, "the snapshot at event 100 writes it")
        try Self.expectSameAnswers(workspace, "m", 1)
    }

    /// An edit appended by a build without the index is caught up from the tail like any
    /// other; a move appended by one cannot be, and costs one replay, which writes the index
    /// again, so that the next move needs none.
    @Test func aMoveAppendedWithoutTheIndexCostsOneReplay() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        let id = try workspace.create(name: "m", canvasWidth: 80, height: 60, background: .white).id
        try workspace.perform(.captions(top: "kept", bottom: nil, style: TextStyleChanges()), on: "m")
        // As a build without the index appends: the stream's events alone.
        func appendAsAnOlderBuild(_ decide: (CreationHead) throws -> [CreationEvent]) throws {
            let head = try Workspace(directory: dir.url).head(of: "m")
            try workspace.store.append(to: id, expectedVersion: head.streamVersion,
                                       events: try EventCoding.newEvents(try decide(head), madeOn: head.headEdit))
        }
        try appendAsAnOlderBuild { try $0.state.decide(.setCaptions(top: "older", bottom: nil)) }
        let caughtUp = try Workspace(directory: dir.url)
        #expect(try caughtUp.perform(.undo(steps: 1), on: "m").state?.caption(.top)?.text?.text == "kept")
        #expect(caughtUp.histories.statistics.built == 0, "an edit in the tail is caught up")

        try appendAsAnOlderBuild { _ in try Workspace(directory: dir.url).history(of: "m").decideRedo() }
        #expect(try Self.index(workspace, "m") { $0 } == nil, "a move in the tail: the index cannot answer")
        #expect(!HistoryIndex.isCurrent(workspace.store, stream: id))
        let later = try Workspace(directory: dir.url)
        #expect(try later.perform(.undo(steps: 1), on: "m").state?.caption(.top)?.text?.text == "kept")
        #expect(later.histories.statistics.built == 1, "one replay")
        #expect(try Self.index(later, "m") { $0 } != nil, "which wrote the index again")
        try Self.expectSameAnswers(later, "m", 0)
        let again = try Workspace(directory: dir.url)
        #expect(try again.perform(.redo(branch: nil), on: "m").state?.caption(.top)?.text?.text == "older")
        #expect(again.histories.statistics.built == 0, "the index was built again")
    }

    /// Edits made on two machines meet by sync, sorted in by time: the index on each
    /// answers as its tree does, and both land on the same head.
    @Test func editsFromAnotherMachineSortedInBeforeAreIndexedAsTheTreePlacesThem() throws {
        let dirA = try TemporaryDirectory(), dirB = try TemporaryDirectory()
        defer { dirA.cleanup(); dirB.cleanup() }
        let a = try Workspace(directory: dirA.url), b = try Workspace(directory: dirB.url)
        try a.create(name: "m", canvasWidth: 80, height: 60, background: .white)
        try a.perform(.captions(top: "BASE", bottom: nil, style: TextStyleChanges()), on: "m")
        _ = try SyncConvergenceTests.send(a, to: b)
        try b.perform(.captions(top: "B1", bottom: nil, style: TextStyleChanges()), on: "m")
        Thread.sleep(forTimeInterval: 0.005)
        try a.perform(.captions(top: "A1", bottom: nil, style: TextStyleChanges()), on: "m")
        _ = try SyncConvergenceTests.send(b, to: a, after: 4)
        _ = try SyncConvergenceTests.send(a, to: b, after: 4)
        for machine in [a, b] {
            let fresh = try Workspace(directory: machine.store.directory)
            #expect(try fresh.perform(.undo(steps: 1), on: "m").state?.caption(.top)?.text?.text == "BASE", "A1 was made on BASE")
            #expect(try fresh.perform(.redo(branch: 1), on: "m").state?.caption(.top)?.text?.text == "B1", "B1 sorts first")
            try Self.expectSameAnswers(fresh, "m", 0)
        }
    }

    /// A damaged record (a flipped byte fails its CRC32C; a record of the wrong shape)
    /// is never an answer: the move replays, and the index is built again.
    @Test func aDamagedIndexIsReplayedAndBuiltAgain() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        let id = try workspace.create(name: "m", canvasWidth: 80, height: 60, background: .white).id
        for n in 0..<10 { try workspace.perform(.captions(top: "e\(n)", bottom: nil, style: TextStyleChanges()), on: "m") }
        try workspace.perform(.undo(steps: 1), on: "m")
        try workspace.perform(.redo(branch: nil), on: "m")  // the moves write the index
        // A flipped byte in node 9's record (the edit e8).
        let key = KeyEncoding.uuid(id) + HistoryIndex.nodeKey(9)
        try workspace.store.env.write { txn in
            var value = try #require(try txn.get(workspace.store.snapshots, key))
            value[3] ^= 0x20
            try txn.put(workspace.store.snapshots, key, value)
        }
        #expect(try workspace.store.readCache(id) { try $0.get(HistoryIndex.nodeKey(9)) } == nil, "it fails its checksum")
        var fresh = try Workspace(directory: dir.url)
        #expect(try fresh.perform(.undo(steps: 2), on: "m").state?.caption(.top)?.text?.text == "e7")
        #expect(fresh.histories.statistics.built == 1, "replayed")
        try Self.expectSameAnswers(fresh, "m", 0)
        // A record of the wrong shape under a good checksum.
        try workspace.store.updateCache(id) { try $0.put(HistoryIndex.nodeKey(8), [1, 2, 3]) }
        fresh = try Workspace(directory: dir.url)
        #expect(try fresh.perform(.redo(branch: nil), on: "m").state?.caption(.top)?.text?.text == "e8")
        #expect(fresh.histories.statistics.built == 1, "replayed")
        try Self.expectSameAnswers(fresh, "m", 1)
        // The same damage under `memery history --last`: replayed, the tree's answer, built again.
        try workspace.store.updateCache(id) { try $0.put(HistoryIndex.nodeKey(7), [1, 2, 3]) }
        fresh = try Workspace(directory: dir.url)
        #expect(try fresh.headLine(of: "m", last: 5) == Self.headLine(of: try fresh.history(of: "m"), named: "m", last: 5))
        #expect(fresh.histories.statistics.built == 1, "replayed once")
        #expect(try Self.index(fresh, "m") { $0 != nil }, "and the index built again")
        // A record whose checksum holds but which names another creation's events: the stream
        // is whole, so `history --last` and undo answer by replaying, not "damaged".
        let other = try workspace.create(name: "other", canvasWidth: 20, height: 20, background: .white).id
        let elsewhere = try #require(try workspace.store.events(in: other).first?.sequence)
        for damage in [UInt32(8), 9] {
            try workspace.store.updateCache(id) { cache in
                var records = cache
                var node = try HistoryIndex.node(damage, in: records)
                node.firstSequence = elsewhere
                try HistoryIndex.put(node, at: damage, in: &records)
            }
        }
        fresh = try Workspace(directory: dir.url)
        #expect(try fresh.headLine(of: "m", last: 3) == Self.headLine(of: try fresh.history(of: "m"), named: "m", last: 3))
        #expect(fresh.histories.statistics.built == 1, "replayed once")
        // The same under a move whose target (node 7, the edit e6 at event 9) it names.
        try workspace.store.updateCache(id) { cache in
            var records = cache
            var node = try HistoryIndex.node(7, in: records)
            node.firstSequence = elsewhere
            try HistoryIndex.put(node, at: 7, in: &records)
        }
        fresh = try Workspace(directory: dir.url)
        #expect(try fresh.perform(.checkout(.event(9)), on: "m").state?.caption(.top)?.text?.text == "e6", "a move answers too")
        try Self.expectSameAnswers(fresh, "m", 2)
    }

    /// `memery history` in a new process draws the whole tree from the index's records: each
    /// edit's description is kept beside its node, except a turn of the picture alone (said as
    /// a change from the state before it), which is asked of its events. A damaged description
    /// costs one replay, never a wrong line.
    @Test func theWholeTreeIsDrawnFromTheIndexAsTheReplayDrawsIt() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        let id = try workspace.create(name: "cat", imageAt: TestData.example("chelsea.png").path).id
        for n in 0..<30 { try workspace.perform(.captions(top: "edit \(n)", bottom: nil, style: TextStyleChanges()), on: "cat") }
        try workspace.perform(.rotate(degrees: 90, .picture), on: "cat")
        try workspace.perform(.flip(.h, .picture), on: "cat")
        try workspace.perform(.undo(steps: 3), on: "cat")
        try workspace.perform(.rotate(degrees: 180, .picture), on: "cat")  // a branch, and the move writes the index
        for n in 0..<5 { try workspace.perform(.captions(top: "after \(n)", bottom: nil, style: TextStyleChanges()), on: "cat") }  // the tail
        let replayed = try Workspace(directory: dir.url).history(of: "cat")
        let turns = replayed.nodes.indices.filter { HistoryTreeText.summary($0, in: replayed).contains("the picture alone") }
        #expect(turns.count == 3, "\(replayed.nodes.indices.map { HistoryTreeText.summary($0, in: replayed) })")

        let fresh = try Workspace(directory: dir.url)
        let tree = try fresh.historyTree(of: "cat")
        #expect(fresh.histories.statistics.built == 0, "read from the index")
        #expect(tree == HistoryTreeAnswer(replayed))
        let lines = HistoryTreeText.lines(tree)
        #expect(lines == HistoryTreeText.lines(replayed))
        // `memery history`'s bytes, drawn from the description records (the turns asked of
        // their events, the tail's records in memory), are the replay's lines.
        let printer = try Workspace(directory: dir.url)
        #expect(try Self.drawing(printer, "cat") == Self.text(lines))
        #expect(printer.histories.statistics.built == 0, "drawn from the index")
        #expect(lines.contains { $0.contains("branch 2") } && lines.last?.hasSuffix("← head") == true, "\(lines)")
        let described = try workspace.store.readCache(id) { cache in
            try (0..<UInt32(replayed.nodes.count)).filter { node in
                guard let value = try cache.get(HistoryIndex.descriptionKey(node)) else { return false }  // the tail's: in memory
                return try FieldReader.read(value) { try HistoryIndex.Description(&$0) } != nil
            }.count
        }
        #expect(described == replayed.nodes.count - 3 - 5, "all but the turns kept a summary; the tail's are in memory: \(described)")

        // The index keeps these words: a change to `HistoryEntry.describe` must bump `HistoryIndex.format`
        // (and then this list), or `memery history` shows the old words where undo shows the new.
        #expect(Array(tree.nodes.map(\.summary).prefix(3)) == [
            "created \"cat\"; imported chelsea.png (png, 451x300)", "added top text L1 \"edit 0\"", "edited L1: text \"edit 1\"",
        ], "HistoryIndex.format is \(HistoryIndex.format)")
        #expect(tree.nodes.filter { $0.summary.contains("the picture alone") }.map(\.summary) == [
            "turned the picture alone by 90° (now at 90°)", "mirrored the picture alone left to right", "turned the picture alone by 180° (now at 180°)",
        ])

        // An index of the format before: replayed once, and built again in this one.
        try workspace.store.updateCache(id) { cache in
            var value = try #require(try cache.get(HistoryIndex.metaKey))
            value[0] = HistoryIndex.format - 1
            try cache.put(HistoryIndex.metaKey, value)
        }
        let older = try Workspace(directory: dir.url)
        #expect(try older.historyTree(of: "cat") == HistoryTreeAnswer(replayed))
        #expect(older.histories.statistics.built == 1, "replayed")
        #expect(try Self.index(older, "cat") { $0 != nil }, "and built again")

        // A flipped byte in a description: replayed once, the same tree, the index built again.
        let key = KeyEncoding.uuid(id) + HistoryIndex.descriptionKey(4)
        try workspace.store.env.write { txn in
            var value = try #require(try txn.get(workspace.store.snapshots, key))
            value[value.count - 6] ^= 0x20
            try txn.put(workspace.store.snapshots, key, value)
        }
        let damaged = try Workspace(directory: dir.url)
        #expect(try Self.drawing(damaged, "cat") == Self.text(lines))
        #expect(damaged.histories.statistics.built == 1, "replayed")
        let again = try Workspace(directory: dir.url)
        #expect(try again.historyTree(of: "cat") == HistoryTreeAnswer(replayed))
        #expect(again.histories.statistics.built == 0, "the index built again")
    }

    /// A description whose checksum holds but whose node comes before its parent (a parent
    /// at or after it would let the drawing's lists loop): drawn by a replay, never looped.
    @Test func aDescriptionBeforeItsParentIsReplayedNotDrawn() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        let lines = try Self.rewritingDescription(2, of: workspace, edits: 6) { value in
            value.replaceSubrange(0..<4, with: HistoryIndex.bytes(UInt32(5)))  // node 2's parent: node 5
        }
        let fresh = try Workspace(directory: dir.url)
        #expect(try Self.drawing(fresh, "m") == Self.text(lines))
        #expect(fresh.histories.statistics.built == 1, "replayed")
        let again = try Workspace(directory: dir.url)
        #expect(try Self.drawing(again, "m") == Self.text(lines))
        #expect(again.histories.statistics.built == 0, "the index built again")
    }

    /// A summary that is not UTF-8 under a checksum that holds (written so, not flipped):
    /// drawn as `--json` gives it, each bad sequence as U+FFFD, not as raw bytes.
    @Test func aSummaryThatIsNotUTF8IsDrawnRepaired() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        _ = try Self.rewritingDescription(2, of: workspace, edits: 4) { value in
            value[value.count - 2] = 0xFF  // inside the summary's last quoted word
        }
        let fresh = try Workspace(directory: dir.url)
        var drawn = [UInt8]()  // the bytes as printed: a String made of them would repair them itself
        try fresh.drawHistory(of: "m") { drawn += $0 }
        #expect(fresh.histories.statistics.built == 0, "drawn from the index")
        let answered = Self.text(HistoryTreeText.lines(try fresh.historyTree(of: "m")))
        #expect(answered.contains("\u{FFFD}") && drawn == Array(answered.utf8), "\(String(decoding: drawn, as: UTF8.self))")
    }

    /// Makes "m" with `edits` caption edits and an undo (the move writes the index), then
    /// rewrites description `node`'s record through `change`, its checksum made to hold.
    /// Returns the history's lines as drawn before the change.
    static func rewritingDescription(_ node: UInt32, of workspace: Workspace, edits: Int, _ change: (inout [UInt8]) -> Void) throws -> [String] {
        let id = try workspace.create(name: "m", canvasWidth: 20, height: 20, background: .white).id
        for n in 0..<edits { try workspace.perform(.captions(top: "e\(n)", bottom: nil, style: TextStyleChanges()), on: "m") }
        try workspace.perform(.undo(steps: 1), on: "m")
        let lines = HistoryTreeText.lines(try workspace.history(of: "m"))
        try workspace.store.updateCache(id) { cache in
            var value = try #require(try cache.get(HistoryIndex.descriptionKey(node)))
            change(&value)
            try cache.put(HistoryIndex.descriptionKey(node), value)
        }
        return lines
    }

    /// What `memery history` prints for `name`, as text.
    static func drawing(_ workspace: Workspace, _ name: String) throws -> String {
        var bytes = [UInt8]()
        try workspace.drawHistory(of: name) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func text(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }

    /// A purge removes the index with the stream; the snapshot of another stream stays.
    @Test func aPurgeRemovesTheIndex() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        let gone = try workspace.create(name: "gone", canvasWidth: 8, height: 8, background: .white).id
        try workspace.create(name: "kept", canvasWidth: 8, height: 8, background: .white)
        try workspace.perform(.captions(top: "x", bottom: nil, style: TextStyleChanges()), on: "gone")
        try workspace.perform(.undo(steps: 1), on: "gone")
        func records(_ stream: UUID) throws -> Int {
            try workspace.store.env.read { txn in
                var count = 0
                try txn.scan(workspace.store.snapshots, from: KeyEncoding.uuid(stream)) { key, _ in
                    guard key.starts(with: KeyEncoding.uuid(stream)) else { return false }
                    count += 1
                    return true
                }
                return count
            }
        }

        _ = try workspace.purge("gone")
        #expect(try records(gone) == 0)
        #expect(try Self.index(workspace, "kept") { $0 } != nil)
        #expect(try workspace.verify().isClean)
    }
}
