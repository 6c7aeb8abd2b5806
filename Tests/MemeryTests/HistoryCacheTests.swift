import Foundation
@testable import Memery
import MemeryCore
import MemeryTestSupport
import Testing

/// A history tree kept from the last look and extended by the appends after it is the tree
/// built from the start, whatever came in between: this process's edits, undos, another
/// process's edits, and a sync's appends sorted in before the newest.
@Suite struct HistoryCacheTests {
    static func json(_ history: CreationHistory) throws -> String {
        String(decoding: try AnswerJSON.data(HistoryTreeAnswer(history)), as: UTF8.self)
    }

    static func rebuilt(_ workspace: Workspace, _ name: String) throws -> String {
        var history = try workspace.creations.loadHistory(try workspace.entry(named: name).id).history
        history.name = name
        return try json(history)
    }

    @Test func aTreeExtendedEditByEditIsTheTreeBuiltFromTheStart() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "m", canvasWidth: 80, height: 60, background: .white)
        for i in 0..<30 {
            let edit: Edit = i % 7 == 6 ? .undo(steps: 2) : i % 11 == 10 ? .redo(branch: nil) : .captions(top: "edit \(i)", bottom: nil, style: TextStyleChanges())
            _ = try? workspace.perform(edit, on: "m")
            #expect(try Self.json(workspace.history(of: "m")) == Self.rebuilt(workspace, "m"), "after edit \(i)")
        }
        #expect(workspace.histories.statistics.built == 1, "built once, then extended: \(workspace.histories.statistics)")
        try workspace.perform(.rename(to: "renamed"), on: "m")
        #expect(try workspace.history(of: "renamed").state.name == "renamed", "the gallery's name, not the kept tree's")
    }

    @Test func appendsSortedInBeforeTheNewestBuildTheTreeAgain() throws {
        let dirA = try TemporaryDirectory(), dirB = try TemporaryDirectory()
        defer { dirA.cleanup(); dirB.cleanup() }
        let a = try Workspace(directory: dirA.url), b = try Workspace(directory: dirB.url)
        try a.create(name: "m", canvasWidth: 80, height: 60, background: .white)
        try a.perform(.captions(top: "BASE", bottom: nil, style: TextStyleChanges()), on: "m")
        try SyncConvergenceTests.send(a, to: b)
        // b edits first, a later; a has looked at its tree (kept) before b's edit arrives.
        try b.perform(.captions(top: "B1", bottom: nil, style: TextStyleChanges()), on: "m")
        Thread.sleep(forTimeInterval: 0.005)
        try a.perform(.captions(top: "A1", bottom: nil, style: TextStyleChanges()), on: "m")
        let seen = HistoryTreeAnswer(try a.history(of: "m"))
        _ = try b.history(of: "m")
        let (events, tip) = (seen.events, seen.tip)
        #expect(HistoryTreeAnswer(try a.history(of: "m"), since: events, tip: tip).since == events, "nothing new: an empty part")
        let built = a.histories.statistics.built
        try SyncConvergenceTests.send(b, to: a, after: 4)
        #expect(HistoryTreeAnswer(try a.history(of: "m"), since: events, tip: tip).since == nil,
                "b's edit sorted in before a page's part ends: the whole tree, not a part")
        try SyncConvergenceTests.send(a, to: b, after: 4)
        #expect(try Self.json(a.history(of: "m")) == Self.rebuilt(a, "m"), "b's edit sorts before a's: built again")
        #expect(a.histories.statistics.built == built + 1)
        #expect(try Self.json(a.history(of: "m")) == Self.json(b.history(of: "m")))
        #expect(try a.history(of: "m").nodes.contains { $0.children.count == 2 })
    }
}
