import Foundation
@testable import MemeryCore
import MemeryTestSupport
import Testing

/// Applies decided events to a history as one append, the way the store numbers them.
struct HistoryDriver {
    var history = CreationHistory(id: UUID())
    var clock: Int64 = 1_000_000
    /// Every append, to replay from scratch.
    var log: [([CreationEvent], EditEnvelope)] = []

    init() throws {
        var creation = Creation(id: history.id)
        var events = try creation.decide(.create(name: "h"))
        events.forEach { creation = creation.evolve($0) }
        events += try creation.decide(.importBaseImage(BaseImage(blob: "00", width: 100, height: 100, format: "png")))
        append(events)
    }

    mutating func append(_ events: [CreationEvent]) {
        guard !events.isEmpty else { return }
        clock += 1000
        let last = history.streamVersion + UInt64(events.count)
        let parent = events.contains(where: \.isHeadMove) ? nil : history.head.map { history.nodes[$0].id }
        let envelope = EditEnvelope(id: UUID(), parent: parent, lastVersion: last, time: clock)
        history.apply(events, envelope)
        log.append((events, envelope))
    }

    mutating func edit(_ command: CreationCommand) throws { append(try history.decide(command)) }
    mutating func undo(_ steps: Int = 1) throws { append(try history.decideUndo(steps: steps)) }
    mutating func redo(_ branch: Int? = nil) throws { append(try history.decideRedo(branch: branch)) }

    var texts: [String] { history.state.texts }

    func replayed() -> CreationHistory {
        log.reduce(into: CreationHistory(id: history.id)) { $0.apply($1.0, $1.1) }
    }
}

@Suite struct CreationHistoryTests {
    @Test func undoAndRedoMoveTheHeadOverWholeEdits() throws {
        var h = try HistoryDriver()
        try h.edit(.setCaptions(top: "a", bottom: "b"))  // one edit, two events
        try h.edit(.addText(role: .free, text: "c", box: nil, style: .init()))
        #expect(h.texts == ["a", "b", "c"])
        try h.undo()
        #expect(h.texts == ["a", "b"])
        try h.undo()
        #expect(h.texts == [])
        #expect(throws: DomainError.nothingToUndo) { try h.undo() }
        try h.redo()
        try h.redo()
        #expect(h.texts == ["a", "b", "c"])
        #expect(throws: DomainError.nothingToRedo) { try h.redo() }
    }

    @Test func editAfterUndoStartsABranchAndNoBranchIsLost() throws {
        var h = try HistoryDriver()
        try h.edit(.setCaptions(top: "trunk", bottom: nil))
        try h.edit(.addText(role: .free, text: "first branch", box: nil, style: .init()))
        try h.undo()
        try h.edit(.addText(role: .free, text: "second branch", box: nil, style: .init()))
        #expect(h.texts == ["trunk", "second branch"])
        try h.undo()
        let trunk = try #require(h.history.head)
        #expect(h.history.nodes[trunk].children.count == 2)
        try h.redo(1)
        #expect(h.texts == ["trunk", "first branch"])
        try h.undo()
        try h.redo()  // the newest branch by default
        #expect(h.texts == ["trunk", "second branch"])
        #expect(throws: DomainError.outOfRange(field: "branch", value: 3, range: 1...2)) {
            try h.undo(); try h.redo(3)
        }
    }

    @Test func undoManyStepsStopsAtTheCreationAsFirstMade() throws {
        var h = try HistoryDriver()
        for n in 1...3 { try h.edit(.setCaptions(top: "\(n)", bottom: nil)) }
        try h.undo(100)
        #expect(h.texts == [])
        #expect(h.history.state.baseImage != nil)
        #expect(h.history.head == h.history.genesis)
        #expect(throws: DomainError.outOfRange(field: "steps", value: 0, range: 1...1_000_000)) { try h.undo(0) }
    }

    @Test func checkoutByEventAndByTimeFindsTheHeadAsItWasThen() throws {
        var h = try HistoryDriver()  // events 1-2 at t0+1s
        try h.edit(.setCaptions(top: "one", bottom: nil))  // event 3 at +2s
        try h.edit(.setCaptions(top: "two", bottom: nil))  // event 4 at +3s
        try h.undo()  // event 5 at +4s: head back at event 3
        try h.edit(.setCaptions(top: "three", bottom: nil))  // event 6 at +5s
        func state(_ node: Int) -> [String] { h.history.state(at: node).texts }
        #expect(state(try h.history.head(afterEvent: 4)) == ["two"])
        #expect(state(try h.history.head(afterEvent: 5)) == ["one"])
        #expect(state(try h.history.head(afterEvent: 1)) == [])  // events 1-2 are one batch
        #expect(throws: DomainError.noSuchEvent(7, last: 6)) { try h.history.head(afterEvent: 7) }
        #expect(state(try h.history.head(atTime: 1_003_500, describedAs: "then")) == ["two"])
        #expect(state(try h.history.head(atTime: 1_004_000, describedAs: "then")) == ["one"])
        #expect(throws: DomainError.notYetCreated(at: "long ago")) { try h.history.head(atTime: 5, describedAs: "long ago") }

        h.append(try h.history.decideCheckout(try h.history.head(afterEvent: 4)))
        #expect(h.texts == ["two"])
        #expect(try h.history.decideCheckout(h.history.head!).isEmpty, "checking out the head changes nothing")
    }

    /// Random edits, undos, redos and checkouts: the live state always equals folding the
    /// edits on the path from the root, and replaying the log rebuilds the same history.
    @Test(arguments: [1, 2, 3, 4, 5])
    func randomSessionsMatchAPathFoldAndAReplay(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var h = try HistoryDriver()
        for step in 0..<400 {
            let roll = rng.next() % 10
            do {
                switch roll {
                case 0...3: try h.edit(.addText(role: .free, text: "t\(step)", box: nil, style: .init()))
                case 4: try h.edit(.setCaptions(top: "top \(step)", bottom: rng.next() % 2 == 0 ? "" : "b\(step)"))
                case 5:
                    if let layer = h.history.state.textLayers.randomElement(using: &rng) {
                        try h.edit(.removeLayer(id: layer.id))
                    }
                case 6: try h.undo(Int(rng.next() % 3) + 1)
                case 7: try h.redo()
                case 8: h.append(try h.history.decideCheckout(Int(rng.next() % UInt64(h.history.nodes.count))))
                default:
                    if let layer = h.history.state.layers.randomElement(using: &rng) {
                        try h.edit(.editText(id: layer.id, text: "e\(step)", box: nil, style: .init()))
                    }
                }
            } catch is DomainError {
                // refusals (nothing to undo, an edit on a canvas without the layer) are part of the game
            }
            guard let head = h.history.head else { continue }
            var path = [Int](), node: Int? = head
            while let current = node { path.append(current); node = h.history.nodes[current].parent }
            let folded = path.reversed().flatMap { h.history.nodes[$0].events }.reduce(Creation(id: h.history.id)) { $0.evolve($1) }
            #expect(folded == h.history.state, "step \(step)")
        }
        let replayed = h.replayed()
        #expect(replayed.state == h.history.state)
        #expect(replayed.nodes == h.history.nodes)
        #expect(replayed.head == h.history.head)
    }

    /// Past 512 layers checkpoints are kept further apart (a kept state costs a copy of
    /// every layer): the state at any node, and at the head after moves and branches, is
    /// still the fold of the edits on its path.
    @Test func statesFarFromACheckpointAreTheFoldOfTheirPath() throws {
        var rng = SeededGenerator(seed: 34)
        var h = try HistoryDriver()
        for n in 0..<700 { try h.edit(.addText(role: .free, text: "layer \(n)", box: nil, style: .init())) }
        #expect(h.history.state.layers.count == 700)
        for step in 0..<300 {
            switch rng.next() % 6 {
            case 0: try h.undo(Int(rng.next() % 40) + 1)
            case 1: h.append(try h.history.decideCheckout(Int(rng.next() % UInt64(h.history.nodes.count))))
            case 2: try h.edit(.addText(role: .free, text: "more \(step)", box: nil, style: .init()))
            default: try h.edit(.setCaptions(top: "top \(step)", bottom: nil))
            }
        }
        func pathFold(_ node: Int) -> Creation {
            var path = [Int](), current: Int? = node
            while let at = current { path.append(at); current = h.history.nodes[at].parent }
            return path.reversed().flatMap { h.history.nodes[$0].events }.reduce(Creation(id: h.history.id)) { $0.evolve($1) }
        }
        #expect(h.history.state == pathFold(try #require(h.history.head)))
        for node in stride(from: 0, to: h.history.nodes.count, by: 37) {
            #expect(h.history.state(at: node) == pathFold(node), "node \(node)")
        }
        // The spacing grew past 64 edits where the layers passed 512, and stayed within its bound.
        let folds = h.history.nodes.map(\.foldsFromCheckpoint)
        #expect(folds.contains { $0 > CreationHistory.checkpointSpacing })
        for (node, count) in zip(h.history.nodes.indices, folds) where count > 0 {
            let layers = h.history.state(at: node).layers.count
            #expect(!CreationHistory.checkpointDue(folds: count, layers: layers), "node \(node) folds \(count) edits at \(layers) layers")
        }
        #expect(!CreationHistory.checkpointDue(folds: 511, layers: 100_000) && CreationHistory.checkpointDue(folds: 512, layers: 100_000))
        #expect(h.replayed().state == h.history.state)
    }

    @Test func timesAreReadAsSpansAgoOrInstants() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try PointInTime.parse("10m", now: now) == now.addingTimeInterval(-600))
        #expect(try PointInTime.parse("2h ago", now: now) == now.addingTimeInterval(-7200))
        #expect(try PointInTime.parse("3d", now: now) == now.addingTimeInterval(-259_200))
        #expect(try PointInTime.parse("1.5h", now: now) == now.addingTimeInterval(-5400))
        #expect(try PointInTime.parse("2027-01-15T08:00:00Z", now: now) == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(try PointInTime.parse("2027-01-15T09:00:00+01:00", now: now) == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(try PointInTime.parse("2027-01-15T08:00:00.250Z", now: now) == Date(timeIntervalSince1970: 1_800_000_000.25))
        #expect(throws: DomainError.invalidTime("yesterday-ish")) { try PointInTime.parse("yesterday-ish", now: now) }
        #expect(throws: DomainError.invalidTime("-5m")) { try PointInTime.parse("-5m", now: now) }
    }

    /// Issue 30's defect 14: times without a zone, or with a space, were read as midnight,
    /// and trailing garbage was taken. A time without a zone is local time.
    @Test func datesAndTimesAreReadStrictlyAndWithoutAZoneAsLocalTime() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!  // UTC+9, no summer time
        let eightUTC = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z
        #expect(try PointInTime.parse("2027-01-15T17:00:00", now: now, timeZone: tokyo) == eightUTC)
        #expect(try PointInTime.parse("2027-01-15 17:00:00", now: now, timeZone: tokyo) == eightUTC)
        #expect(try PointInTime.parse("2027-01-15 17:00", now: now, timeZone: tokyo) == eightUTC)
        #expect(try PointInTime.parse("2027-01-15 08:00Z", now: now, timeZone: tokyo) == eightUTC)
        #expect(try PointInTime.parse("2027-01-15T10:30:00+02:30", now: now, timeZone: tokyo) == eightUTC)
        #expect(try PointInTime.parse("2027-01-15", now: now, timeZone: tokyo) == eightUTC.addingTimeInterval(-17 * 3600))
        for bad in ["2026-11-25xyz", "2026-11-24T03:03:00junk", "2026-02-30", "2026-11-24T25:00", "2026-11-24T03:60", "2026-1-5",
                    "2026-11-24T", "2026-11-24T03:03:00+", "2026-11-24T03:03:00.Z", "24/11/2026"] {
            #expect(throws: DomainError.invalidTime(bad)) { try PointInTime.parse(bad, now: now, timeZone: tokyo) }
        }
    }
}

