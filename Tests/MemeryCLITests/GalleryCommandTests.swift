import Foundation
import Testing

@Suite struct GalleryCommandTests {
    func listed(_ s: Sandbox, _ extra: [String] = []) throws -> [String] {
        try s.ok(["list"] + extra).split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    func make(_ s: Sandbox, _ names: [String]) throws {
        for name in names { try s.ok(["new", name, "--canvas", "40x30"]) }
    }

    @Test func renameKeepsNamesUniqueAndTheHistory() throws {
        let s = try Sandbox()
        try make(s, ["cat", "dog"])
        try s.ok(["text", "cat", "--top", "meow"])
        #expect(try s.ok(["rename", "cat", "Kitty"]) == "Kitty")
        #expect(try listed(s) == ["Kitty", "dog"])
        #expect(try s.ok(["show", "kitty"]).contains("name:    Kitty"))
        #expect(try s.ok(["show", "kitty"]).contains("\"meow\""))
        try s.fails(["show", "cat"], containing: "no creation named \"cat\"")
        try s.fails(["rename", "kitty", "DOG"], containing: "a creation named \"DOG\" already exists")
        try s.fails(["rename", "kitty", " "], containing: "cannot be used")
        try s.ok(["rename", "kitty", "cat"])  // the old name was released
        try s.ok(["new", "Kitty", "--canvas", "4x4"])
    }

    /// A name of 10,000 characters is named in the error, not echoed whole.
    @Test func longNamesAreShortenedInMessages() throws {
        let s = try Sandbox()
        try make(s, ["a"])
        let long = String(repeating: "x", count: 10_000)
        for arguments in [["new", long, "--canvas", "4x4"], ["show", long], ["rename", "a", long]] {
            let outcome = try s.run(arguments)
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains("xxxxxxxx…"), "\(arguments[0])")
            #expect(outcome.stderr.count < 400, "\(arguments[0]): \(outcome.stderr.count) characters")
        }
    }

    @Test func deleteRestoreAndTheTrash() throws {
        let s = try Sandbox()
        try make(s, ["a", "b"])
        #expect(try s.ok(["trash"]) == "the trash is empty")
        try s.ok(["delete", "a"])
        #expect(try listed(s) == ["b"])
        #expect(try s.ok(["trash"]) == "a")
        let trash = try #require(try s.json(["trash", "--json"]) as? [[String: Any]])
        #expect(trash.map { $0["name"] as? String } == ["a"])
        try s.fails(["text", "a", "--top", "x"], containing: "\"a\" is in the trash: `memery restore a` first")
        try s.fails(["delete", "a"], containing: "already in the trash: `memery restore a` brings it back")
        try s.fails(["move", "a", "--to", "1"], containing: "\"a\" is in the trash")  // its name, not its UUID
        try s.fails(["new", "A", "--canvas", "4x4"], containing: "is in the trash: restore it, or purge it to use the name again")
        #expect(try s.ok(["show", "a"]).contains("name:    a"), "a trashed creation can still be looked at")
        try s.ok(["restore", "a"])
        #expect(try listed(s) == ["a", "b"])
        try s.fails(["restore", "a"], containing: "\"a\" is not in the trash")
        try s.ok(["text", "a", "--top", "back"])
    }

    @Test func purgeRemovesEverythingForGood() throws {
        let s = try Sandbox()
        try s.ok(["new", "keep", "--image", Paths.example])
        let other = s.path("other.png")
        try s.ok(["export", "keep", "-o", other, "--format", "png"])
        try s.ok(["new", "doomed", "--image", other])
        try s.ok(["text", "doomed", "--top", "SECRET-CAPTION"])
        let usage = try s.run(["purge", "doomed"])
        #expect(usage.status == 2 && usage.stderr.contains("add --yes"))
        let printed = try s.ok(["purge", "doomed", "--yes"])
        #expect(printed.hasPrefix("purged \"doomed\": 4 events, 1 images ("), "its history's 3 and its gallery membership's 1: \(printed)")
        #expect(try listed(s) == ["keep"])
        try s.fails(["show", "doomed"], containing: "no creation named \"doomed\"")
        let log = try s.ok(["log", "--json"])
        #expect(!log.contains("SECRET-CAPTION") && !log.contains("doomed"), "neither its words nor its name stay")
        let verify = try s.ok(["verify"])
        #expect(verify.contains("(and 4 purged)") && verify.contains("1 blobs") && verify.hasSuffix("ok"), "\(verify)")
        try s.ok(["new", "doomed", "--canvas", "4x4"])  // the name is free again
        try s.fails(["purge", "ghost", "--yes"], containing: "no creation named \"ghost\"")
    }

    @Test func favouritesOrderAndRandom() throws {
        let s = try Sandbox()
        try s.fails(["random"], containing: "the gallery is empty")
        try make(s, ["a", "b", "c"])
        try s.ok(["favorite", "c"])
        try s.ok(["favorite", "a"])
        try s.ok(["unfavorite", "a"])
        #expect(try listed(s, ["--favorites"]) == ["c"])
        #expect(try s.ok(["list"]).contains("c\t40x30\t0 layer(s)\t2 event(s)\t★"))
        let json = try #require(try s.json(["list", "--json"]) as? [[String: Any]])
        #expect(json.map { $0["favorite"] as? Bool } == [false, false, true])
        try s.ok(["move", "c", "--to", "1"])
        #expect(try listed(s) == ["c", "a", "b"])
        try s.ok(["move", "c", "--to", "3"])
        #expect(try listed(s) == ["a", "b", "c"])
        try s.fails(["move", "c", "--to", "4"], containing: "position must be between 1 and 3, got 4")
        var seen = Set<String>()
        for _ in 0..<40 { seen.insert(try s.ok(["random"])) }
        #expect(seen == ["a", "b", "c"], "forty picks of three miss one with odds of about 1 in 3 million")
    }
}
