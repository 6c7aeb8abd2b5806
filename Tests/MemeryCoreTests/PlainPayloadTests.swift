import Foundation
import Testing
@testable import MemeryCore
import MemeryTestSupport

/// The frequent payloads are read without Codable (`PlainPayloadReader`). These tests hold
/// that reading to Codable's: the same event for every payload it takes, and every payload it
/// does not take left to Codable.
@Suite struct PlainPayloadTests {
    static let style = TextStyle(font: "Lato", maxSize: 48.5, fill: Color(red: 1, green: 2, blue: 3, alpha: 4),
                                 outline: .black, outlineWidth: 2.25, align: .left, uppercase: false)

    /// One or more of each type the plain reader takes, with and without their optional parts.
    static let samples: [CreationEvent] = [
        .textLayerEdited(.init(id: "L1", text: "edit 12")),
        .textLayerEdited(.init(id: "L2.9f1c04e2b7a35d60", text: "Ünïcødé 🐈 text, long enough to be no small string at all",
                               box: Box(x: -0.0, y: 1e-300, w: 564.1000000000001, h: 1e300), style: style)),
        .textLayerEdited(.init(id: "L3", style: TextStyle(maxSize: 4))),
        .textLayerEdited(.init(id: "L4", box: Box(x: 1, y: 2, w: 3, h: 4))),
        .layerChanged(.init(id: "L1", transform: Transform(x: 10.5, y: -3, scale: 0.01, rotation: 359.999, flipH: true, flipV: false))),
        .layerChanged(.init(id: "L5", opacity: 0.3)),
        .layerChanged(.init(id: "L6", shape: ShapeContent(kind: .ellipse, width: 20, height: 30, fill: nil, alpha: 0.5,
                                                          stroke: Color(red: 9, green: 8, blue: 7, alpha: 255), strokeWidth: 3))),
        .layerChanged(.init(id: "L7", transform: Transform(x: 0, y: 0), opacity: 1,
                            shape: ShapeContent(kind: .rect, width: 1, height: 1))),
        .strokeAdded(.init(id: "L8", stroke: Stroke(points: [Point(x: 1, y: 2), Point(x: 3.5, y: -4.25)], width: 0.5,
                                                    color: Color(red: 200, green: 100, blue: 50, alpha: 128), erase: true))),
        .strokeAdded(.init(id: "L8", stroke: Stroke(points: [], width: 1000, color: .white))),
        .headMoved(.init(to: UUID(uuidString: "0190F3A1-0000-7000-8000-00000000002A")!, cause: .undo)),
        .headMoved(.init(to: UUID(), cause: .checkout)),
        .layerRemoved(.init(id: "L9")),
        .filterRemoved(.init(id: "F1.0c9e")),
        .layerReordered(.init(id: "L1", index: 0)),
        .layerReordered(.init(id: "L1", index: Int.max)),
        .baseImageMoved(.init(transform: Transform(x: 225.5, y: 150, scale: 2, rotation: 90, flipH: false, flipV: true))),
        .canvasCropped(.init(x: 0, y: -5, width: 451, height: 300)),
        .canvasRotated(.init(degrees: -45.5, width: 10, height: 12)),
        .canvasFlipped(.init(axis: .v)),
        .canvasCreated(.init(width: 800, height: 600, background: Color(red: 0, green: 0, blue: 0, alpha: 0))),
        .created(.init(id: UUID(), name: "cat")),
    ]

    @Test(arguments: samples)
    func aPayloadAsThisBuildWritesItIsReadPlainlyAndAsCodableReadsIt(_ event: CreationEvent) throws {
        let payload = try event.encodedPayload()
        let plain = try #require(CreationEvent.plainDecode(type: event.type, schemaVersion: event.schemaVersion, payload: payload),
                                 "the plain reader declined \(String(decoding: payload, as: UTF8.self))")
        #expect(plain == event)
        #expect(plain == (try CreationEvent.codableDecode(type: event.type, schemaVersion: event.schemaVersion, payload: payload)))
        #expect(try plain.encodedPayload() == payload)  // bit for bit: a negative zero stays one
    }

    /// A borrowed record's type and payload, read in place, decode as their copies do:
    /// plainly, through Codable (an older version, another spelling), or to the same error.
    @Test func aTypeAndPayloadReadInPlaceDecodeAsTheirCopiesDo() throws {
        var cases = try Self.samples.map { ($0.type, $0.schemaVersion, try $0.encodedPayload()) }
        cases += [("TextLayerEdited", 1, Data(#"{"\u0069d":"L1","text":"escaped key"}"#.utf8)),
                  ("TextLayerAdded", 1, Data(#"{"layer":{"id":"L1","text":"v1","top":true}}"#.utf8)),
                  ("NoSuchType", 1, Data("{}".utf8)), ("TextLayerEdited", 9, Data(#"{"id":"L1"}"#.utf8)),
                  ("TextLayerEdited", 1, Data(#"{"text":"no id"}"#.utf8))]
        for (type, version, payload) in cases {
            let copied = Result { try CreationEvent.decode(type: type, schemaVersion: version, payload: payload) }
            let inPlace = Result {
                try Array(type.utf8).withUnsafeBytes { type in
                    try payload.withUnsafeBytes { try CreationEvent.decode(typeUTF8: type, schemaVersion: version, payload: $0) }
                }
            }
            switch (copied, inPlace) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(type) \(version)")
            case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", "\(type) \(version)")
            default: Issue.record("\(type) \(version): \(copied) against \(inPlace)")
            }
        }
    }

    @Test(arguments: samples)
    func aPayloadIsWrittenPlainlyToCodablesBytes(_ event: CreationEvent) throws {
        let plain = try #require(event.plainEncodedPayload(), "the plain writer declined \(event)")
        let codable = try event.codableEncodedPayload()
        #expect(plain == codable, "\(String(decoding: plain, as: UTF8.self)) against \(String(decoding: codable, as: UTF8.self))")
    }

    /// Random values of every type the plain writer takes: awkward numbers, strings that need
    /// escapes, each optional part there or not. The bytes must be SortedJSONEncoder's.
    @Test func randomEventsAreWrittenPlainlyToCodablesBytes() throws {
        var random = SeededGenerator(seed: 35)
        let numbers: [Double] = [0, -0.0, 1, -1, 0.5, 1e-7, 5e-324, 1e15, 1e15 - 1, 1e16, -1e17, 123456789.125, -2.5e300, 1.0 / 3, 100_000]
        let texts = ["", "L1", "say \"cheese\"", "back\\slash", "tab\tnew\nline\u{1}", "ünï 🐈 cødé", "/slash/", "del\u{7F} ls\u{2028}",
                     String(repeating: "x", count: 300)]
        func number() -> Double { random.next() % 4 == 0 ? Double(Int64(bitPattern: random.next()) % 100_000) / 7 : numbers[Int(random.next() % UInt64(numbers.count))] }
        func text() -> String { texts[Int(random.next() % UInt64(texts.count))] }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { random.next() % 2 == 0 ? value() : nil }
        func color() -> Color { Color(red: UInt8(random.next() & 0xff), green: UInt8(random.next() & 0xff), blue: UInt8(random.next() & 0xff), alpha: random.next() % 2 == 0 ? 255 : UInt8(random.next() & 0xff)) }
        func bool() -> Bool { random.next() % 2 == 0 }
        func transform() -> Transform { Transform(x: number(), y: number(), scale: number(), rotation: number(), flipH: bool(), flipV: bool()) }
        for _ in 0..<500 {
            let events: [CreationEvent] = [
                .textLayerEdited(.init(id: text(), text: maybe(text()), box: maybe(Box(x: number(), y: number(), w: number(), h: number())),
                                       style: maybe(TextStyle(font: text(), maxSize: number(), fill: color(), outline: color(), outlineWidth: maybe(number()),
                                                              align: TextStyle.Alignment.allCases[Int(random.next() % 3)], uppercase: bool())))),
                .layerChanged(.init(id: text(), transform: maybe(transform()), opacity: maybe(number()),
                                    shape: maybe(ShapeContent(kind: bool() ? .rect : .ellipse, width: number(), height: number(), fill: maybe(color()),
                                                              alpha: number(), stroke: maybe(color()), strokeWidth: number())))),
                .strokeAdded(.init(id: text(), stroke: Stroke(points: (0..<Int(random.next() % 4)).map { _ in Point(x: number(), y: number()) },
                                                              width: number(), color: color(), erase: bool()))),
                .headMoved(.init(to: UUID(), cause: [.undo, .redo, .checkout][Int(random.next() % 3)])),
                .layerRemoved(.init(id: text())), .filterRemoved(.init(id: text())),
                .layerReordered(.init(id: text(), index: random.next() % 50 == 0 ? Int.min : Int(Int64(bitPattern: random.next()) >> Int(random.next() % 64)))),
                .baseImageMoved(.init(transform: transform())),
                .canvasCropped(.init(x: Int(random.next() % 9) - 4, y: Int(random.next() % 5000), width: Int(random.next() % 5000), height: -7)),
                .canvasRotated(.init(degrees: number(), width: Int(random.next() % 5000), height: Int(random.next() % 5000))),
                .canvasFlipped(.init(axis: bool() ? .h : .v)),
                .canvasCreated(.init(width: Int(random.next() % 20_000), height: Int(random.next() % 20_000), background: color())),
                .created(.init(id: UUID(), name: text())),
            ]
            for event in events {
                let plain = try #require(event.plainEncodedPayload())
                let codable = try event.codableEncodedPayload()
                #expect(plain == codable, "\(String(decoding: plain, as: UTF8.self)) against \(String(decoding: codable, as: UTF8.self))")
                #expect(try CreationEvent.decode(type: event.type, schemaVersion: event.schemaVersion, payload: plain).codableEncodedPayload() == codable)
            }
        }
    }

    @Test func aNumberJSONCannotSpellIsLeftToCodableWhichNamesIt() {
        for value in [Double.nan, .infinity, -.infinity] {
            let events: [CreationEvent] = [
                .layerChanged(.init(id: "L1", opacity: value)),
                .layerChanged(.init(id: "L1", transform: Transform(x: 1, y: 2, rotation: value))),
                .layerChanged(.init(id: "L1", shape: ShapeContent(kind: .rect, width: 1, height: 1, strokeWidth: value))),
                .textLayerEdited(.init(id: "L1", box: Box(x: 0, y: value, w: 1, h: 1))),
                .textLayerEdited(.init(id: "L1", style: TextStyle(maxSize: 10, outlineWidth: value))),
                .strokeAdded(.init(id: "L1", stroke: Stroke(points: [Point(x: 1, y: 1), Point(x: value, y: 1)], width: 1, color: .white))),
                .canvasRotated(.init(degrees: value, width: 1, height: 1)),
            ]
            for event in events {
                #expect(event.plainEncodedPayload() == nil, "\(event)")
                #expect(throws: EncodingError.self) { try event.encodedPayload() }
            }
        }
    }

    /// Each of these is valid, and Codable reads it; the plain reader must leave it to Codable.
    @Test(arguments: [
        ("TextLayerEdited", #"{"id":"L1","text":null}"#),                    // a null for a missing value
        ("TextLayerEdited", #"{"id":"L1","text":"a","later":[1,{"x":2}]}"#),  // a key from a newer build
        ("TextLayerEdited", #"{"id":"L1","text":"first","text":"second"}"#),  // a key twice: Codable keeps the first
        ("TextLayerEdited", #"{"id":"L1","text":"say \"cheese\""}"#),         // an escape
        ("TextLayerEdited", #"{"id":"L\u0031"}"#),
        ("LayerReordered", #"{"id":"L1","index":2.0}"#),                     // a whole number written with a point
        ("LayerReordered", #"{"id":"L1","index":1e1}"#),
        ("CanvasCreated", #"{"background":"ffffff","height":2,"width":3}"#),  // a colour without its #
        ("CanvasCreated", ##"{"background":"#FFF","height":2,"width":3}"##),
        ("HeadMoved", #"{"cause":"undo","to":"0190f3a1-0000-7000-8000-00000000002a","why":"because"}"#),
        ("TextLayerEdited", #"{"\u0069d":"L1"}"#),                                      // an escaped key
        ("TextLayerEdited", #"{"box":{"h":1,"w":2,"x":3,"y":4,"z":5},"id":"L1"}"#),   // unknown, null, twice, deeper down
        ("LayerChanged", #"{"id":"L1","shape":{"alpha":1,"fill":null,"height":1,"kind":"rect","strokeWidth":0,"width":1}}"#),
        ("LayerChanged", #"{"id":"L1","transform":{"flipH":false,"flipV":false,"rotation":0,"scale":1,"x":1,"x":2,"y":3}}"#),
        ("StrokeAdded", ##"{"id":"L1","stroke":{"color":"#000000","erase":false,"points":[{"x":1,"y":2,"y":3}],"width":1}}"##),
    ])
    func anyOtherSpellingIsLeftToCodable(_ type: String, _ json: String) throws {
        let payload = Data(json.utf8)
        let version = CreationEvent.currentVersions[type]!
        #expect(CreationEvent.plainDecode(type: type, schemaVersion: version, payload: payload) == nil)
        let decoded = try CreationEvent.decode(type: type, schemaVersion: version, payload: payload)
        #expect(decoded == (try CreationEvent.codableDecode(type: type, schemaVersion: version, payload: payload)))
    }

    /// Only the version this build writes is read plainly; an older one is upcast by Codable's path.
    @Test(arguments: samples)
    func onlyTheCurrentVersionIsReadPlainly(_ event: CreationEvent) throws {
        let payload = try event.encodedPayload()
        #expect(event.schemaVersion == CreationEvent.currentVersions[event.type])
        for version in [event.schemaVersion - 1, event.schemaVersion + 1] {
            #expect(CreationEvent.plainDecode(type: event.type, schemaVersion: version, payload: payload) == nil, "version \(version)")
        }
    }

    /// Space between the tokens, and bytes that are not UTF-8 (repaired alike on both paths).
    @Test func spacingAndBrokenUTF8AreReadAsCodableReadsThem() throws {
        let spaced = Data(" {\n \"id\" : \"L1\" ,\t\"text\":\"hi\" }\r\n".utf8)
        #expect(CreationEvent.plainDecode(type: "TextLayerEdited", schemaVersion: 1, payload: spaced) == .textLayerEdited(.init(id: "L1", text: "hi")))
        let broken = Data(#"{"id":"L1","text":"a"#.utf8) + Data([0xFF, 0xC3]) + Data(#"b"}"#.utf8)
        let plain = try #require(CreationEvent.plainDecode(type: "TextLayerEdited", schemaVersion: 1, payload: broken))
        #expect(plain == (try CreationEvent.codableDecode(type: "TextLayerEdited", schemaVersion: 1, payload: broken)))
        for refused in [Data(#"{"id":"L1","text":"a"#.utf8) + Data([0x01]) + Data(#""}"#.utf8), Data(#"{"id":"L1","text":"open}"#.utf8),
                        Data(), Data([0xEF, 0xBB, 0xBF]) + Data(#"{"id":"L1"}"#.utf8), Data(#""L1""#.utf8), Data("{}".utf8)] {
            #expect(CreationEvent.plainDecode(type: "TextLayerEdited", schemaVersion: 1, payload: refused) == nil)
            #expect(throws: EventDecodingError.self) { try CreationEvent.decode(type: "TextLayerEdited", schemaVersion: 1, payload: refused) }
        }
    }

    @Test func whatCodableRefusesIsStillRefusedWithItsError() {
        let cases = [
            ("TextLayerEdited", #"{"text":"no id"}"#), ("TextLayerEdited", #"{"id":"L1"} trailing"#),
            ("TextLayerEdited", #"{"id":"L1","text":12}"#), ("LayerReordered", #"{"id":"L1","index":9223372036854775808}"#),
            ("HeadMoved", #"{"cause":"sideways","to":"0190F3A1-0000-7000-8000-00000000002A"}"#),
            ("HeadMoved", #"{"cause":"undo","to":"not a uuid"}"#),
            ("LayerChanged", #"{"id":"L1","opacity":1e999}"#), ("StrokeAdded", #"{"id":"L1","stroke":{"points":[{"x":1}]}}"#),
        ]
        for (type, json) in cases {
            let payload = Data(json.utf8)
            #expect(CreationEvent.plainDecode(type: type, schemaVersion: CreationEvent.currentVersions[type]!, payload: payload) == nil, "\(json)")
            #expect(throws: EventDecodingError.self, "\(json)") {
                try CreationEvent.decode(type: type, schemaVersion: CreationEvent.currentVersions[type]!, payload: payload)
            }
        }
        // A colour that is none is refused by `Color(hex:)` with its own error, as before.
        let colour = Data(##"{"background":"#12345g","height":2,"width":3}"##.utf8)
        #expect(CreationEvent.plainDecode(type: "CanvasCreated", schemaVersion: 1, payload: colour) == nil)
        #expect(throws: DomainError.invalidColor("#12345g")) { try CreationEvent.decode(type: "CanvasCreated", schemaVersion: 1, payload: colour) }
    }

    /// Payloads changed a byte or a few at a time: whatever the plain reader takes, Codable
    /// reads as the same event (and it does take some, or this test would prove nothing).
    @Test func damagedPayloadsAreReadPlainlyOnlyWhenCodableReadsThemAlike() throws {
        var random = SeededGenerator(seed: 34)
        var taken = 0, tried = 0
        for event in Self.samples {
            let original = Array(try event.encodedPayload())
            for _ in 0..<400 {
                let bytes = Self.damaged(original, &random)
                tried += 1
                guard bytes != original,
                      let plain = CreationEvent.plainDecode(type: event.type, schemaVersion: event.schemaVersion, payload: Data(bytes)) else { continue }
                taken += 1
                let codable = try CreationEvent.codableDecode(type: event.type, schemaVersion: event.schemaVersion, payload: Data(bytes))
                #expect(plain == codable, "\(String(decoding: bytes, as: UTF8.self))")
                #expect(try plain.encodedPayload() == codable.encodedPayload(), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(taken > 100, "only \(taken) of \(tried) damaged payloads were read plainly")
    }

    /// `original` with one to four bytes changed, taken out or put in: JSON's own bytes, so
    /// that many of the results are still JSON.
    static func damaged(_ original: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        let alphabet = Array(##"{}[]":,.-+eE0123456789 \truefalsnl#abcdefABCDEF"##.utf8)
        var bytes = original
        for _ in 0...(random.next() % 3) {
            let at = Int(random.next() % UInt64(bytes.count + 1))
            switch random.next() % 3 {
            case 0 where at < bytes.count: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            case 1 where at < bytes.count: bytes.remove(at: at)
            default: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
            }
        }
        return bytes
    }

    @Test func aLayerIsFoundByItsLabelAsByItsId() {
        #expect(LocalLabel.is("L1", labelOf: "L1.9f1c04e2b7a35d60"))
        #expect(LocalLabel.is("L1", labelOf: "L1"))
        #expect(!LocalLabel.is("L1", labelOf: "L12.9f1c"))
        #expect(!LocalLabel.is("L12", labelOf: "L1.2"))
        #expect(LocalLabel.is("", labelOf: ".9f1c"))
        // Not ASCII: Characters decide, as `of` does. A combining mark after the dot makes
        // another Character, so the label runs on past it.
        // A Kelvin sign is canonically equivalent to K; CR LF is one Character though both are ASCII.
        for (label, id) in [("L1", "L1.\u{301}abc"), ("é", "e\u{301}.x"), ("L1", "L1\u{301}.x"), ("🐈", "🐈.x"), ("K1", "\u{212A}1.x"),
                            ("L1", "L1\u{212A}.x"), ("a\r", "a\r\n.x"), ("\r", "\r\n.x"), ("a\r\n", "a\r\n.x"), ("L1", "L1.\r\n"),
                            // A label with a dot, an id shorter than the label, an empty id.
                            ("L1.9f", "L1.9f"), (".", "."), ("a.", "a..x"), ("L1.ab", "L1.ab.cd"), ("L12", "L1"), ("L1", ""), ("", ""),
                            ("a.\u{301}b", "a.\u{301}b.c")] {
            #expect(LocalLabel.is(label, labelOf: id) == (label == LocalLabel.of(id)), "\(label) \(id)")
            // `of` reads bytes where it can; the label is still the Characters before the first dot.
            #expect(LocalLabel.of(id) == String(id.prefix { $0 != "." }), "\(id)")
        }
        var random = SeededGenerator(seed: 7)
        let pieces = ["L", "1", ".", "\u{301}", "\r", "\n", "é", "K", "\u{212A}", "🐈", "x"]
        for _ in 0..<2_000 {
            let id = (0..<Int(random.next() % 8)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(LocalLabel.of(id) == String(id.prefix { $0 != "." }), "\(id.unicodeScalars.map(\.value))")
        }
    }
}
