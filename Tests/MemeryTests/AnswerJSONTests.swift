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
