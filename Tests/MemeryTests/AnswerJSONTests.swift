import Foundation
@testable import Memery
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
