import Foundation
import Testing

/// An SVG from the command line: a sticker on a meme and a meme of its own, kept as the
/// picture the decoding helper drew, so the store never holds a drawing to draw again.
@Suite struct SVGStickerTests {
    static let badge = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">
          <circle cx="5" cy="5" r="5" fill="#00a000"/>
        </svg>
        """

    @Test func anSVGIsASharpStickerAndAMemeOfItsOwn() throws {
        let s = try Sandbox()
        let file = s.path("badge.svg")
        try Data(Self.badge.utf8).write(to: URL(fileURLWithPath: file))
        try s.ok(["new", "m", "--image", Paths.example])
        let layer = try s.ok(["image", "add", "m", file])
        let detail = try #require(try s.json(["show", "m", "--json"]) as? [String: Any])
        let sticker = try #require((detail["layers"] as? [[String: Any]])?.first { $0["label"] as? String == layer })
        let image = try #require(sticker["image"] as? [String: Any])
        #expect(image["format"] as? String == "png" && image["width"] as? Int == 1024 && image["sourceName"] as? String == "badge.svg")
        try s.ok(["quick", file, "--top", "BADGE", "-o", s.path("quick.png")])
        let quick = try #require(try s.json(["show", "badge", "--json"]) as? [String: Any])
        #expect(quick["width"] as? Int == 1024 && quick["height"] as? Int == 1024)
        #expect(try s.ok(["verify"]).hasSuffix("ok"))
    }

    /// A drawing is drawn at least 1,024 px wide, which a small canvas cannot take at scale 1:
    /// the refusal names it and the scale that fits (it said "box width must be between 1
    /// and 800, got 1024").
    @Test func aStickerTooBigForTheCanvasSaysTheScaleThatFits() throws {
        let s = try Sandbox()
        let file = s.path("badge.svg")
        try Data(Self.badge.utf8).write(to: URL(fileURLWithPath: file))
        try s.ok(["new", "small", "--canvas", "200x100"])
        try s.fails(["image", "add", "small", file], containing: "badge.svg (1024x1024) would be more than 4 times the 200x100 canvas: add it smaller (scale 0.09 fits it in the canvas): add it with --scale 0.09")
        try s.ok(["image", "add", "small", file, "--scale", "0.09"])
    }

    @Test func aHostileSVGIsRefusedInPlainWordsAndTheStoreIsUnchanged() throws {
        let s = try Sandbox()
        let file = s.path("laughs.svg")
        let levels = (1...7).map { level in "<!ENTITY e\(level) \"" + String(repeating: "&e\(level - 1);", count: 16) + "\">" }
        let svg = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg [\n<!ENTITY e0 \"aaaaaaaaaaaaaaaa\">\n" + levels.joined(separator: "\n")
            + "\n]>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9\" height=\"9\"><text>&e7;</text></svg>"
        try Data(svg.utf8).write(to: URL(fileURLWithPath: file))
        try s.ok(["new", "m", "--image", Paths.example])
        let before = try s.counts()
        try s.fails(["new", "x", "--image", file], containing: "laughs.svg is a damaged SVG image: its XML expands entities without end")
        try s.fails(["image", "add", "m", file], containing: "its XML expands entities without end")
        #expect(try s.counts() == before)
    }
}
