import Foundation
import Testing

@Suite struct TextCommandTests {
    func layers(_ s: Sandbox, _ name: String) throws -> [[String: Any]] {
        let detail = try #require(try s.json(["show", name, "--json"]) as? [String: Any])
        return try #require(detail["layers"] as? [[String: Any]])
    }

    @Test func captionsAreSetReplacedAndRemoved() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        #expect(try s.ok(["text", "m", "--top", "one does not simply", "--bottom", "write a meme engine"])
            == "top\tL1\tone does not simply\nbottom\tL2\twrite a meme engine")
        try s.ok(["text", "m", "--top", "replaced"])
        var all = try layers(s, "m")
        #expect(all.map { $0["text"] as? String } == ["replaced", "write a meme engine"])
        #expect(all.map { $0["role"] as? String } == ["top", "bottom"])
        try s.ok(["text", "m", "--bottom", ""])
        all = try layers(s, "m")
        #expect(all.map { $0["label"] as? String } == ["L1"])
        #expect((all[0]["id"] as? String)?.hasPrefix("L1.") == true, "the id: the label and a unique part")
        let usage = try s.run(["text", "m"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("give --top TEXT, --bottom TEXT or both"))
        #expect(usage.stderr.contains("Usage: memery text captions "), "the command's own usage: \(usage.stderr)")
        // An option it does not know is named, not taken for a missing caption.
        for arguments in [["text", "captions", "m", "--bad-flag"], ["text", "m", "--bad-flag"]] {
            let unknown = try s.run(arguments)
            #expect(unknown.status == 2)
            #expect(unknown.stderr.contains("Unknown option '--bad-flag'"), "\(unknown.stderr)")
        }
    }

    @Test func textAddTakesEveryStyleOption() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        let id = try s.ok(["text", "add", "m", "Hello there", "--box", "10,20,200,60", "--font", "DejaVu Sans",
                           "--size", "30", "--color", "#ff0000", "--outline", "#00ff0080", "--outline-width", "2",
                           "--align", "left", "--no-caps"])
        #expect(id == "L1")
        let layer = try #require(try layers(s, "m").first)
        #expect(layer["kind"] as? String == "text")
        #expect(layer["role"] as? String == "free")
        #expect(layer["text"] as? String == "Hello there")
        let box = try #require(layer["box"] as? [String: Double])
        #expect(box == ["x": 10, "y": 20, "w": 200, "h": 60])
        let style = try #require(layer["style"] as? [String: Any])
        #expect(style["font"] as? String == "DejaVu Sans")
        #expect(style["maxSize"] as? Double == 30)
        #expect(style["fill"] as? String == "#ff0000")
        #expect(style["outline"] as? String == "#00ff0080")
        #expect(style["outlineWidth"] as? Double == 2)
        #expect(style["align"] as? String == "left")
        #expect(style["uppercase"] as? Bool == false)
        #expect(try s.ok(["text", "add", "m", "second"]) == "L2")
    }

    @Test func badTextValuesAreRefusedAndNothingIsStored() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        let before = try s.counts()
        try s.fails(["text", "add", "m", "x", "--color", "reddish"], containing: "\"reddish\" is not a colour")
        try s.fails(["text", "add", "m", "x", "--outline", "#12"], containing: "is not a colour")
        try s.fails(["text", "add", "m", "x", "--box", "1,2,3"], containing: "\"1,2,3\" is not a box")
        try s.fails(["text", "add", "m", "x", "--box", "900,10,50,50"], containing: "does not overlap the 451x300 canvas")
        try s.fails(["text", "add", "m", "x", "--size", "5000"], containing: "error: size must be between 4 and 2000, got 5000")
        try s.fails(["text", "add", "m", "x", "--outline-width=-3"], containing: "outline width must be between 0 and 200, got -3")
        try s.fails(["text", "add", "m", ""], containing: "the text is empty")
        #expect(try s.counts() == before)
    }

    @Test func fontsListsTheFacesThatWorkAndMarksTheMemeFaces() throws {
        let s = try Sandbox()
        let listed = try s.ok(["fonts"]).split(separator: "\n").map(String.init)
        #expect(listed.contains { $0.hasPrefix("Bebas Neue") && $0.contains("the meme default") })
        #expect(listed.contains { $0.hasPrefix("Lato") && $0.contains("mixed-case") })
        #expect(listed.contains("Comic Neue"), "bootstrap installs the comic face")
        #expect(!listed.contains { $0.hasPrefix("Noto Color Emoji") }, "emoji alone cannot set a word")
        let json = try #require(try s.json(["fonts", "--json"]) as? [[String: Any]])
        #expect(json.count == listed.count)
    }

    @Test func anUnknownFontIsRefusedNamingTheClosestInstalledOnes() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        let before = try s.counts()
        try s.fails(["text", "m", "--top", "x", "--font", "Impact"],
                    containing: "no font named \"Impact\" is installed here: try Bebas Neue, Lato")
        try s.fails(["text", "add", "m", "x", "--font", "Comic Sans Nonexistent"], containing: "try Comic Neue")
        try s.fails(["quick", Paths.example, "--top", "x", "--font", "Nope Sans", "-o", s.path("q.png")], containing: "`memery fonts` lists them all")
        #expect(try s.counts() == before)
        // Any case, and a family's other names, as fontconfig knows them; stored as installed.
        try s.ok(["text", "m", "--top", "words", "--font", "comic neue", "--no-caps"])
        try s.ok(["text", "add", "m", "x", "--font", "DejaVu Sans Condensed"])
        let style = try #require(try layers(s, "m").first?["style"] as? [String: Any])
        #expect(style["font"] as? String == "Comic Neue")
        #expect(style["uppercase"] as? Bool == false)
        try s.fails(["layer", "set", "m", "L1", "font=Helvetica"], containing: "try Lato")
    }
}
