import Foundation
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
