import Foundation
import Testing
import MemeryRender

@Suite struct LayerCommandTests {
    func layers(_ s: Sandbox, _ name: String) throws -> [[String: Any]] {
        try #require(try s.json(["layer", "list", name, "--json"]) as? [[String: Any]])
    }

    @Test func blankCanvasStartsACreation() throws {
        let s = try Sandbox()
        try s.ok(["new", "blank", "--canvas", "320x200", "--background", "#ff0000"])
        #expect(try s.ok(["show", "blank"]).contains("image:   none, background #ff0000"))
        try s.ok(["text", "blank", "--top", "on red"])
        try s.ok(["export", "blank", "-o", s.path("b.png")])
        #expect(magic(s.path("b.png")) == [0x89, 0x50, 0x4e, 0x47])
        try s.fails(["new", "bad", "--canvas", "0x10"], containing: "canvas width must be between 1 and 20000, got 0")
        try s.fails(["new", "bad", "--canvas", "wide"], containing: "\"wide\" is not a canvas size")
        #expect(try s.run(["new", "both", "--canvas", "10x10", "--image", Paths.example]).status == 2)
        #expect(try s.run(["new", "neither"]).status == 2)
    }

    @Test func imageShapeAndDrawLayersAreAddedAndListed() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        #expect(try s.ok(["image", "add", "m", Paths.example, "--at", "-10,20", "--scale", "0.5", "--rotate", "-15",
                          "--opacity", "0.5", "--flip", "h"]) == "L1")
        #expect(try s.ok(["shape", "add", "m", "--rect", "10,10,100,50", "--fill", "#00ff00", "--alpha", "0.5",
                          "--stroke", "#000000", "--stroke-width", "4"]) == "L2")
        #expect(try s.ok(["shape", "add", "m", "--ellipse", "200,100,80,80", "--fill", "none", "--stroke", "#ffffff"]) == "L3")
        #expect(try s.ok(["draw", "m", "--points", "10,10 50,60 90,20", "--color", "#0000ff", "--width", "5"]) == "L4")
        #expect(try s.ok(["draw", "m", "--points", "40,40", "--erase"]) == "L4")
        #expect(try s.ok(["draw", "m", "--points", "5,5 6,6", "--layer", "L4"]) == "L4")

        let all = try layers(s, "m")
        #expect(all.map { $0["kind"] as? String } == ["image", "shape", "shape", "drawing"])
        #expect(all.map { $0["position"] as? Int } == [1, 2, 3, 4])
        let image = all[0]
        #expect(image["opacity"] as? Double == 0.5)
        let transform = try #require(image["transform"] as? [String: Any])
        #expect(transform["rotation"] as? Double == -15 && transform["flipH"] as? Bool == true && transform["scale"] as? Double == 0.5)
        #expect((image["image"] as? [String: Any])?["sourceName"] as? String == "chelsea.png")
        let rect = try #require(all[1]["shape"] as? [String: Any])
        #expect(rect["kind"] as? String == "rect" && rect["fill"] as? String == "#00ff00" && rect["strokeWidth"] as? Double == 4)
        let ellipse = try #require(all[2]["shape"] as? [String: Any])
        #expect(ellipse["fill"] is NSNull && ellipse["stroke"] as? String == "#ffffff")
        #expect(all[3]["strokes"] as? Int == 3 && all[3]["erasures"] as? Int == 1)
        let text = try s.ok(["layer", "list", "m"])
        #expect(text.contains("  1  L1  image chelsea.png 451x300  at "))
        // The picture the layers make can be exported; a sticker's blob is stored once.
        try s.ok(["export", "m", "-o", s.path("m.png")])
        #expect(try s.counts().contains("1 blobs"))
    }

    @Test func badLayerInputIsRefusedAndStoresNothing() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["text", "m", "--top", "t"])
        let before = try s.counts()
        try s.fails(["image", "add", "m", s.path("none.png")], containing: "cannot read")
        try s.fails(["image", "add", "m", Paths.example, "--opacity", "1.7"], containing: "opacity must be between 0 and 1, got 1.7")
        try s.fails(["image", "add", "m", Paths.example, "--at", "x"], containing: "\"x\" is not a point")
        try s.fails(["shape", "add", "m", "--rect", "1,2,3"], containing: "is not a box")
        try s.fails(["shape", "add", "m", "--rect", "1,2,3,4", "--fill", "purplish"], containing: "\"purplish\" is not a colour")
        try s.fails(["shape", "add", "m", "--ellipse", "1,2,3,4", "--alpha", "2"], containing: "alpha must be between 0 and 1, got 2")
        try s.fails(["draw", "m", "--points", "1,2 x,y"], containing: "\"x,y\" is not a point")
        try s.fails(["draw", "m", "--points", "1,2", "--erase"], containing: "there is no drawing layer to erase on")
        try s.fails(["draw", "m", "--points", "1,2", "--layer", "L1"], containing: "layer L1 is a text layer, not drawing")
        try s.fails(["draw", "m", "--points", "1,2", "--width", "0"], containing: "stroke width must be between 0.5 and 1000, got 0")
        #expect(try s.run(["shape", "add", "m"]).status == 2)
        #expect(try s.run(["shape", "add", "m", "--rect", "1,1,5,5", "--ellipse", "1,1,5,5"]).status == 2)
        #expect(try s.counts() == before)
    }

    @Test func layerSetRemoveMoveAndAt() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--canvas", "200x100"])
        try s.ok(["shape", "add", "m", "--rect", "0,0,100,100"])
        try s.ok(["shape", "add", "m", "--ellipse", "50,0,100,100", "--fill", "#000000"])
        try s.ok(["text", "add", "m", "hello", "--box", "120,10,70,30"])
        #expect(try s.ok(["layer", "at", "m", "10,50"]).contains("L1  rect"))
        #expect(try s.ok(["layer", "at", "m", "90,50"]).contains("L2  ellipse"))
        #expect(try s.ok(["layer", "at", "m", "150,20"]).contains("L3  text"))
        try s.fails(["layer", "at", "m", "195,95"], containing: "no layer at 195,95")
        try s.fails(["layer", "at", "m", "-5,20"], containing: "no layer at -5,20")

        #expect(try s.ok(["layer", "move", "m", "L2", "--back"]) == "1")
        #expect(try s.ok(["layer", "at", "m", "90,50"]).contains("L1  rect"), "the rect is on top now")
        #expect(try s.ok(["layer", "move", "m", "L2", "--to", "3"]) == "3")
        #expect(try s.ok(["layer", "move", "m", "L2", "--down"]) == "2")
        try s.fails(["layer", "move", "m", "L2", "--to", "9"], containing: "position must be between 1 and 3, got 9")
        #expect(try s.run(["layer", "move", "m", "L2"]).status == 2)
        #expect(try s.run(["layer", "move", "m", "L2", "--up", "--down"]).status == 2)

        let set = try s.ok(["layer", "set", "m", "L3", "text=bye", "x=100", "y=50", "rotation=90", "opacity=0.5", "color=#00ff00"])
        #expect(set.contains("\"bye\"") && set.contains("at 100,50") && set.contains("rotated 90°") && set.contains("opacity 0.50"))
        try s.fails(["layer", "set", "m", "L3", "fill=#fff"], containing: "layer L3 is a text layer, not shape")
        try s.fails(["layer", "set", "m", "L1", "opacity=-1"], containing: "opacity must be between 0 and 1, got -1")
        try s.fails(["layer", "set", "m", "L1", "sparkle=yes"], containing: "unknown key sparkle")
        try s.fails(["layer", "set", "m", "L9", "x=1"], containing: "no layer \"L9\"")

        try s.ok(["layer", "remove", "m", "L1"])
        #expect(try layers(s, "m").map { $0["label"] as? String } == ["L2", "L3"])
        try s.ok(["undo", "m"])
        #expect(try layers(s, "m").map { $0["label"] as? String } == ["L1", "L2", "L3"], "undo brings it back in its place")
        try s.fails(["layer", "remove", "m", "L9"], containing: "no layer \"L9\"")
    }

    @Test func cropRotateAndFlipTheCanvas() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        #expect(try s.ok(["rotate", "m", "90"]) == "300x451")
        #expect(try s.ok(["rotate", "m", "-90"]) == "451x300")
        #expect(try s.ok(["rotate", "m", "30"]) == "541x486")
        try s.ok(["undo", "m"])
        #expect(try s.ok(["flip", "m", "h"]) == "451x300")
        #expect(try s.ok(["crop", "m", "10,20,100,50"]) == "100x50")
        try s.ok(["export", "m", "-o", s.path("c.png")])
        try s.fails(["crop", "m", "50,0,100,10"], containing: "must lie inside the 100x50 canvas")
        try s.fails(["rotate", "m", "sideways"], containing: "\"sideways\" is not an angle")
        #expect(try s.run(["flip", "m", "d"]).status == 2)
        #expect(try s.run(["rotate", "m"]).status == 2)
        let history = try s.ok(["history", "m"])
        #expect(history.contains("rotated 30° (canvas 541x486)") && history.contains("flipped horizontally") && history.contains("cropped to 100x50 at 10,20"))
    }
}

/// `memery canvas extend` and `canvas fit`: the room is there in the exported pixels.
@Suite struct CanvasExtendCommandTests {
    @Test func extendAddsRoomInTheColourAndFitTrimsItAgain() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])  // 451x300
        try s.ok(["text", "m", "--bottom", "below"])
        #expect(try s.ok(["canvas", "extend", "m", "--top", "200"]) == "451x500")
        try s.ok(["export", "m", "-o", s.path("grown.png")])
        let (grown, _) = try ImageDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: s.path("grown.png"))), source: "grown.png")
        #expect(grown.width == 451 && grown.height == 500)
        let room = grown.pixel(x: 225, y: 100), picture = grown.pixel(x: 225, y: 300)
        #expect(room == (255, 255, 255, 255), "white room above a photo")
        #expect(picture != room)
        #expect(try s.ok(["canvas", "extend", "m", "--right", "49", "--background", "#ff0000"]) == "500x500")
        try s.ok(["export", "m", "-o", s.path("red.png")])
        let (red, _) = try ImageDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: s.path("red.png"))), source: "red.png")
        #expect(red.pixel(x: 480, y: 400) == (255, 0, 0, 255))
        // The bottom caption moved to the new bottom edge (the canvas's, as after a crop).
        let show = try s.ok(["show", "m"])
        #expect(show.contains("canvas:  500x500"), "\(show)")
        #expect(try s.ok(["canvas", "fit", "m"]) == "451x300", "fit trims back to the picture")
        let history = try s.ok(["history", "m"])
        #expect(history.contains("canvas grown 200 top") && history.contains("canvas grown 49 right"))
        try s.ok(["undo", "m"])
        #expect(try s.ok(["show", "m"]).contains("canvas:  500x500"))
    }

    @Test func aCanvasPastThePixelLimitIsRefusedNamingIt() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.fails(["canvas", "extend", "m", "--bottom", "3000"], containing: "over the limit of 1 megapixels",
                    environment: ["MEMERY_MAX_MEGAPIXELS": "1"])
        try s.fails(["canvas", "extend", "m", "--bottom=-3"], containing: "room on the bottom must be between 0 and 20000, got -3")
        #expect(try s.run(["canvas", "extend", "m"]).status == 2, "no side given")
        try s.fails(["canvas", "extend", "m", "--top", "5", "--background", "mauve-ish"], containing: "\"mauve-ish\" is not a colour")
        #expect(try s.ok(["show", "m"]).contains("canvas:  451x300"), "nothing refused was stored")
        #expect(try s.run(["apply", "m"], input: #"{"op":"canvas extend","bottom":100}"# + "\n").status == 0)
        #expect(try s.ok(["show", "m"]).contains("canvas:  451x400"))
    }
}

/// `memery image add NAME --emoji 😂`: a sticker the engine draws, stored with the creation.
@Suite struct EmojiStickerCommandTests {
    @Test func anEmojiStickerIsAnImageLayerWithItsOwnPicture() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--canvas", "400x400", "--background", "#000000"])
        #expect(try s.ok(["image", "add", "m", "--emoji", "🔥", "--at", "10,10"]) == "L1")
        let show = try #require(try s.json(["show", "m", "--json"]) as? [String: Any])
        let layer = try #require((show["layers"] as? [[String: Any]])?.first)
        let image = try #require(layer["image"] as? [String: Any])
        #expect(image["sourceName"] as? String == "emoji 🔥" && image["format"] as? String == "png")
        try s.ok(["export", "m", "-o", s.path("fire.png")])
        let (fire, _) = try ImageDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: s.path("fire.png"))), source: "fire.png")
        let drawn = (10..<260).flatMap { y in stride(from: 10, to: 260, by: 5).map { fire.pixel(x: $0, y: y) } }
        #expect(drawn.contains { $0.r > 200 && $0.g < 180 }, "orange flame on black")
        try s.fails(["image", "add", "m", "--emoji", "fire"], containing: "\"fire\" is not an emoji")
        #expect(try s.run(["image", "add", "m", "--emoji", "🔥", s.path("fire.png")]).status == 2, "an emoji or a file, not both")
        #expect(try s.run(["apply", "m"], input: #"{"op":"image add","emoji":"🐸","scale":0.5}"# + "\n").status == 0)
        #expect(try s.ok(["layer", "list", "m"]).components(separatedBy: "\n").count == 2)
    }

    @Test func theBundledStickersAreListedAndAddedByName() throws {
        let s = try Sandbox()
        let list = try s.run(["image", "stickers"], useStore: false)
        #expect(list.status == 0 && list.stdout.components(separatedBy: "\n") == ["deal-with-it", "red-arrow", "red-circle", "speech-bubble", ""], "\(list)")
        try s.ok(["new", "m", "--canvas", "500x400", "--background", "#ffffff"])
        #expect(try s.ok(["image", "add", "m", "--sticker", "red-circle", "--at", "40,50"]) == "L1")
        try s.ok(["export", "m", "-o", s.path("circled.png")])
        let (circled, _) = try ImageDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: s.path("circled.png"))), source: "circled.png")
        // The circle's left edge, 15 px into the 420x300 sticker and halfway down; white inside it.
        let edge = circled.pixel(x: 40 + 15, y: 50 + 150)
        #expect(edge.r > 200 && edge.g < 60 && edge.b < 60, "red ring: \(edge)")
        #expect(circled.pixel(x: 40 + 210, y: 50 + 150) == (255, 255, 255, 255), "transparent inside the ring")
        try s.fails(["image", "add", "m", "--sticker", "../../etc/passwd"], containing: "no bundled sticker \"../../etc/passwd\": there are deal-with-it")
    }
}
