import Foundation
import Testing

@Suite struct VerifyCommandTests {
    @Test func cleanStorePrintsCountsAndExitsZero() throws {
        let s = try Sandbox()
        try s.ok(["quick", Paths.example, "--top", "a", "--bottom", "b", "-o", s.path("q.png")])
        #expect(try s.ok(["verify"]) == "format 3: 5 events in 2 streams, 1 blobs (240512 bytes), 1 names\nok")
    }

    @Test func flippedByteInACopyExitsThreeNamingTheFirstBadSequence() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["text", "m", "--top", "UNIQUE-MARKER-TEXT"])
        try s.ok(["text", "m", "--bottom", "after"])
        let copy = s.path("copy")
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: s.store + "/data.mdb"))
        var from = bytes.startIndex
        while let range = bytes.range(of: Data("UNIQUE-MARKER-TEXT".utf8), in: from..<bytes.endIndex) {
            bytes[range.lowerBound + 3] ^= 0x01
            from = range.upperBound
        }
        try bytes.write(to: URL(fileURLWithPath: copy + "/data.mdb"))
        let outcome = try Sandbox.run(["verify", "--store", copy])
        #expect(outcome.status == 3, "\(outcome)")
        #expect(outcome.stdout.contains("damaged: sequence 4: checksum mismatch"))
        #expect(outcome.stdout.contains("first bad sequence: 4"))
        // Reading the damaged creation is refused with exit 3 too, never shown half-right.
        let show = try Sandbox.run(["show", "m", "--store", copy])
        #expect(show.status == 3, "\(show)")
        #expect(show.stderr.contains("\"m\" is damaged at sequence 4: checksum mismatch"), "\(show)")
        // The original is untouched.
        #expect(try s.ok(["verify"]).hasSuffix("ok"))
    }

    /// Verify goes on past a problem (issue 30 §3): two creations damaged in two places
    /// are both reported, each once, by name; one problem no longer hides the next.
    @Test func everyProblemIsReportedOnceWithTheCreationItIsIn() throws {
        let s = try Sandbox()
        try s.ok(["new", "first", "--canvas", "40x40"])
        try s.ok(["text", "first", "--top", "FIRST-MARKER-TEXT"])
        try s.ok(["new", "second", "--canvas", "40x40"])
        try s.ok(["text", "second", "--top", "SECOND-MARKER-TEXT"])
        try s.ok(["new", "third", "--canvas", "40x40"])
        let copy = s.path("copy")
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: s.store + "/data.mdb"))
        for marker in ["FIRST-MARKER-TEXT", "SECOND-MARKER-TEXT"] {
            var from = bytes.startIndex
            while let range = bytes.range(of: Data(marker.utf8), in: from..<bytes.endIndex) {
                bytes[range.lowerBound + 3] ^= 0x01
                from = range.upperBound
            }
        }
        try bytes.write(to: URL(fileURLWithPath: copy + "/data.mdb"))
        let outcome = try Sandbox.run(["verify", "--store", copy])
        #expect(outcome.status == 3, "\(outcome)")
        let damaged = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("damaged: ") }
        #expect(damaged.count == 2, "\(outcome.stdout)")
        #expect(damaged.first?.contains("checksum mismatch (in \"first\")") == true, "\(outcome.stdout)")
        #expect(damaged.last?.contains("checksum mismatch (in \"second\")") == true, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("damaged creations: \"first\", \"second\""), "\(outcome.stdout)")
    }

    /// Issue 30's defect 13: one damaged byte in one caption no longer locks every creation.
    /// The others list, open and export; the damaged one is named wherever it is met; salvage
    /// copies everything readable into a new store and says what it left behind.
    @Test func damageStaysInItsCreationAndSalvageSavesTheRest() throws {
        let s = try Sandbox()
        try s.ok(["new", "hurt", "--canvas", "40x40"])
        try s.ok(["text", "hurt", "--top", "DAMAGED-MARKER-TEXT"])
        try s.ok(["new", "fine", "--image", Paths.example])
        try s.ok(["text", "fine", "--top", "still fine"])
        try s.ok(["export", "fine", "-o", s.path("before.png")])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: s.store + "/data.mdb"))
        var from = bytes.startIndex
        while let range = bytes.range(of: Data("DAMAGED-MARKER-TEXT".utf8), in: from..<bytes.endIndex) {
            bytes[range.lowerBound + 3] ^= 0x01
            from = range.upperBound
        }
        try bytes.write(to: URL(fileURLWithPath: s.store + "/data.mdb"))

        let list = try s.run(["list"])
        #expect(list.status == 3 && list.stdout.contains("fine\t451x300") && list.stdout.contains("hurt\tdamaged"), "\(list)")
        try s.ok(["export", "fine", "-o", s.path("after.png")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.path("after.png"))) == Data(contentsOf: URL(fileURLWithPath: s.path("before.png"))))
        let show = try s.run(["show", "hurt"])
        #expect(show.status == 3 && show.stderr.contains("\"hurt\" is damaged") && show.stderr.contains("memery salvage"), "\(show)")
        #expect(try s.run(["verify"]).stdout.contains("damaged creations: \"hurt\""))

        let copy = s.path("salvaged")
        let salvage = try s.run(["salvage", copy])
        #expect(salvage.status == 0 && salvage.stdout.contains("copied 1 creation") && salvage.stdout.contains("left behind: \"hurt\""), "\(salvage)")
        #expect(try Sandbox.run(["verify", "--store", copy]).stdout.hasSuffix("ok\n"))
        #expect(try Sandbox.run(["export", "fine", "-o", s.path("saved.png"), "--store", copy]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.path("saved.png"))) == Data(contentsOf: URL(fileURLWithPath: s.path("before.png"))))
        #expect(try Sandbox.run(["history", "fine", "--store", copy]).stdout.contains("still fine"))
        // Into a store that exists: refused, nothing touched.
        #expect(try s.run(["salvage", copy]).stderr.contains("already holds a store"))
    }
}
