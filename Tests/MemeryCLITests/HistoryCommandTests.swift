import Foundation
import Testing

/// Undo, redo and checkout from the command line: every call is a new process, so each
/// step also proves the history survives the process that made it.
@Suite struct HistoryCommandTests {
    func texts(_ s: Sandbox, _ name: String) throws -> [String] {
        let detail = try #require(try s.json(["show", name, "--json"]) as? [String: Any])
        return (detail["layers"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }

    @Test func undoRedoAndBranchesAcrossProcesses() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])           // v1-2
        try s.ok(["text", "m", "--top", "one", "--bottom", "two"])  // v3-4
        try s.ok(["text", "m", "--top", "three"])                    // v5
        #expect(try s.ok(["undo", "m"]) == "at v4: added top text L1 \"one\"; added bottom text L2 \"two\"")
        #expect(try texts(s, "m") == ["one", "two"])
        try s.ok(["text", "add", "m", "branch"])                     // v7, a second branch
        #expect(try texts(s, "m") == ["one", "two", "branch"])
        #expect(try s.ok(["undo", "m", "--steps", "9"]).hasPrefix("at v2: created \"m\""))
        #expect(try texts(s, "m") == [])
        try s.fails(["undo", "m"], containing: "nothing to undo")
        try s.ok(["redo", "m"])
        #expect(try s.ok(["redo", "m", "--branch", "1"]) == "at v5: edited L1: text \"three\"")
        #expect(try texts(s, "m") == ["three", "two"])
        try s.fails(["redo", "m"], containing: "nothing to redo")
        try s.ok(["undo", "m"])
        try s.fails(["redo", "m", "--branch", "3"], containing: "branch must be between 1 and 2, got 3")
        try s.fails(["undo", "m", "--steps", "0"], containing: "steps must be between 1 and 1000000, got 0")
    }

    @Test func historyDrawsTheTreeWithTheHeadAndBranches() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["text", "m", "--top", "trunk"])
        try s.ok(["text", "m", "--bottom", "first"])
        try s.ok(["undo", "m"])
        try s.ok(["text", "m", "--bottom", "second"])
        let lines = try s.ok(["history", "m"]).split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(lines)")
        #expect(lines[0].hasPrefix("v2 ") && lines[0].contains("created \"m\"; imported chelsea.png"))
        #expect(lines[1].hasPrefix("v3 ") && lines[1].contains("added top text L1 \"trunk\""))
        #expect(lines[2] == "├ branch 1")
        #expect(lines[3].hasPrefix("│ v4 ") && !lines[3].contains("← head"))
        #expect(lines[4] == "└ branch 2")
        #expect(lines[5].hasPrefix("  v6 ") && lines[5].hasSuffix("added bottom text L2 \"second\"   ← head"))

        let tree = try #require(try s.json(["history", "m", "--json"]) as? [String: Any])
        #expect(tree["head"] as? Int == 6)
        #expect(tree["events"] as? Int == 6)
        let nodes = try #require(tree["nodes"] as? [[String: Any]])
        #expect(nodes.map { $0["version"] as? Int } == [2, 3, 4, 6])
        #expect(nodes[1]["children"] as? [Int] == [4, 6])
        #expect(nodes[3]["parent"] as? Int == 3)
        let moves = try #require(tree["moves"] as? [[String: Any]])
        #expect(moves.count == 1)
        #expect(moves[0]["cause"] as? String == "undo" && moves[0]["to"] as? Int == 3 && moves[0]["version"] as? Int == 5)
    }

    @Test func checkoutByEventAndTimeAndExportFollowsTheHead() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["text", "m", "--top", "first"])   // v3
        try s.ok(["export", "m", "-o", s.path("first.png")])
        try s.ok(["text", "m", "--top", "second"])  // v4
        try s.ok(["export", "m", "-o", s.path("second.png")])
        #expect(try s.ok(["checkout", "m", "--event", "3"]) == "at v3: added top text L1 \"first\"")
        try s.ok(["export", "m", "-o", s.path("back.png")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.path("back.png"))) == Data(contentsOf: URL(fileURLWithPath: s.path("first.png"))))
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.path("back.png"))) != Data(contentsOf: URL(fileURLWithPath: s.path("second.png"))))
        #expect(try s.ok(["checkout", "m", "--event", "v4"]).hasPrefix("at v4"))
        // The present, by time, is the head before this checkout moved it back: v4.
        try s.ok(["checkout", "m", "--event", "3"])
        #expect(try s.ok(["checkout", "m", "--at", "2027-01-01T00:00:00Z"]).hasPrefix("at v3"), "the head as it is now")
        #expect(try texts(s, "m") == ["first"])

        try s.fails(["checkout", "m", "--event", "99"], containing: "there is no event 99: this creation has events 1 to")
        try s.fails(["checkout", "m", "--event", "x1"], containing: "\"x1\" is not an event number")
        try s.fails(["checkout", "m", "--at", "1999-01-01T00:00:00Z"], containing: "the creation did not exist yet at 1999-01-01T00:00:00Z")
        try s.fails(["checkout", "m", "--at", "soonish"], containing: "\"soonish\" is not a time")
        // Without naming the option: `v4` or `4` is an event, anything else a time.
        #expect(try s.ok(["checkout", "m", "v4"]).hasPrefix("at v4"))
        #expect(try s.ok(["checkout", "m", "3"]).hasPrefix("at v3"))
        #expect(try s.ok(["checkout", "m", "2027-01-01T00:00:00Z"]).hasPrefix("at v3"))
        try s.fails(["checkout", "m", "soonish"], containing: "\"soonish\" is not a time")
        #expect(try s.run(["checkout", "m", "v3", "--event", "3"]).status == 2)
        #expect(try s.run(["checkout", "m"]).status == 2)
        #expect(try s.run(["checkout", "m", "--event", "3", "--at", "1m"]).status == 2)
    }
}
