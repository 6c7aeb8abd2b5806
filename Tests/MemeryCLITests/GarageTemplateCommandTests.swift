import Foundation
import Memery
import Testing

@Suite struct GarageTemplateCommandTests {
    @Test func garageImagesAreKeptOnceFoundAndUsed() throws {
        let s = try Sandbox()
        #expect(try s.ok(["garage", "list"]).contains("the garage is empty"))
        #expect(try s.ok(["garage", "add", Paths.example, "--tag", "cat", "--tag", "Cute"]) == "chelsea")
        try s.fails(["garage", "add", Paths.example], containing: "already in the garage as \"chelsea\"")
        let other = s.path("other.png")
        try s.ok(["new", "tmp", "--canvas", "30x20", "--background", "#336699"])
        try s.ok(["export", "tmp", "-o", other])
        #expect(try s.ok(["garage", "add", other, "--name", "Blue Box"]) == "Blue Box")
        #expect(try s.ok(["garage", "list", "--search", "cute"]).hasPrefix("chelsea\t451x300\tpng\t"))
        #expect(try s.ok(["garage", "list", "--search", "box"]).hasPrefix("Blue Box\t30x20"))
        #expect(try s.ok(["garage", "list", "--search", "zebra"]).contains("nothing matches"))
        let json = try #require(try s.json(["garage", "list", "--json"]) as? [[String: Any]])
        #expect(json.map { $0["name"] as? String } == ["chelsea", "Blue Box"])
        #expect(json[0]["tags"] as? [String] == ["cat", "Cute"])
        // Tags: added (one already there, in any case, stays as it was), taken off, searched.
        #expect(try s.ok(["garage", "tag", "chelsea", "CAT", "sleepy", "--remove", "cute"]) == "#cat #sleepy")
        #expect(try s.ok(["garage", "list", "--search", "sleepy"]).hasPrefix("chelsea\t"))
        #expect(try s.ok(["garage", "list", "--search", "cute"]).contains("nothing matches"))
        try s.fails(["garage", "tag", "nothing-here", "x"], containing: "nothing-here")
        let usage = try s.run(["garage", "tag", "chelsea"])
        #expect(usage.status == 2 && usage.stderr.contains("give tags to add"), "\(usage)")

        try s.ok(["new", "from-garage", "--garage", "CHELSEA"])
        #expect(try s.ok(["show", "from-garage"]).contains("canvas:  451x300"))
        #expect(try s.ok(["image", "add", "from-garage", "--garage", "blue box", "--at", "5,5"]) == "L1")
        try s.ok(["export", "from-garage", "-o", s.path("g.png")])
        let counts = try s.counts()
        #expect(counts.contains("2 blobs"), "each image is stored once: \(counts)")
        try s.fails(["new", "x", "--garage", "nope"], containing: "no image \"nope\" in the garage")
        try s.fails(["image", "add", "from-garage", "--garage", "nope"], containing: "no image \"nope\" in the garage")
        #expect(try s.run(["image", "add", "from-garage"]).status == 2)
        // Removing from the garage leaves the creations that use the image whole.
        try s.ok(["garage", "remove", "blue box"])
        try s.fails(["garage", "remove", "blue box"], containing: "no image \"blue box\"")
        try s.ok(["export", "from-garage", "-o", s.path("g2.png")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.path("g2.png"))) == Data(contentsOf: URL(fileURLWithPath: s.path("g.png"))))
        #expect(try s.ok(["verify"]).hasSuffix("ok"))
    }

    @Test func aTagWithAControlCharacterIsRefusedAndNothingIsAdded() throws {
        let s = try Sandbox()
        try s.fails(["garage", "add", Paths.example, "--tag", "ok", "--tag", "bad\u{1B}[2J"],
                    containing: #"the tag "bad\u{1B}[2J" cannot be used: it contains a control character"#)
        #expect(try s.ok(["garage", "list"]).contains("the garage is empty"))
        try s.ok(["garage", "add", Paths.example, "--tag", "cat"])
        try s.fails(["garage", "tag", "chelsea", "\u{202E}tac"], containing: "it contains a bidirectional override")
        try s.fails(["garage", "tag", "chelsea", String(repeating: "x", count: 101)], containing: "longer than 100 characters")
        #expect(try s.ok(["garage", "tag", "chelsea", "--remove", "cat"]) == "")
    }

    /// Names and tags can reach a store from another device (a sync) with anything in them:
    /// the lists print them escaped, JSON gives them exactly.
    @Test func namesAndTagsFromAnotherStoreArePrintedEscaped() throws {
        let a = try Sandbox(), b = try Sandbox()
        try a.ok(["new", "cc", "--canvas", "30x20"])
        try a.ok(["template", "save", "cc", "tpl"])
        try a.ok(["garage", "add", Paths.example, "--name", "pic", "--tag", "funny"])
        try a.ok(["new", "gone", "--canvas", "30x20"])
        try a.ok(["delete", "gone"])
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2Jx\ny \u{202E}\"q\""
        let spelled = #"\u{1B}]0;owned\u{7}\u{1B}[2Jx\ny \u{202E}"q""#
        let quotedJSON = String(decoding: try JSONEncoder().encode(hostile), as: UTF8.self)
        let from = try Workspace(directory: URL(fileURLWithPath: a.store)), to = try Workspace(directory: URL(fileURLWithPath: b.store))
        // As a device that wrote them without memery's checks would send them.
        let events = try from.sync.outgoing(after: 0, limit: 1_000).events.map { event in
            var changed = event
            for word in [#""cc""#, #""tpl""#, #""pic""#, #""funny""#, #""gone""#] {
                changed.payload = changed.payload.replacingOccurrences(of: word, with: quotedJSON.dropLast() + word.dropFirst())
            }
            return changed
        }
        _ = try to.sync.incoming(events) { hash in try from.sync.picture(hash) ?? Data() }
        for arguments in [["list"], ["trash"], ["garage", "list"], ["template", "list"]] {
            let printed = try b.ok(arguments)
            let controls = printed.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F..<0xA0).contains($0.value) || $0 == "\u{202E}" }
            #expect(controls.isEmpty, "\(arguments): \(controls.map(\.value))")
            #expect(printed.contains(spelled), "\(arguments): \(printed)")
        }
        #expect(try b.ok(["garage", "list"]).contains("#" + spelled + "funny"))
        let listed = try #require(try b.json(["garage", "list", "--json"]) as? [[String: Any]])
        #expect(listed.first?["tags"] as? [String] == [hostile + "funny"])
    }

    @Test func templatesStartNewCreationsWithTheirOwnCaptions() throws {
        let s = try Sandbox()
        #expect(try s.ok(["template", "list"]).contains("no templates yet"))
        try s.ok(["new", "drake", "--image", Paths.example])
        try s.ok(["text", "drake", "--top", "old top", "--bottom", "old bottom"])
        try s.ok(["text", "add", "drake", "side", "--box", "300,100,140,60", "--color", "#ffd400"])
        try s.ok(["shape", "add", "drake", "--rect", "1,1,10,10"])
        #expect(try s.ok(["template", "save", "drake", "Drake Format"]) == "Drake Format\t451x300\t3 text box(es)")
        try s.fails(["template", "save", "drake", "drake format"], containing: "a template named \"drake format\" already exists")
        let json = try #require(try s.json(["template", "list", "--json"]) as? [[String: Any]])
        #expect((json.first?["layers"] as? [[String: Any]])?.count == 3)

        try s.ok(["new", "mine", "--template", "drake format"])
        try s.ok(["text", "mine", "--top", "my top", "--bottom", "my bottom"])
        let layers = try #require(try s.json(["layer", "list", "mine", "--json"]) as? [[String: Any]])
        #expect(layers.map { $0["text"] as? String } == ["my top", "my bottom", "side"])
        #expect((layers[2]["style"] as? [String: Any])?["fill"] as? String == "#ffd400")
        // Undo goes back to the template's boxes as they came, and no further.
        try s.ok(["undo", "mine", "--steps", "2"])
        #expect(try s.ok(["show", "mine"]).contains("\"old top\""))
        try s.fails(["undo", "mine"], containing: "nothing to undo")
        try s.ok(["redo", "mine"])
        try s.ok(["export", "mine", "-o", s.path("mine.png")])
        // The template does not change when its creation does.
        try s.ok(["text", "drake", "--top", "changed later"])
        try s.ok(["new", "another", "--template", "Drake Format"])
        #expect(try s.ok(["show", "another"]).contains("\"old top\""))
        try s.fails(["new", "x", "--template", "none"], containing: "no template named \"none\"")
        #expect(try s.run(["new", "x", "--template", "a", "--canvas", "1x1"]).status == 2)
    }
}
