import Foundation
import Testing

@Suite struct NewListShowTests {
    @Test func newPrintsNameAndIdAndShowDescribesIt() throws {
        let s = try Sandbox()
        let line = try s.ok(["new", "Cat", "--image", Paths.example])
        let parts = line.split(separator: "\t")
        #expect(parts.count == 2)
        #expect(parts.first == "Cat")
        #expect(UUID(uuidString: String(parts.last ?? "")) != nil)

        let show = try s.ok(["show", "cat"])
        #expect(show.contains("canvas:  451x300"))
        #expect(show.contains("events:  2 (head at v2)"))
        #expect(show.contains("layers:  none"))

        let detail = try #require(try s.json(["show", "Cat", "--json"]) as? [String: Any])
        #expect(detail["name"] as? String == "Cat")
        #expect(detail["width"] as? Int == 451)
        #expect(detail["height"] as? Int == 300)
        #expect(detail["events"] as? Int == 2)
        let base = try #require(detail["baseImage"] as? [String: Any])
        #expect(base["format"] as? String == "png")
        #expect(base["sourceName"] as? String == "chelsea.png")
    }

    @Test func duplicateNameIsRefusedIgnoringCaseAndNothingIsStored() throws {
        let s = try Sandbox()
        try s.ok(["new", "Cat", "--image", Paths.example])
        let before = try s.counts()
        try s.fails(["new", "cAT", "--image", Paths.example], containing: "error: a creation named \"cAT\" already exists")
        #expect(try s.counts() == before)
        // Full case folding, and an accent typed as one character or two.
        try s.ok(["new", "Straße", "--canvas", "10x10"])
        try s.fails(["new", "STRASSE", "--canvas", "10x10"], containing: "a creation named \"STRASSE\" already exists")
        try s.ok(["new", "Caf\u{E9}", "--canvas", "10x10"])
        try s.fails(["new", "CAFE\u{301}", "--canvas", "10x10"], containing: "already exists")
        try s.fails(["rename", "Cat", "strasse"], containing: "already exists")
    }

    /// A store written by 0.1 is migrated by the first command that opens it, which says
    /// so in one line on stderr; the envelopes then carry ids and parents.
    @Test func aFormatOneStoreIsMigratedByTheFirstCommandWithOneLine() throws {
        let s = try Sandbox()
        try FileManager.default.createDirectory(atPath: s.store, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.root.appendingPathComponent("Tests/MemeryTests/Fixtures/format1/data.mdb").path,
                                         toPath: s.path("store/data.mdb"))
        let first = try s.run(["show", "drake"])
        #expect(first.status == 0, "\(first)")
        let lines = first.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("memery: the store \(s.store) was migrated from format 1 to format 3"), "\(first)")
        #expect(first.stderr.contains("\"STRASSE\" was renamed \"STRASSE-2\""))
        let second = try s.run(["list"])
        #expect(second.status == 0 && second.stderr.isEmpty, "\(second)")
        let log = try #require(try s.json(["history", "drake", "--events", "--json"]) as? [[String: Any]])
        #expect(log.allSatisfy { ($0["id"] as? String)?.count == 36 })
        #expect(log[2]["parent"] as? String == log[0]["id"] as? String, "the captions were made on the first edit")
        #expect(try s.ok(["verify"]).hasPrefix("format 3: 55 events (and 4 purged)"))
    }

    /// `memery new --image FILE` starts its picture's helper before the arguments are parsed
    /// (`PictureReadAheadAtStart`). Whatever form the arguments take, the creation is of the
    /// file the parser names, and arguments the parser refuses store nothing.
    @Test func thePictureReadBeforeTheArgumentsAreParsedIsTheOneTheParserNames() throws {
        let s = try Sandbox()
        try s.ok(["new", "blank", "--canvas", "20x10"])
        let small = s.path("small.png")
        try s.ok(["export", "blank", "-o", small])
        func size(_ name: String) throws -> String {
            try s.ok(["show", name]).split(separator: "\n").first { $0.hasPrefix("canvas:") }.map(String.init) ?? ""
        }
        try s.ok(["new", "equals", "--image=\(small)"])
        #expect(try size("equals").hasSuffix(" 20x10"))
        try s.ok(["new", "--image", small, "first"])
        #expect(try size("first").hasSuffix(" 20x10"))
        // Named twice: nothing starts early, and the parser's choice (the last) is the picture.
        try s.ok(["new", "twice", "--image", Paths.example, "--image", small])
        #expect(try size("twice").hasSuffix(" 20x10"))
        try s.ok(["new", "cat", "--image", small, "--image", Paths.example])
        #expect(try size("cat").hasSuffix(" 451x300"))
        let refused = try s.run(["new", "both", "--image", Paths.example, "--canvas", "3x3"])
        #expect(refused.status == 2 && refused.stderr.contains("give one of --image FILE"), "\(refused)")
        try s.fails(["new", "gone", "--image=\(s.path("nope.png"))"], containing: "cannot read \(s.path("nope.png")): no such file")
        let listed = try s.ok(["list"])
        #expect(!listed.contains("both") && !listed.contains("gone"), "\(listed)")
    }

    /// An option the command does not know is named first; the checks of options together
    /// come after it (argument-parser's validate() ran before, and said "give one of ...").
    @Test func anUnknownOptionIsNamedBeforeTheChecksOfOptionsTogether() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        for arguments in [["new", "a", "--blank"], ["flip", "m", "h", "--picture", "--layer", "L1", "--sideways"],
                          ["history", "m", "--last", "0", "--since", "x"], ["garage", "add", "--nope"]] {
            let unknown = try s.run(arguments)
            #expect(unknown.status == 2 && unknown.stderr.contains("Unknown option '\(arguments.last { $0.hasPrefix("--") }!)'"), "\(arguments): \(unknown)")
            #expect(!unknown.stderr.contains("give "), "\(arguments): \(unknown.stderr)")
        }
        // Without it, each check still speaks, with its command's usage.
        for (arguments, said, usage) in [(["new", "a"], "give one of --image FILE", "memery new "),
                                         (["rotate", "m", "90", "--picture", "--layer", "L1"], "give --picture or --layer, not both", "memery rotate "),
                                         (["flip", "m", "h", "--picture", "--layer", "L1"], "give --picture or --layer, not both", "memery flip "),
                                         (["new", "a", "--url", "http://127.0.0.1:9/x.png", "--max-download-mb", "0"], "--max-download-mb must be between 1 and 1024", "memery new "),
                                         (["history", "m", "--last", "0"], "--last takes a number of edits, 1 or more", "memery history ")] {
            let refused = try s.run(arguments)
            #expect(refused.status == 2 && refused.stderr.contains(said) && refused.stderr.contains("Usage: \(usage)"), "\(arguments): \(refused)")
        }
        #expect(try s.ok(["list"]).split(separator: "\n").count == 1, "nothing made")
    }

    @Test func badNamesAndMissingFilesAreRefused() throws {
        let s = try Sandbox()
        try s.fails(["new", " ", "--image", Paths.example], containing: "cannot be used")
        try s.fails(["new", "x", "--image", s.path("nope.png")], containing: "cannot read \(s.path("nope.png")): no such file")
        try s.fails(["new", "x", "--image", s.dir.path], containing: "cannot read")
        let run = try s.run(["new", "x"])
        #expect(run.status == 2, "a missing --image is a usage error: \(run)")
        #expect(run.stderr.contains("--image"))
        // A name typed with a leading '-' reads as an option: the message says so.
        let dashed = try s.run(["new", "-foo", "--canvas", "4x4"])
        #expect(dashed.status == 2 && dashed.stderr.contains("\"-foo\" was read as an option: a name cannot start with '-'"), "\(dashed)")
        #expect(!(try s.ok(["list"])).contains("foo"), "nothing was made")
    }

    @Test func listShowsTheGalleryAsTableAndJSON() throws {
        let s = try Sandbox()
        #expect(try s.ok(["list"]).contains("no creations yet"))
        try s.ok(["new", "one", "--image", Paths.example])
        try s.ok(["new", "two", "--image", Paths.example])
        try s.ok(["text", "two", "--top", "hi"])
        let lines = try s.ok(["list"]).split(separator: "\n")
        #expect(lines == ["one\t451x300\t0 layer(s)\t2 event(s)", "two\t451x300\t1 layer(s)\t3 event(s)"])
        let list = try #require(try s.json(["list", "--json"]) as? [[String: Any]])
        #expect(list.map { $0["name"] as? String } == ["one", "two"])
        #expect(list.map { $0["layers"] as? Int } == [0, 1])
    }

    @Test func unknownCreationIsAClearError() throws {
        let s = try Sandbox()
        try s.fails(["show", "ghost"], containing: "no creation named \"ghost\"")
        try s.fails(["text", "ghost", "--top", "x"], containing: "no creation named \"ghost\"")
        try s.fails(["export", "ghost", "-o", s.path("g.png")], containing: "no creation named \"ghost\"")
        try s.fails(["history", "ghost"], containing: "no creation named \"ghost\"")
    }

    @Test func historyListsEveryEventOldestFirst() throws {
        let s = try Sandbox()
        try s.ok(["new", "h", "--image", Paths.example])
        try s.ok(["text", "h", "--top", "one", "--bottom", "two"])
        try s.ok(["text", "h", "--top", ""])
        let lines = try s.ok(["history", "h", "--events"]).split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[0].contains("CreationCreated") && lines[0].hasPrefix("v1\t#1\t"))
        #expect(lines[1].contains("imported chelsea.png (png, 451x300)"))
        #expect(lines[4].contains("LayerRemoved") && lines[4].contains("removed L1"))
    }

    /// The envelopes are made only for `--json` now: the text and the JSON still name the
    /// same events at the same times, and the JSON still carries each payload whole.
    @Test func theLogAndTheEventsSayTheSameInTextAndInJSON() throws {
        let s = try Sandbox()
        try s.ok(["new", "h", "--image", Paths.example])
        try s.ok(["text", "h", "--top", "one", "--bottom", "two"])
        let text = try s.ok(["log"]).split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let json = try #require(try s.json(["log", "--json"]) as? [[String: Any]])
        try #require(text.count == json.count && text.count >= 5 && text.allSatisfy { $0.count == 5 }, "\(text)")
        // Whole seconds since 1970, written independently of the formatter under test.
        func second(_ millis: Any?) -> String {
            guard let millis = millis as? Int, millis >= 0 else { return "?" }
            return ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(millis / 1000)))
        }
        #expect(text.map { [$0[0], $0[1], $0[3], $0[4]] } == json.map {
            ["#\($0["seq"] as? Int ?? -1)", $0["creation"] as? String ?? "?", second($0["time"]), $0["type"] as? String ?? "?"]
        })
        let payloads = try json.map { entry in
            (entry["type"] as? String ?? "?", String(decoding: try JSONSerialization.data(withJSONObject: entry["payload"] ?? [:]), as: UTF8.self))
        }
        #expect(payloads.allSatisfy { $0.1 != "{}" }, "an envelope without its payload: \(payloads)")
        #expect(payloads.contains { $0.0 == "TextLayerAdded" && $0.1.contains("\"one\"") }, "\(payloads)")
        #expect(payloads.contains { $0.0 == "TextLayerAdded" && $0.1.contains("\"two\"") }, "\(payloads)")
        let events = try s.ok(["history", "h", "--events"]).split(separator: "\n").map { $0.split(separator: "\t") }
        let eventsJSON = try #require(try s.json(["history", "h", "--events", "--json"]) as? [[String: Any]])
        try #require(events.count == eventsJSON.count && events.allSatisfy { $0.count == 5 }, "\(events)")
        #expect(events.map { [String($0[2]), String($0[3])] } == eventsJSON.map { [second($0["time"]), $0["type"] as? String ?? "?"] })
    }
}

@Suite struct StoreLocationTests {
    @Test func storeComesFromFlagThenEnvironmentThenXDG() throws {
        let s = try Sandbox()
        let flag = s.path("flag"), env = s.path("env"), xdg = s.path("xdg")
        #expect(try Sandbox.run(["new", "a", "--image", Paths.example, "--store", flag],
                                environment: ["MEMERY_STORE": env, "XDG_DATA_HOME": xdg]).status == 0)
        #expect(try Sandbox.run(["new", "b", "--image", Paths.example],
                                environment: ["MEMERY_STORE": env, "XDG_DATA_HOME": xdg]).status == 0)
        #expect(try Sandbox.run(["new", "c", "--image", Paths.example], environment: ["XDG_DATA_HOME": xdg]).status == 0)
        #expect(try Sandbox.run(["new", "d", "--image", Paths.example], environment: ["XDG_DATA_HOME": "", "HOME": s.path("home")]).status == 0)
        for (dir, name) in [(flag, "a"), (env, "b"), (xdg + "/memery", "c"), (s.path("home") + "/.local/share/memery", "d")] {
            let list = try Sandbox.run(["list", "--store", dir])
            #expect(list.stdout.hasPrefix(name + "\t"), "\(dir): \(list)")
        }
    }

    @Test func storeThatIsAFileIsAClearError() throws {
        let s = try Sandbox()
        try Data("x".utf8).write(to: URL(fileURLWithPath: s.path("file")))
        let outcome = try Sandbox.run(["list", "--store", s.path("file")])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "error: cannot use store directory \(s.path("file")): it is a file, not a directory\n")
    }
}

@Suite struct UsageTests {
    @Test func helpSucceedsAndUsageErrorsExitTwo() throws {
        let help = try Sandbox.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("quick"))
        #expect(help.stdout.contains("Exit codes"))
        #expect(try Sandbox.run(["text", "add", "--help"]).stdout.contains("--outline-width"))
        let unknown = try Sandbox.run(["frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("Unexpected argument"))
        #expect(try Sandbox.run(["text", "x", "--align", "diagonal"]).status == 2)
    }
}
