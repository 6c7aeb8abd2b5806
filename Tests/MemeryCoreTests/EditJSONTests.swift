import Foundation
@testable import MemeryCore
import MemeryTestSupport
import Testing

@Suite struct EditJSONTests {
    func decode(_ line: String) throws -> AddressedEdit { try AddressedEdit.decode(jsonLine: line) }

    func refusal(_ line: String) -> String {
        do {
            _ = try decode(line)
            return "accepted"
        } catch {
            return String(describing: error)
        }
    }

    @Test func everyDocumentedExampleDecodesAndRoundTrips() throws {
        let examples = try DocumentedEdits.lines()
        #expect(examples.count >= 40, "docs/apply.md shows every op")
        var ops = Set<String>()
        for (file, line) in examples {
            let edit = try #require(try? decode(line), "\(file): \(line) — \(refusal(line))")
            ops.insert(edit.edit.op)
            // Encoding gives the canonical form, which decodes to the same edit.
            let encoded = try JSONEncoder().encode(edit)
            #expect(try JSONDecoder().decode(AddressedEdit.self, from: encoded) == edit, "\(line)")
        }
        #expect(ops == Set(Edit.ops), "ops without an example: \(Set(Edit.ops).subtracting(ops).sorted())")
    }

    @Test func boxesPointsAndSettingsReadInEveryWritingAsTheSameEdit() throws {
        let boxes = [#"{"op":"crop","box":"10,20,300,200"}"#, #"{"op":"crop","box":[10,20,300,200]}"#,
                     #"{"op":"crop","box":{"x":10,"y":20,"w":300,"h":200}}"#]
        for line in boxes { #expect(try decode(line).edit == .crop(Box(x: 10, y: 20, w: 300, h: 200)), "\(line)") }

        let strokes = [#"{"op":"draw","points":"1,2 3,4"}"#, #"{"op":"draw","points":[[1,2],[3,4]]}"#,
                       #"{"op":"draw","points":[{"x":1,"y":2},{"x":3,"y":4}]}"#]
        let points = [Point(x: 1, y: 2), Point(x: 3, y: 4)]
        for line in strokes {
            #expect(try decode(line).edit == .draw(points: points, width: 6, color: .black, erase: false, layer: nil), "\(line)")
        }

        let object = try decode(#"{"op":"layer set","id":"L1","set":{"x":40,"caps":false,"text":"hi"}}"#).edit
        let list = try decode(#"{"op":"layer set","id":"L1","set":["x=40","caps=false","text=hi"]}"#).edit
        guard case .setLayer(_, let typed) = object, case .setLayer(_, let texts) = list else { Issue.record("not layer set"); return }
        #expect(typed.map(\.description) == ["caps=false", "text=hi", "x=40"])
        #expect(texts.map(\.description) == ["caps=false", "text=hi", "x=40"])
        let repeated = try decode(#"{"op":"layer set","id":"L1","set":["x=2","a=1","x=1"]}"#)
        #expect(try JSONDecoder().decode(AddressedEdit.self, from: try JSONEncoder().encode(repeated)) == repeated, "the last x wins, still")
    }

    @Test func coloursByNameAndCaptionStylesAndTurnTargets() throws {
        let text = try decode(#"{"op":"text","top":"hi","color":"Gold","outline":"transparent","caps":false,"font":"Comic Neue"}"#)
        #expect(text.edit == .captions(top: "hi", bottom: nil, style: TextStyleChanges(font: "Comic Neue", fill: Color(red: 255, green: 215, blue: 0),
                                                                                     outline: Color(red: 0, green: 0, blue: 0, alpha: 0), uppercase: false)))
        #expect(try decode(#"{"op":"rotate","degrees":90,"picture":true}"#).edit == .rotate(degrees: 90, .picture))
        #expect(try decode(#"{"op":"flip","axis":"v","layer":"L2"}"#).edit == .flip(.v, .layer("L2")))
        #expect(refusal(#"{"op":"flip","axis":"v","layer":"L2","picture":true}"#).contains("not both"))
        #expect(try Color(parsing: "rebeccapurple") == Color(red: 0x66, green: 0x33, blue: 0x99))
        #expect(CSSColorNames.table.count == 148)
    }

    @Test func theCreationTravelsWithTheEdit() throws {
        let line = try decode(#"{"op":"text","creation":"drake","top":"hi"}"#)
        #expect(line == AddressedEdit(creation: "drake", edit: .captions(top: "hi", bottom: nil)))
        #expect(try decode(#"{"op":"undo"}"#).creation == nil)
        #expect(try decode(#"{"op":"unfavorite","creation":"x"}"#).edit == .favorite(false))
    }

    @Test(arguments: [
        (#"{"op":"crop","box":"0,0,10,10","boxx":1}"#, #""crop" takes no "boxx"; it takes: box"#),
        (#"{"op":"explode"}"#, #"unknown op "explode""#),
        (#"{"top":"x"}"#, #"no "op""#),
        (#"{"op":7}"#, #""op" must be a string"#),
        (#"[1,2]"#, "an edit is a JSON object"),
        (#"{"op":"text add"}"#, #""text add" needs "text""#),
        (#"{"op":"text"}"#, #""text" needs "top", "bottom" or both"#),
        (#"{"op":"rotate","degrees":"ninety"}"#, #""rotate" needs "degrees" as a number"#),
        (#"{"op":"undo","steps":1.5}"#, #""undo" needs "steps" as a whole number, got 1.5"#),
        (#"{"op":"move","to":1e300}"#, #"needs "to" as a whole number"#),
        (#"{"op":"crop","box":"a,b,c,d"}"#, #""a,b,c,d" is not a box"#),
        (#"{"op":"crop","box":[1,2,3]}"#, #""crop" needs "box" as "X,Y,W,H""#),
        (#"{"op":"flip","axis":"x"}"#, #""flip" needs "axis" as h or v"#),
        (#"{"op":"new","creation":"a","image":"a.png","canvas":"1x1"}"#, #""new" needs one of"#),
        (#"{"op":"new","creation":"a","canvas":"big"}"#, #""big" is not a canvas size"#),
        (#"{"op":"layer set","id":"L1","set":["x"]}"#, "written as KEY=VALUE"),
        (#"{"op":"checkout","event":0}"#, #""event" must be 1 or more"#),
        (#"{"op":"text","top":"x""#, "not a JSON object"),
    ])
    func badLinesAreRefusedWithTheirReason(line: String, reason: String) {
        let message = refusal(line)
        #expect(message.contains(reason), "\(line) → \(message)")
    }

    @Test func aLongUnknownOpIsShortenedInTheMessage() {
        let message = refusal(#"{"op":""# + String(repeating: "x", count: 10_000) + #""}"#)
        #expect(message.count < 700, "\(message.count) characters")
        #expect(message.contains("(10000 characters)"))
    }
}
