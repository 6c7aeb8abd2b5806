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

    /// A turn or mirror of the picture alone is said as what it did (it was said as where the
    /// picture ended: "turned the picture alone to 180°, mirrored h" for a quarter turn).
    @Test func turnsOfThePictureAloneAreSaidAsWhatChanged() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["rotate", "m", "-90", "--picture"])
        try s.ok(["flip", "m", "h", "--picture"])
        try s.ok(["rotate", "m", "180", "--picture"])
        let lines = try s.ok(["history", "m"]).split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("turned the picture alone by -90° (now at -90°)") }, "\(lines)")
        #expect(lines.contains { $0.contains("mirrored the picture alone left to right") })
        // Mirroring turned -90° into 90°; a half turn more ends at -90° again.
        #expect(lines.contains { $0.contains("turned the picture alone by 180° (now at -90°)") })
        #expect(try s.ok(["undo", "m"]) == "at v4: mirrored the picture alone left to right")
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

    /// `--last N`: the edits leading to the head, where branches leave them, what redo
    /// would follow, and that more lies above; its JSON nodes are the whole tree's.
    @Test func historyLastShowsTheEditsLeadingToTheHead() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--canvas", "200x100"])                 // v1-2
        for text in ["a", "b", "c", "d"] { try s.ok(["text", "m", "--top", text]) }  // v3-6
        try s.ok(["undo", "m", "--steps", "2"])                        // v7, at v4
        try s.ok(["text", "m", "--top", "e"])                           // v8
        try s.ok(["text", "m", "--top", "f"])                           // v9
        try s.ok(["undo", "m"])                                          // v10, at v8
        let lines = try s.ok(["history", "m", "--last", "3"]).split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[0] == "⋮ earlier edits, up to v2 (without --last: the whole tree)")
        #expect(lines[1].hasPrefix("v3 ") && lines[1].hasSuffix("added top text L1 \"a\""))
        #expect(lines[2].hasPrefix("v4 ") && lines[2].hasSuffix("edited L1: text \"b\"   (+1 other branch from here)"))
        #expect(lines[3].hasPrefix("v8 ") && lines[3].hasSuffix("edited L1: text \"e\"   ← head (redo: v9)"))
        #expect(try s.ok(["history", "m", "--last", "9"]).split(separator: "\n").count == 4, "the line from its start: nothing above")

        let line = try #require(try s.json(["history", "m", "--last", "2", "--json"]) as? [String: Any])
        let tree = try #require(try s.json(["history", "m", "--json"]) as? [String: Any])
        #expect(line["head"] as? Int == 8 && line["events"] as? Int == 10 && line["before"] as? Int == 3 && line["name"] as? String == "m")
        let nodes = try #require(line["nodes"] as? [[String: Any]]), all = try #require(tree["nodes"] as? [[String: Any]])
        #expect(nodes.map { $0["version"] as? Int } == [4, 8])
        for node in nodes {
            let same = try #require(all.first { $0["version"] as? Int == node["version"] as? Int })
            #expect(NSDictionary(dictionary: node).isEqual(to: same), "\(node) is the tree's \(same)")
        }
        try s.ok(["checkout", "m", "--event", "4"])
        #expect(try s.ok(["history", "m", "--last", "1"]).hasSuffix("← head (redo: 2 branches, the newest v8)"))
        #expect(try s.ok(["history", "m", "--events", "--last", "2"]).split(separator: "\n").map { $0.prefix(4) } == ["v10\t", "v11\t"])
        try s.fails(["history", "m", "--last", "0"], status: 2, containing: "--last takes a number of edits, 1 or more (got 0)")
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

    /// Issue 30's defects 14 and 15: a time without a zone is local time (here Tokyo's, not
    /// UTC), read strictly; `--event` takes the numbers `history` shows, and says so when an
    /// event is part of a larger edit or is no edit at all.
    @Test func checkoutReadsLocalTimesStrictlyAndTakesTheNumbersHistoryShows() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--canvas", "60x40"])   // v2 (events 1 and 2)
        try s.ok(["text", "m", "--top", "first"])      // v3
        try s.ok(["text", "m", "--top", "second"])     // v4
        let history = try JSONSerialization.jsonObject(with: Data(s.ok(["history", "m", "--json"]).utf8)) as? [String: Any]
        let nodes = try #require(history?["nodes"] as? [[String: Any]])
        let times = nodes.compactMap { $0["time"] as? Int64 }
        try #require(times.count == 3)
        // Between v3 and v4, written as a person in Tokyo would: no zone, a space, milliseconds.
        let between = Date(timeIntervalSince1970: Double(times[1] + times[2]) / 2000)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Asia/Tokyo")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        let tokyo = ["TZ": "Asia/Tokyo"]
        let local = try s.run(["checkout", "m", "--at", formatter.string(from: between)], environment: tokyo)
        #expect(local.status == 0 && local.stdout.hasPrefix("at v3"), "\(local)")
        // The same words read in UTC would be nine hours later: v4.
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS"
        #expect(try s.run(["checkout", "m", formatter.string(from: between) + "+09:00"]).stdout.hasPrefix("at v3"))
        for bad in ["2026-11-25xyz", "2026-11-24 03:61", "2026-02-30"] {
            let refused = try s.run(["checkout", "m", "--at", bad], environment: tokyo)
            #expect(refused.status == 1 && refused.stderr.contains("\"\(bad)\" is not a time"), "\(refused)")
        }
        try s.ok(["checkout", "m", "v4"])
        try s.ok(["undo", "m"])                          // event 7: an undo (5 and 6 are the two checkouts that moved the head)
        #expect(try s.ok(["checkout", "m", "--event", "1"]) == "at v2: created \"m\"; blank 60x40 canvas (#ffffff)\nnote: v1 is part of the edit v2, which stores several events")
        try s.fails(["checkout", "m", "--event", "7"], containing: "v7 is an undo, not an edit: check out one of the versions `memery history` lists")
    }

    /// A caption can come from another device: its escape sequences, line breaks and
    /// bidirectional overrides are printed spelled out, never handed to the terminal.
    @Test func wordsPeopleWroteArePrintedEscaped() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2Jtop\nline\r\u{202E}evil \"q\" a\\b"
        let set = try s.ok(["text", "m", "--top", hostile])
        let spelled = #""\u{1B}]0;owned\u{7}\u{1B}[2Jtop\nline\r\u{202E}evil \"q\" a\\b""#
        #expect(set == "top\tL1\t" + spelled.dropFirst().dropLast(), "\(set)")
        for arguments in [["history", "m"], ["history", "m", "--last", "1"], ["history", "m", "--events"], ["layer", "list", "m"]] {
            let printed = try s.ok(arguments)
            let controls = printed.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F..<0xA0).contains($0.value) || $0 == "\u{202E}" }
            #expect(controls.isEmpty, "\(arguments): \(controls.map(\.value))")
            #expect(printed.contains(spelled), "\(arguments): \(printed)")
        }
        try s.ok(["undo", "m"])
        #expect(try s.ok(["redo", "m"]) == "at v3: added top text L1 \(spelled)")
        // The words themselves are kept as written: JSON carries them exactly.
        let detail = try #require(try s.json(["show", "m", "--json"]) as? [String: Any])
        #expect((detail["layers"] as? [[String: Any]])?.first?["text"] as? String == hostile)
    }
}
