import Foundation
@testable import Memery
import MemeryCore
import MemeryHubProtocol
import MemeryTestSupport
import Testing

/// Two stores that exchange their logs as sync does (`outgoing` then `incoming`, no hub in
/// between) end with the same histories, heads and gallery, whichever order the appends
/// reached each store in.
@Suite struct SyncConvergenceTests {
    /// Everything `from` has after `sequence`, stored in `to`; the new sequence to send from.
    @discardableResult
    static func send(_ from: Workspace, to: Workspace, after sequence: UInt64 = 0) throws -> UInt64 {
        let page = try from.outgoing(after: sequence, limit: 100_000)
        _ = try to.incoming(page.events) { hash in try from.picture(hash) ?? Data() }
        return page.through
    }

    static func tree(_ workspace: Workspace, _ name: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: HistoryTreeText.json(try workspace.history(of: name)), options: [.sortedKeys]), as: UTF8.self)
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
        let again = try b.incoming(try a.outgoing(after: 0, limit: 100_000).events) { _ in Data() }
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
        let page = try b.outgoing(after: before, limit: 100)
        let result = try a.incoming(page.events) { _ in Data() }
        #expect(result.stored == 0 && result.dropped == 1)
        #expect(try a.verify().isClean)
        #expect(try a.gallery().entries.isEmpty)
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
        let result = try b.incoming(try a.outgoing(after: 0, limit: 100).events) { _ in Data() }
        #expect(result.renamed.map(\.to) == ["Cat-2"])
        try Self.send(b, to: a, after: 0)
        #expect(sentB > 0)
        #expect(try a.gallery().all.map(\.name).sorted() == ["Cat-2", "cat"])
        #expect(try b.gallery().all.map(\.name).sorted() == ["Cat-2", "cat"])
        #expect(try a.creation(named: "Cat-2").canvas?.width == 20)
    }
}
