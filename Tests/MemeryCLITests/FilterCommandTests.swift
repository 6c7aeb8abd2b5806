import Foundation
import Memery
import MemeryCore
import Testing

@Suite struct FilterCommandTests {
    @Test func listAndInfoDescribeTheBuiltIns() throws {
        let list = try Sandbox.run(["filter", "list"])
        #expect(list.status == 0 && list.stderr.isEmpty, "\(list)")
        #expect(list.stdout.split(separator: "\n").filter { $0.hasPrefix("org.memery.") }.count == 10)
        #expect(list.stdout.contains("frei0r.iir-blur\tIIR blur\tfrei0r\tamount=0.2 type=0.333344 edge=true"), "Debian's frei0r filters")
        #expect(list.stdout.contains("org.memery.gaussian-blur\tGaussian blur\tbuiltin\tradius=5"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try Sandbox.run(["filter", "list", "--json"]).stdout.utf8)) as? [[String: Any]])
        let fry = try #require(json.first { $0["id"] as? String == "org.memery.deep-fry" })
        #expect((fry["params"] as? [[String: Any]])?.map { $0["id"] as? String } == ["amount", "seed"])
        let info = try Sandbox.run(["filter", "info", "org.memery.vignette"])
        #expect(info.stdout.contains("radius=0.6  number 0.1…1.5 fraction"))
        let unknown = try Sandbox.run(["filter", "info", "org.memery.nope"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no filter \"org.memery.nope\" is installed"))
    }

    @Test func filtersAreAppliedChangedRemovedAndUndone() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["text", "m", "--top", "fried"])
        try s.ok(["export", "m", "-o", s.path("plain.png")])
        #expect(try s.ok(["filter", "apply", "m", "org.memery.deep-fry", "amount=0.9"]) == "1")
        #expect(try s.ok(["filter", "apply", "m", "org.memery.pixelate", "--layer", "L1", "size=4"]) == "2")
        #expect(try s.ok(["filter", "apply", "m", "org.memery.vignette", "--canvas"]) == "3")
        let show = try s.ok(["show", "m"])
        #expect(show.contains("filters: 3, in the order they apply"))
        #expect(show.contains("  1  F1  org.memery.deep-fry on base  amount=0.9 seed=42"))
        #expect(show.contains("  2  F2  org.memery.pixelate on layer L1  size=4"))
        try s.ok(["filter", "set", "m", "1", "amount=0.3"])
        #expect(try s.ok(["show", "m"]).contains("org.memery.deep-fry on base  amount=0.3 seed=42"))
        try s.ok(["export", "m", "-o", s.path("fried.png")])
        let plain = try Data(contentsOf: URL(fileURLWithPath: s.path("plain.png")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.path("fried.png"))) != plain)
        try s.ok(["filter", "remove", "m", "3"])
        try s.ok(["undo", "m", "--steps", "5"])
        try s.ok(["export", "m", "-o", s.path("undone.png")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.path("undone.png"))) == plain, "undo takes the filters away exactly")
        let history = try s.ok(["history", "m"])
        #expect(history.contains("filtered base with org.memery.deep-fry (F1)") && history.contains("removed filter F3"))
    }

    /// The built-ins and the host's conversions split pictures across threads (the blur in
    /// strips of 128 columns with margins): any number of threads gives the same bytes.
    @Test func filtersGiveTheSamePixelsOnOneThreadOrMany() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["filter", "apply", "m", "org.memery.gaussian-blur", "radius=30"])
        try s.ok(["filter", "apply", "m", "org.memery.sharpen", "radius=3"])
        try s.ok(["filter", "apply", "m", "org.memery.grayscale", "amount=0.7"])
        var exports = [Data]()
        for threads in ["1", "2", "3", "7"] {
            let file = s.path("t\(threads).png")
            let outcome = try s.run(["export", "m", "-o", file], environment: ["MEMERY_THREADS": threads])
            #expect(outcome.status == 0, "\(outcome)")
            exports.append(try Data(contentsOf: URL(fileURLWithPath: file)))
        }
        #expect(exports.allSatisfy { $0 == exports[0] }, "same bytes on 1, 2, 3 and 7 threads")
        let misspelt = try s.run(["export", "m", "-o", s.path("abc.png")], environment: ["MEMERY_THREADS": "abc"])
        #expect(misspelt.status == 0, "\(misspelt)")
        #expect(misspelt.stderr.hasPrefix("warning: MEMERY_THREADS=abc is not a number of threads from 1 to 64: using "), "\(misspelt.stderr)")
    }

    @Test func badFilterRequestsAreRefusedAndStoreNothing() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["text", "m", "--top", "t"])
        let before = try s.counts()
        try s.fails(["filter", "apply", "m", "org.memery.nope"], containing: "no filter \"org.memery.nope\" is installed")
        try s.fails(["filter", "apply", "m", "org.memery.sepia", "amount=2"], containing: "org.memery.sepia amount must be between 0 and 1, got 2")
        try s.fails(["filter", "apply", "m", "org.memery.sepia", "strength=1"], containing: "has no parameter \"strength\"; it takes: amount")
        try s.fails(["filter", "apply", "m", "org.memery.sepia", "amount"], containing: "written as KEY=VALUE")
        try s.fails(["filter", "apply", "m", "org.memery.sepia", "--layer", "L7"], containing: "no layer \"L7\"")
        try s.fails(["filter", "set", "m", "1", "amount=1"], containing: "this creation has no filters")
        try s.fails(["filter", "remove", "m", "1"], containing: "this creation has no filters")
        #expect(try s.run(["filter", "apply", "m", "org.memery.sepia", "--layer", "L1", "--canvas"]).status == 2)
        #expect(try s.counts() == before)
        try s.ok(["filter", "apply", "m", "org.memery.sepia"])
        try s.fails(["filter", "set", "m", "2", "amount=1"], containing: "filter position must be between 1 and 1, got 2")
    }

    @Test func aCreationWhosePluginIsMissingOpensButExportsOnlyWhenAsked() throws {
        let s = try Sandbox()
        let workspace = try Workspace(directory: URL(fileURLWithPath: s.store))
        try workspace.create(name: "m", imageAt: Paths.example)
        // As if made where a plugin was installed that is not here.
        try workspace.session("m").edit(.applyFilter(filter: "org.example.gone", target: .canvas, paramVersion: 1, params: ["x": .number(1)]))
        try workspace.session("m").edit(.applyFilter(filter: "org.memery.invert", target: .base, paramVersion: 1, params: [:]))
        #expect(try s.ok(["show", "m"]).contains("org.example.gone on canvas  x=1  (not installed)"))
        try s.fails(["export", "m", "-o", s.path("m.png")],
                    containing: "this creation uses filters that are not installed: org.example.gone; install their plugins, or export with --skip-missing-filters")
        #expect(!FileManager.default.fileExists(atPath: s.path("m.png")))
        try s.ok(["export", "m", "-o", s.path("m.png"), "--skip-missing-filters"])
        #expect(magic(s.path("m.png")) == [0x89, 0x50, 0x4e, 0x47])
        try s.ok(["text", "m", "--top", "still editable"])
    }
}
