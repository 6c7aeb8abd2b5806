import Foundation
@testable import Memery
import MemeryCore
import MemeryTestSupport
import Testing

/// Two stores that exchange their logs as sync does (`outgoing` then `incoming`, no hub in
/// between) end with the same histories, heads and gallery, whichever order the appends
/// reached each store in.
@Suite struct SyncConvergenceTests {
    /// Everything `from` has after `sequence`, stored in `to`; the new sequence to send from.
    @discardableResult
    static func send(_ from: Workspace, to: Workspace, after sequence: UInt64 = 0) throws -> UInt64 {
        let page = try from.sync.outgoing(after: sequence, limit: 100_000)
        _ = try to.sync.incoming(page.events) { hash in try from.sync.picture(hash) ?? Data() }
        return page.through
    }

    static func tree(_ workspace: Workspace, _ name: String) throws -> String {
        String(decoding: try AnswerJSON.data(HistoryTreeAnswer(try workspace.history(of: name))), as: UTF8.self)
    }

    @Test func offlineEditsOnBothSidesConvergeAsBranchesWithTheLatestAtTheHead() throws {
        let dirA = try TemporaryDirectory(), dirB = try TemporaryDirectory()
        defer { dirA.cleanup(); dirB.cleanup() }
        let a = try Workspace(directory: dirA.url), b = try Workspace(directory: dirB.url)
        try a.create(name: "m", canvasWidth: 80, height: 60, background: .white)
        try a.perform(.captions(top: "BASE", bottom: nil, style: TextStyleChanges()), on: "m")
        try Self.send(a, to: b)
        // Offline: a edits twice, then b edits, then a undoes (made last: it takes the head).
        try a.perform(.captions(top: "A1", bottom: nil, style: TextStyleChanges()), on: "m")
        try a.perform(.captions(top: "A2", bottom: nil, style: TextStyleChanges()), on: "m")
        Thread.sleep(forTimeInterval: 0.005)
        try b.perform(.captions(top: "B1", bottom: nil, style: TextStyleChanges()), on: "m")
        Thread.sleep(forTimeInterval: 0.005)
        try a.perform(.undo(steps: 1), on: "m")
        // Each gets the other's appends after its own: different stream orders.
        let pushedA = try a.lastSequence(), pushedB = try b.lastSequence()
        try Self.send(a, to: b, after: 4)
        try Self.send(b, to: a, after: 4)
        #expect(try a.lastSequence() > pushedA && b.lastSequence() > pushedB)

        #expect(try Self.tree(a, "m") == Self.tree(b, "m"))
        let headA = try a.creation(named: "m"), headB = try b.creation(named: "m")
        #expect(headA == headB)
        #expect(headA.layers.first?.text?.text == "A1", "a's undo, made last, is the head")
        // Opening the head from snapshots and tails agrees with the whole tree on both.
        #expect(try a.head(of: "m").state == a.history(of: "m").state)
        #expect(try b.head(of: "m").state == b.history(of: "m").state)
        // The base has two children: a's line and b's.
        let history = try a.history(of: "m")
        #expect(history.nodes.contains { $0.children.count == 2 })
        // Sending again stores nothing.
        let again = try b.sync.incoming(try a.sync.outgoing(after: 0, limit: 100_000).events) { _ in Data() }
        #expect(again.stored == 0 && again.skipped > 0)
    }

    /// Issue 30's defect 3, without a hub in between (an older hub stored such edits): an
    /// edit another machine made offline to a creation purged here is dropped, counted, and
    /// never stored beside the tombstones (verify used to stop at "a purged event is still
    /// indexed").
    @Test func anEditToACreationPurgedHereIsDroppedAndTheStoreStaysWhole() throws {
        let dirA = try TemporaryDirectory(), dirB = try TemporaryDirectory()
        defer { dirA.cleanup(); dirB.cleanup() }
        let a = try Workspace(directory: dirA.url), b = try Workspace(directory: dirB.url)
        try a.create(name: "x", canvasWidth: 40, height: 40, background: .white)
        try Self.send(a, to: b)
        _ = try a.purge("x")
        let before = try b.lastSequence()
        try b.perform(.captions(top: "OFFLINE", bottom: nil, style: TextStyleChanges()), on: "x")
        let page = try b.sync.outgoing(after: before, limit: 100)
        let result = try a.sync.incoming(page.events) { _ in Data() }
        #expect(result.stored == 0 && result.dropped == 1)
        #expect(try a.verify().isClean)
        #expect(try a.gallery().entries.isEmpty)
    }

    /// Issue 30's defect 5: A renames a creation to "mocha", B to "latte"; whatever order
    /// the two renames reach each store in, both end with the later one, and every name
    /// claim agrees with it.
    @Test func concurrentRenamesEndAlikeOnBothMachines() throws {
        let dirA = try TemporaryDirectory(), dirB = try TemporaryDirectory()
        defer { dirA.cleanup(); dirB.cleanup() }
        let a = try Workspace(directory: dirA.url), b = try Workspace(directory: dirB.url)
        try a.create(name: "cc", canvasWidth: 40, height: 40, background: .white)
        let shared = try Self.send(a, to: b)
        let sharedB = try b.lastSequence()
        try a.rename("cc", to: "mocha")
        Thread.sleep(forTimeInterval: 0.005)
        try b.rename("cc", to: "latte")  // made later: it wins
        try Self.send(a, to: b, after: shared)
        try Self.send(b, to: a, after: sharedB)
        #expect(try a.gallery().entries.map(\.name) == ["latte"])
        #expect(try b.gallery().entries.map(\.name) == ["latte"])
        for store in [a, b] {
            #expect(try store.history(of: "latte").nodes.count == 1)
            // "mocha" is free again, "cc" too; "latte" is taken.
            try store.create(name: "mocha", canvasWidth: 10, height: 10, background: .white)
            #expect(throws: (any Error).self) { try store.create(name: "latte", canvasWidth: 10, height: 10, background: .white) }
        }
    }

    /// Machines doing gallery changes and edits offline, exchanging their logs in a random
    /// order, end with the same gallery (names, trash, favourites, order) and histories.
    @Test(arguments: [1, 2, 3, 4, 5])
    func machinesChangingTheGalleryOfflineEndAlikeWhateverTheOrder(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let dirs = try (0..<3).map { _ in try TemporaryDirectory() }
        defer { dirs.forEach { $0.cleanup() } }
        let machines = try dirs.map { try Workspace(directory: $0.url) }
        for index in 0..<4 { try machines[0].create(name: "c\(index)", canvasWidth: 30, height: 30, background: .white) }
        for other in machines.dropFirst() { try Self.send(machines[0], to: other) }
        let names = ["mocha", "latte", "chai", "flat", "cortado"]
        for step in 0..<80 {
            let machine = machines[Int.random(in: 0..<3, using: &random)]
            if Int.random(in: 0..<5, using: &random) == 0 {
                try Self.send(machines[Int.random(in: 0..<3, using: &random)], to: machine)
                continue
            }
            let entries = try machine.gallery().all
            guard let entry = entries.randomElement(using: &random) else { continue }
            // Refusals (a name taken here, already in the trash) are part of the game.
            switch Int.random(in: 0..<6, using: &random) {
            case 0: _ = try? machine.rename(entry.name, to: names.randomElement(using: &random)! + "\(step % 3)")
            case 1: _ = try? (entry.trashed ? machine.restore(entry.name) : machine.trash(entry.name))
            case 2: _ = try? machine.setFavorite(entry.name, !entry.favorite)
            case 3: _ = try? machine.move(entry.name, to: Int.random(in: 0..<max(1, entries.count), using: &random))
            case 4: _ = try? machine.perform(.captions(top: "S\(step)", bottom: nil, style: TextStyleChanges()), on: entry.name)
            default: _ = try? machine.perform(.undo(steps: 1), on: entry.name)
            }
            if Int.random(in: 0..<4, using: &random) == 0 { Thread.sleep(forTimeInterval: 0.002) }
        }
        // Everyone gets everything, twice round (a suffix given while settling travels too).
        for _ in 0..<2 { for from in machines { for to in machines where to !== from { try Self.send(from, to: to) } } }
        func view(_ workspace: Workspace) throws -> [String] {
            try workspace.gallery().all.map { "\($0.name) trashed:\($0.trashed) favorite:\($0.favorite) rank:\($0.rank)" }
        }
        let first = try view(machines[0])
        for machine in machines.dropFirst() { #expect(try view(machine) == first, "seed \(seed)") }
        for entry in try machines[0].gallery().all {
            let tree = try Self.tree(machines[0], entry.name)
            for machine in machines.dropFirst() { #expect(try Self.tree(machine, entry.name) == tree, "\(entry.name), seed \(seed)") }
        }
        for machine in machines { #expect(try machine.verify().isClean) }
    }

    @Test func anAppendStampedAfterTheLatestEvenWhenTheClockIsBehind() {
        let latest = HistoryOrder(time: 2_000_000, id: UUID())
        let early = Date(timeIntervalSince1970: 1_000)
        #expect((HistoryOrder.stamp(now: early, after: latest).timeIntervalSince1970 * 1000).rounded() == 2_000_001)
        let late = Date(timeIntervalSince1970: 5_000)
        #expect(HistoryOrder.stamp(now: late, after: latest) == late)
    }

    @Test func aNameBothStoresGaveToDifferentCreationsEndsWithASuffixOnTheLaterOne() throws {
        let dirA = try TemporaryDirectory(), dirB = try TemporaryDirectory()
        defer { dirA.cleanup(); dirB.cleanup() }
        let a = try Workspace(directory: dirA.url), b = try Workspace(directory: dirB.url)
        try a.create(name: "cat", canvasWidth: 10, height: 10, background: .white)
        Thread.sleep(forTimeInterval: 0.005)
        try b.create(name: "Cat", canvasWidth: 20, height: 20, background: .white)
        let sentB = try b.lastSequence()
        let result = try b.sync.incoming(try a.sync.outgoing(after: 0, limit: 100).events) { _ in Data() }
        #expect(result.renamed.map(\.to) == ["Cat-2"])
        try Self.send(b, to: a, after: 0)
        #expect(sentB > 0)
        #expect(try a.gallery().all.map(\.name).sorted() == ["Cat-2", "cat"])
        #expect(try b.gallery().all.map(\.name).sorted() == ["Cat-2", "cat"])
        #expect(try a.creation(named: "Cat-2").canvas?.width == 20)
    }
}
