import Foundation
@testable import Memery
import MemeryCore
import MemeryTestSupport
import Testing

/// The typed answers keep the JSON clients read (`--json`, the editor's page, the OpenAPI
/// document): a field with no value is `null` where it always was, and left out where it
/// always was; keys sorted by their bytes, slashes unescaped, numbers as JSONSerialization
/// wrote them.
@Suite struct AnswerJSONTests {
    static func text(_ answer: some Encodable) throws -> String { String(decoding: try AnswerJSON.data(answer), as: UTF8.self) }

    @Test func aCreationListedAndWholeSaysWhatItAlwaysSaid() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "c", canvasWidth: 40, height: 30, background: .white)
        try workspace.setCaptions("c", top: "TOP", bottom: nil)
        try workspace.perform(.addShape(.ellipse, box: Box(x: 1, y: 2, w: 10, h: 5), fill: nil, alpha: 0.5, stroke: .black, strokeWidth: 2), on: "c")
        let head = try workspace.head(of: "c")
        let id = head.state.id.uuidString.lowercased()

        #expect(try Self.text(CreationSummary(head))
                == #"{"events":\#(head.streamVersion),"head":\#(head.headVersion ?? 0),"height":30,"id":"\#(id)","layers":2,"name":"c","width":40}"#,
                "a list's creation: the layer count, no gallery marks")
        let whole = try Self.text(CreationDetail(head, frames: 1).marked(try workspace.entry(named: "c")))
        #expect(whole.hasPrefix(##"{"background":"#ffffff","events":"##), "no base picture: left out; the background written")
        #expect(whole.contains(#""favorite":false,"filters":[],"head":4,"height":30,"#), "the gallery's marks; the layers listed")
        #expect(whole.contains(##""style":{"align":"center","fill":"#ffffff","font":"##), "a caption's style")
        #expect(whole.contains(#""outlineWidth":null"#), "an outline width never set is null")
        #expect(whole.contains(##""shape":{"alpha":0.5,"fill":null,"height":5,"kind":"ellipse","stroke":"#000000","strokeWidth":2,"width":10}"##))
        #expect(whole.contains(#""trashed":false"#) && !whole.contains(#""baseImage""#))
    }

    /// The compact answers are written by `SortedJSONEncoder`: byte for byte what Foundation's
    /// JSONEncoder writes with the same options, for a creation with captions, a shape, a
    /// drawing and text needing escapes, its history with a branch, an edit's result, a
    /// picture from the web, and a filter with parameters and a note.
    @Test func compactAnswersAreFoundationsBytes() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "c", canvasWidth: 64, height: 48, background: Color(red: 10, green: 20, blue: 30, alpha: 200))
        try workspace.setCaptions("c", top: "TOP \"quoted\" / slashed", bottom: "é 日本 😀")
        try workspace.perform(.addShape(.ellipse, box: Box(x: 1.5, y: 2, w: 10, h: 5), fill: nil, alpha: 0.25, stroke: .black, strokeWidth: 2), on: "c")
        try workspace.perform(.draw(points: [Point(x: 1, y: 2), Point(x: 3.25, y: 4)], width: 3, color: .white, erase: false, layer: nil), on: "c")
        try workspace.perform(.addText(text: "free\ttab", box: nil, style: TextStyleChanges()), on: "c")
        try workspace.perform(.undo(steps: 1), on: "c")
        try workspace.perform(.rotate(degrees: 90, .canvas), on: "c")
        let result = try workspace.perform(.addText(text: "branch", box: nil, style: TextStyleChanges()), on: "c")
        let head = try workspace.head(of: "c")
        let reference = JSONEncoder()
        reference.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func expectSame(_ answer: some Encodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try Self.text(answer) == String(decoding: try reference.encode(answer), as: UTF8.self), sourceLocation: sourceLocation)
        }
        try expectSame(CreationDetail(head, frames: 1).marked(try workspace.entry(named: "c")))
        try expectSame(CreationSummary(head))
        try expectSame(HistoryTreeAnswer(try workspace.history(of: "c")))
        try expectSame(result)
        #expect(try workspace.history(of: "c").nodes.contains { $0.children.count == 2 }, "the history has a branch")
        var image = BaseImage(blob: "ab", width: 2, height: 1, format: "png", sourceName: "a/b.png")
        image.origin = PictureOrigin(url: "https://example.org/a/b.png", title: "b", author: nil, licence: "CC0", licenceURL: nil, page: nil)
        try expectSame(PictureAnswer(image, frames: 3))
        var filter = AppliedFilterAnswer(AppliedFilter(id: "F1", filter: "memery.blur", target: .layer("L2"), paramVersion: 2, params: [:]), position: 1)
        filter.params = ["radius": "2.5", "B": "z", "a/b": "é", "Édge": "x", "paramVersion": "1"]
        filter.storedParamVersion = 1
        filter.note = "kept as \"stored\""
        try expectSame(filter)
    }

    /// A creation's detail is written by hand (`CreationDetail+Plain.swift`): for random
    /// creations of every kind of layer, odd numbers and strings needing escapes, with and
    /// without gallery marks, a head and a base picture, the same bytes as `SortedJSONEncoder`.
    @Test func aCreationsDetailIsWrittenByHandToTheEncodersBytes() throws {
        var random = SeededGenerator(seed: 35)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        func number() -> Double { pick([0, -0.0, 1, -1, 0.5, 1e-7, 5e-324, 1e15, 1e16, -2.5e30, 1.0 / 3, 100_000, 564.1000000000001]) }
        func text() -> String { pick(["", "L1", "ünï 🐈 cødé", "say \"cheese\" / a\\b", "tab\tnew\nline\u{1}\u{7F}\u{2028}"]) }
        func color() -> Color { Color(red: UInt8(random.next() & 0xff), green: UInt8(random.next() & 0xff), blue: UInt8(random.next() & 0xff), alpha: UInt8(random.next() & 0xff)) }
        func bool() -> Bool { random.next() % 2 == 0 }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { bool() ? value() : nil }
        func picture() -> BaseImage {
            BaseImage(blob: text(), width: Int(random.next() % 5000), height: Int(random.next() % 5000), format: text(), sourceName: maybe(text()),
                      origin: bool() ? PictureOrigin(url: text(), title: maybe(text()), author: maybe(text())) : nil)
        }
        func layer() -> Layer {
            let content: Layer.Content
            switch random.next() % 4 {
            case 0: content = .text(TextContent(role: pick(TextContent.Role.allCases), text: text(), width: number(), height: number(),
                                                style: TextStyle(font: text(), maxSize: number(), fill: color(), outline: color(), outlineWidth: maybe(number()),
                                                                 align: pick(TextStyle.Alignment.allCases), uppercase: bool())))
            case 1: content = .image(ImageContent(image: picture()))
            case 2: content = .shape(ShapeContent(kind: bool() ? .rect : .ellipse, width: number(), height: number(), fill: maybe(color()),
                                                  alpha: number(), stroke: maybe(color()), strokeWidth: number()))
            default: content = .drawing(DrawingContent(width: number(), height: number(), strokes: (0..<Int(random.next() % 3)).map { _ in
                Stroke(points: [Point(x: number(), y: number())], width: number(), color: color(), erase: bool())
            }))
            }
            return Layer(id: pick(["L1", "L2.9f1c", "L30"]), content: content,
                         transform: Transform(x: number(), y: number(), scale: number(), rotation: number(), flipH: bool(), flipV: bool()), opacity: number())
        }
        for round in 0..<40 {
            var state = Creation(id: UUID())
            state.name = text()
            state.canvas = maybe(Canvas(width: Int(random.next() % 20_000), height: Int(random.next() % 20_000), background: color()))
            state.baseImage = maybe(picture())
            state.layers = (0..<Int(random.next() % 30)).map { _ in layer() }
            state.filters = bool() ? [AppliedFilter(id: "F1", filter: "memery.blur", target: .base, paramVersion: 1, params: ["radius": .number(2.5)])] : []
            let head = CreationHead(state: state, streamVersion: random.next() % 100_000, headVersion: maybe(random.next() % 100_000), headEdit: nil, latest: nil)
            var detail = CreationDetail(head, frames: Int(random.next() % 3) + 1)
            detail.favorite = maybe(bool())
            detail.trashed = maybe(bool())
            (detail.canUndo, detail.canRedo) = (maybe(bool()), maybe(bool()))
            let expected = try SortedJSONEncoder().encode(detail)
            #expect(detail.plainJSON() == expected, "round \(round): \(String(decoding: expected, as: UTF8.self))")
            #expect(try AnswerJSON.data(detail) == expected)
        }
        // A number JSON cannot spell is refused as before, by the encoder, which names it.
        var state = Creation(id: UUID())
        state.layers = [Layer(id: "L1", content: .shape(ShapeContent(kind: .rect, width: 1, height: 1)), transform: Transform(x: .nan, y: 0))]
        let detail = CreationDetail(CreationHead(state: state, streamVersion: 1, headVersion: 1, headEdit: nil, latest: nil), frames: 1)
        #expect(detail.plainJSON() == nil)
        #expect(throws: (any Error).self) { try AnswerJSON.data(detail) }
    }

    @Test func anEditSaysNullWhenNothingWasStoredAndLeavesTheRestOut() throws {
        var result = EditResult(creation: "c")
        #expect(try Self.text(result) == #"{"creation":"c","seq":null}"#)
        result.sequence = 7
        result.version = 3
        result.head = (3, "captions")
        #expect(try Self.text(result) == #"{"creation":"c","head":{"summary":"captions","version":3},"seq":7,"version":3}"#)
    }

    @Test func aPictureFromTheWebKeepsItsSlashesAndItsNulls() throws {
        var image = BaseImage(blob: "ab", width: 2, height: 1, format: "png", sourceName: nil)
        image.origin = PictureOrigin(url: "https://example.org/a/b.png", title: "b", author: nil, licence: "CC0", licenceURL: nil, page: nil)
        #expect(try Self.text(PictureAnswer(image)) == #"{"blob":"ab","format":"png","height":1,"#
                + #""origin":{"author":null,"licence":"CC0","licenceURL":null,"page":null,"title":"b","url":"https://example.org/a/b.png"},"#
                + #""sourceName":null,"width":2}"#)
        #expect(try Self.text(FontFamily(name: "Anton", role: nil)) == #"{"name":"Anton"}"#, "a font's role: left out when it has none")
    }
}
