import Foundation
import Testing
@testable import MemeryCore
import MemeryTestSupport

/// A creation's state, its head's snapshot and a whole layer are read and written without
/// Codable (`Creation+PlainState.swift`). These tests hold that reading to Codable's (the same
/// value for every state it takes, every other spelling left to Codable) and that writing to
/// SortedJSONEncoder's bytes.
@Suite struct PlainStateTests {
    static let style = TextStyle(font: "Lato", maxSize: 48.5, fill: Color(red: 1, green: 2, blue: 3, alpha: 4),
                                 outline: .black, outlineWidth: 2.25, align: .left, uppercase: false)
    static let picture = BaseImage(blob: String(repeating: "ab", count: 32), width: 451, height: 300, format: "png")

    /// A layer of each kind, with and without their optional parts.
    static let layers: [Layer] = [
        Layer(id: "L1.9f1c04e2b7a35d60", content: .text(TextContent(role: .top, text: "Ünïcødé 🐈 top", width: 564.1000000000001, height: 75, style: style)),
              transform: Transform(x: 225.5, y: -0.0, scale: 0.01, rotation: 359.999, flipH: true, flipV: false), opacity: 0.3),
        Layer(id: "L2", content: .text(TextContent(role: .free, text: "", width: 1, height: 1e300, style: TextStyle(maxSize: 4))),
              transform: Transform(x: 0, y: 0)),
        Layer(id: "L3.0c", content: .image(ImageContent(image: picture)), transform: Transform(x: 1, y: 2, scale: 2), opacity: 1),
        Layer(id: "L4", content: .image(ImageContent(image: BaseImage(blob: "cd", width: 1, height: 2, format: "gif", sourceName: "cat.gif",
                                                                      origin: PictureOrigin(url: "https://example.org/c\u{e9}t.gif", title: "A \"cat\"", licence: "CC0")))),
              transform: Transform(x: 3, y: 4)),
        Layer(id: "L5", content: .shape(ShapeContent(kind: .ellipse, width: 20, height: 30, fill: nil, alpha: 0.5,
                                                     stroke: Color(red: 9, green: 8, blue: 7, alpha: 255), strokeWidth: 3)),
              transform: Transform(x: 5, y: 6, rotation: -45)),
        Layer(id: "L6", content: .shape(ShapeContent(kind: .rect, width: 1, height: 1)), transform: Transform(x: 7, y: 8), opacity: 0),
        Layer(id: "L7", content: .drawing(DrawingContent(width: 100, height: 50, strokes: [
            Stroke(points: [Point(x: 1, y: 2), Point(x: 3.5, y: -4.25)], width: 0.5, color: Color(red: 200, green: 100, blue: 50, alpha: 128), erase: true),
            Stroke(points: [], width: 1000, color: .white),
        ])), transform: Transform(x: 9, y: 10, flipV: true)),
        Layer(id: "L8", content: .drawing(DrawingContent(width: 1, height: 1, strokes: [])), transform: Transform(x: 0, y: 0)),
    ]

    static let filters = [
        AppliedFilter(id: "F1.0c9e", filter: "org.memery.sepia", target: .base, paramVersion: 1, params: ["amount": .number(0.5)]),
        AppliedFilter(id: "F2", filter: "frei0r.invert0r", target: .layer("L3.0c"), paramVersion: 2,
                      params: ["n": .integer(-3), "on": .boolean(true), "c": .color(.white), "p": .point(Point(x: 1, y: 2)), "mode": .choice("say \"hi\"")]),
        AppliedFilter(id: "F3", filter: "org.memery.vignette", target: .canvas, paramVersion: 1, params: [:]),
    ]

    static var states: [Creation] {
        var empty = Creation(id: UUID(uuidString: "0190F3A1-0000-7000-8000-00000000002A")!)
        empty.name = "new"
        var full = Creation(id: UUID())
        full.name = "drake hotline 🐈"
        full.canvas = Canvas(width: 451, height: 300, background: Canvas.transparent)
        full.baseImage = picture
        full.basePlacement = Transform(x: 225.5, y: 150, scale: 2, rotation: 90, flipH: false, flipV: true)
        full.layers = layers
        full.version = 4_000_000_000
        full.nextLayerNumber = 9
        full.filters = filters
        full.nextFilterNumber = 4
        var web = full
        web.baseImage = BaseImage(blob: "ef", width: 3, height: 4, format: "jpeg", sourceName: "a.jpg",
                                  origin: PictureOrigin(url: "https://example.org/a.jpg", author: "Ann", page: "https://example.org"))
        web.filters = []
        web.layers = Array(layers.prefix(2))
        return [empty, full, web]
    }

    static var heads: [CreationHead] {
        states.flatMap { state in [
            CreationHead(state: state, streamVersion: 12, headVersion: nil, headEdit: nil, latest: nil),
            CreationHead(state: state, streamVersion: 0, headVersion: 11, headEdit: UUID(),
                         latest: HistoryOrder(time: -1_700_000_000_123, id: UUID())),
        ] }
    }

    @Test func aStateAsThisBuildWritesItIsReadPlainlyAndAsCodableReadsIt() throws {
        for state in Self.states {
            let bytes = try SortedJSONEncoder().encode(state)
            let plain = try #require(Creation.plainDecode(bytes), "declined \(String(decoding: bytes, as: UTF8.self))")
            #expect(plain == state)
            #expect(plain == (try PayloadJSONDecoder().decode(Creation.self, from: bytes)))
            #expect(try SortedJSONEncoder().encode(plain) == bytes)
            #expect(try Creation.decoded(bytes) == state)
        }
    }

    @Test func aStateAndASnapshotAreWrittenPlainlyToCodablesBytes() throws {
        for state in Self.states {
            let plain = try #require(PlainPayloadWriter.write(state.plainWrite), "the plain writer declined \(state)")
            let codable = try SortedJSONEncoder().encode(state)
            #expect(plain == codable, "\(String(decoding: plain, as: UTF8.self)) against \(String(decoding: codable, as: UTF8.self))")
            #expect(try state.encoded() == codable)
        }
        for head in Self.heads {
            let plain = try #require(PlainPayloadWriter.write(head.plainWrite))
            #expect(plain == (try SortedJSONEncoder().encode(head)))
        }
    }

    /// NaN has no JSON spelling: the plain writer leaves it to SortedJSONEncoder, which names it.
    @Test func aNumberJSONCannotSpellInAStateIsLeftToCodable() {
        var state = Self.states[1]
        state.layers[6].transform.rotation = .nan
        #expect(PlainPayloadWriter.write(state.plainWrite) == nil)
        #expect(throws: EncodingError.self) { try state.encoded() }
        let head = CreationHead(state: state, streamVersion: 1, headVersion: nil, headEdit: nil, latest: nil)
        #expect(throws: EncodingError.self) { try head.encoded() }
        #expect(CreationEvent.textLayerAdded(.init(layer: state.layers[6])).plainEncodedPayload() == nil)
    }

    @Test func aSnapshotIsReadPlainlyAndAsCodableReadsIt() throws {
        for head in Self.heads {
            let bytes = try head.encoded()
            let plain = try #require(CreationHead.plainDecode(bytes), "declined \(String(decoding: bytes, as: UTF8.self))")
            #expect(plain == head)
            #expect(plain == (try PayloadJSONDecoder().decode(CreationHead.self, from: bytes)))
            #expect(CreationHead.decoded(bytes) == head)
        }
    }

    @Test(arguments: layers)
    func aLayerAddedIsReadPlainlyAndAsCodableReadsIt(_ layer: Layer) throws {
        let events: [CreationEvent] = [.textLayerAdded(.init(layer: layer)), .imageLayerAdded(.init(layer: layer)),
                                       .shapeLayerAdded(.init(layer: layer)), .drawingLayerAdded(.init(layer: layer))]
        for event in events {
            let payload = try event.encodedPayload()
            let plain = try #require(CreationEvent.plainDecode(type: event.type, schemaVersion: event.schemaVersion, payload: payload),
                                     "declined \(String(decoding: payload, as: UTF8.self))")
            #expect(plain == event)
            #expect(plain == (try CreationEvent.codableDecode(type: event.type, schemaVersion: event.schemaVersion, payload: payload)))
            #expect(event.plainEncodedPayload() == (try event.codableEncodedPayload()))
            #expect(CreationEvent.plainDecode(type: event.type, schemaVersion: event.schemaVersion + 1, payload: payload) == nil)
        }
        // TextLayerAdded v1 held a box, not a layer: it is upcast by Codable's path alone.
        let added = CreationEvent.textLayerAdded(.init(layer: layer))
        #expect(added.schemaVersion == 2)
        #expect(CreationEvent.plainDecode(type: added.type, schemaVersion: 1, payload: try added.encodedPayload()) == nil)
    }

    /// Each of these is valid, and Codable reads it; the plain reader must leave it to Codable.
    @Test(arguments: [
        // Codable reads the content the kind names and passes over another kind's member.
        #"{"id":"L1","kind":"shape","opacity":1,"shape":{"alpha":1,"height":1,"kind":"rect","strokeWidth":0,"width":1},"text":{"x":1},"transform":{"flipH":false,"flipV":false,"rotation":0,"scale":1,"x":0,"y":0}}"#,
        #"{"drawing":{"height":1,"strokes":[],"width":1},"id":"L1","kind":"shape","opacity":1,"shape":{"alpha":1,"height":1,"kind":"rect","strokeWidth":0,"width":1},"transform":{"flipH":false,"flipV":false,"rotation":0,"scale":1,"x":0,"y":0}}"#,
        #"{"id":"L1","kind":"shape","later":true,"opacity":1,"shape":{"alpha":1,"height":1,"kind":"rect","strokeWidth":0,"width":1},"transform":{"flipH":false,"flipV":false,"rotation":0,"scale":1,"x":0,"y":0}}"#,
        #"{"id":"L1","kind":"shape","opacity":1,"shape":{"alpha":1,"height":1,"kind":"rect","stroke":null,"strokeWidth":0,"width":1},"transform":{"flipH":false,"flipV":false,"rotation":0,"scale":1,"x":0,"y":0}}"#,
        #"{"id":"L1","kind":"image","image":{"image":{"blob":"ab","format":"png","height":1,"sourceName":null,"width":1}},"opacity":1,"transform":{"flipH":false,"flipV":false,"rotation":0,"scale":1,"x":0,"y":0}}"#,
        ##"{"id":"L\u0031","kind":"text","opacity":1,"text":{"height":1,"role":"top","style":{"align":"center","fill":"#ffffff","font":"Anton","maxSize":1,"outline":"#000000","uppercase":true},"text":"a","width":1},"transform":{"flipH":false,"flipV":false,"rotation":0,"scale":1,"x":0,"y":0}}"##,
    ])
    func anyOtherSpellingOfALayerIsLeftToCodable(_ json: String) throws {
        let payload = Data(#"{"layer":"#.utf8) + Data(json.utf8) + Data("}".utf8)
        #expect(CreationEvent.plainDecode(type: "ShapeLayerAdded", schemaVersion: 1, payload: payload) == nil)
        let decoded = try CreationEvent.decode(type: "ShapeLayerAdded", schemaVersion: 1, payload: payload)
        #expect(decoded == (try CreationEvent.codableDecode(type: "ShapeLayerAdded", schemaVersion: 1, payload: payload)))
    }

    /// A state with a null for a missing canvas, a member from a newer build, or a member
    /// twice: Codable reads it, the plain reader does not.
    @Test func anyOtherSpellingOfAStateIsLeftToCodable() throws {
        let bytes = String(decoding: try SortedJSONEncoder().encode(Self.states[0]), as: UTF8.self)
        #expect(!bytes.contains("canvas"))
        for spelling in [bytes.replacingOccurrences(of: #""filters""#, with: #""canvas":null,"filters""#),
                         bytes.replacingOccurrences(of: #""filters""#, with: #""later":[1],"filters""#),
                         bytes.replacingOccurrences(of: #""filters""#, with: #""name":"twice","filters""#)] {
            #expect(spelling != bytes)
            #expect(Creation.plainDecode(Data(spelling.utf8)) == nil, "\(spelling)")
            let decoded = try Creation.decoded(Data(spelling.utf8))
            #expect(decoded == (try PayloadJSONDecoder().decode(Creation.self, from: Data(spelling.utf8))))
            #expect(decoded.name == (spelling.contains("twice") ? "twice" : "new"))  // Codable keeps the first
        }
    }

    /// A version past Int64.max: Codable reads it and the plain reader leaves it; written alike.
    @Test func aVersionPastInt64IsLeftToCodableAndWrittenAlike() throws {
        var state = Self.states[0]
        state.version = .max
        let bytes = try SortedJSONEncoder().encode(state)
        #expect(String(decoding: bytes, as: UTF8.self).contains("18446744073709551615"))
        #expect(Creation.plainDecode(bytes) == nil)
        #expect(try Creation.decoded(bytes) == state)
        #expect(PlainPayloadWriter.write(state.plainWrite) == bytes)
    }

    /// A member Codable passes over, nested near the 512 levels the parser allows: read in
    /// place by Codable (`decoded`), it must be refused exactly where the whole state's parse
    /// refuses it, at its depth in the whole state, not in the member alone.
    @Test func aMemberReadInPlaceIsNestedAsDeepAsTheWholeStateAllows() throws {
        var state = Self.states[1]
        state.filters = [Self.filters[0]]
        let bytes = String(decoding: try SortedJSONEncoder().encode(state), as: UTF8.self)
        // The state (0), its filters (1), a filter (2), its params (3), a value (4), and a member of it (5) ...
        func nested(_ levels: Int) -> Data {
            Data(bytes.replacingOccurrences(of: #"{"number":0.5}"#, with: #"{"later":"# + String(repeating: "[", count: levels)
                                                + String(repeating: "]", count: levels) + #","number":0.5}"#).utf8)
        }
        let deepest = nested(507), tooDeep = nested(508)
        #expect(try PayloadJSONDecoder().decode(Creation.self, from: deepest) == state)
        #expect(throws: DecodingError.self) { try PayloadJSONDecoder().decode(Creation.self, from: tooDeep) }
        #expect(Creation.plainDecode(deepest) == state)
        #expect(Creation.plainDecode(tooDeep) == nil)
    }

    /// A filter's parameters are read by Codable in place. What it refuses there makes the whole
    /// state not plain, and Codable's reading of the whole then names the error.
    @Test func whatCodableRefusesInsideAStateIsStillRefused() throws {
        var state = Self.states[1]
        state.filters = [Self.filters[0]]
        let bytes = String(decoding: try SortedJSONEncoder().encode(state), as: UTF8.self)
        for broken in [bytes.replacingOccurrences(of: #"{"number":0.5}"#, with: #"{"nothing":0.5}"#),
                       bytes.replacingOccurrences(of: #""target":{"kind":"base"}"#, with: #""target":{"kind":"sideways"}"#),
                       bytes.replacingOccurrences(of: #""paramVersion":1"#, with: #""paramVersion":1.5"#),
                       bytes.replacingOccurrences(of: #""version":4000000000"#, with: #""version":-1"#),
                       bytes.replacingOccurrences(of: #""kind":"drawing""#, with: #""kind":"sound""#),
                       bytes.replacingOccurrences(of: #""url":"https:"#, with: #""url":7,"x":"https:"#)] {
            #expect(broken != bytes)
            #expect(Creation.plainDecode(Data(broken.utf8)) == nil, "\(broken)")
            #expect(throws: DecodingError.self, "\(broken)") { try Creation.decoded(Data(broken.utf8)) }
        }
    }

    /// States changed a byte or a few at a time: whatever the plain reader takes, Codable reads
    /// alike (and it takes some, or this test would prove nothing).
    @Test func damagedStatesAreReadPlainlyOnlyWhenCodableReadsThemAlike() throws {
        var random = SeededGenerator(seed: 36)
        var taken = 0, tried = 0
        for state in Self.states {
            let original = Array(try SortedJSONEncoder().encode(state))
            for _ in 0..<1_500 {
                let bytes = PlainPayloadTests.damaged(original, &random)
                tried += 1
                guard bytes != original, let plain = Creation.plainDecode(Data(bytes)) else { continue }
                taken += 1
                let codable = try PayloadJSONDecoder().decode(Creation.self, from: Data(bytes))
                #expect(plain == codable, "\(String(decoding: bytes, as: UTF8.self))")
                #expect(try SortedJSONEncoder().encode(plain) == SortedJSONEncoder().encode(codable))
            }
        }
        #expect(taken > 100, "only \(taken) of \(tried) damaged states were read plainly")
    }

    @Test func damagedSnapshotsAreReadPlainlyOnlyWhenCodableReadsThemAlike() throws {
        var random = SeededGenerator(seed: 38)
        var taken = 0
        for head in Self.heads {
            let original = Array(try head.encoded())
            for _ in 0..<500 {
                let bytes = PlainPayloadTests.damaged(original, &random)
                guard bytes != original, let plain = CreationHead.plainDecode(Data(bytes)) else { continue }
                taken += 1
                #expect(plain == (try PayloadJSONDecoder().decode(CreationHead.self, from: Data(bytes))), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(taken > 50, "only \(taken) damaged snapshots were read plainly")
    }

    /// Random states of many layers of every kind, as a long session leaves them. Their strings
    /// need no escapes, except in some states, which may then be left to Codable.
    @Test func randomStatesAreReadPlainlyAsWritten() throws {
        var random = SeededGenerator(seed: 37)
        let numbers: [Double] = [0, -0.0, 1, -1, 0.5, 1e-7, 5e-324, 1e15, 1e16, -2.5e300, 1.0 / 3, 100_000]
        let plainTexts = ["", "L1", "ünï 🐈 cødé", "del\u{7F} ls\u{2028}"], escapedTexts = ["say \"cheese\"", "back\\slash", "tab\tnew\nline\u{1}"]
        var texts = plainTexts
        var taken = 0
        func number() -> Double { random.next() % 4 == 0 ? Double(Int64(bitPattern: random.next()) % 100_000) / 7 : numbers[Int(random.next() % UInt64(numbers.count))] }
        func text() -> String { texts[Int(random.next() % UInt64(texts.count))] }
        func color() -> Color { Color(red: UInt8(random.next() & 0xff), green: UInt8(random.next() & 0xff), blue: UInt8(random.next() & 0xff), alpha: UInt8(random.next() & 0xff)) }
        func bool() -> Bool { random.next() % 2 == 0 }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { bool() ? value() : nil }
        func transform() -> Transform { Transform(x: number(), y: number(), scale: number(), rotation: number(), flipH: bool(), flipV: bool()) }
        func picture() -> BaseImage {
            BaseImage(blob: text(), width: Int(random.next() % 5000), height: Int(random.next() % 5000), format: text(), sourceName: maybe(text()),
                      origin: random.next() % 8 == 0 ? PictureOrigin(url: text(), title: maybe(text())) : nil)
        }
        func layer() -> Layer {
            let content: Layer.Content
            switch random.next() % 4 {
            case 0: content = .text(TextContent(role: TextContent.Role.allCases[Int(random.next() % 3)], text: text(), width: number(), height: number(),
                                                style: TextStyle(font: text(), maxSize: number(), fill: color(), outline: color(), outlineWidth: maybe(number()),
                                                                 align: TextStyle.Alignment.allCases[Int(random.next() % 3)], uppercase: bool())))
            case 1: content = .image(ImageContent(image: picture()))
            case 2: content = .shape(ShapeContent(kind: bool() ? .rect : .ellipse, width: number(), height: number(), fill: maybe(color()),
                                                  alpha: number(), stroke: maybe(color()), strokeWidth: number()))
            default: content = .drawing(DrawingContent(width: number(), height: number(), strokes: (0..<Int(random.next() % 3)).map { _ in
                Stroke(points: (0..<Int(random.next() % 4)).map { _ in Point(x: number(), y: number()) }, width: number(), color: color(), erase: bool())
            }))
            }
            return Layer(id: text(), content: content, transform: transform(), opacity: number())
        }
        for round in 0..<60 {
            let escapes = round % 3 == 2
            texts = escapes ? plainTexts + escapedTexts : plainTexts
            var state = Creation(id: UUID())
            state.name = text()
            state.canvas = maybe(Canvas(width: Int(random.next() % 20_000), height: Int(random.next() % 20_000), background: color()))
            state.baseImage = maybe(picture())
            state.basePlacement = transform()
            state.layers = (0..<Int(random.next() % 40)).map { _ in layer() }
            state.version = random.next() >> 1
            state.nextLayerNumber = Int(random.next() % 5000)
            state.filters = random.next() % 3 == 0 ? [Self.filters[Int(random.next() % 3)]] : []
            state.nextFilterNumber = Int(random.next() % 50)
            let bytes = try SortedJSONEncoder().encode(state)
            let head = CreationHead(state: state, streamVersion: random.next() >> 1, headVersion: maybe(random.next() >> 1), headEdit: maybe(UUID()),
                                    latest: maybe(HistoryOrder(time: Int64(bitPattern: random.next()), id: UUID())))
            #expect(try Creation.decoded(bytes) == state)
            #expect(CreationHead.decoded(try head.encoded()) == head)
            #expect(PlainPayloadWriter.write(state.plainWrite) == bytes)
            #expect(try head.encoded() == SortedJSONEncoder().encode(head))
            for layer in state.layers {
                let event = CreationEvent.shapeLayerAdded(.init(layer: layer))
                #expect(event.plainEncodedPayload() == (try event.codableEncodedPayload()))
            }
            if escapes {
                #expect([nil, state].contains(Creation.plainDecode(bytes)))
            } else {
                #expect(Creation.plainDecode(bytes) == state, "\(String(decoding: bytes, as: UTF8.self))")
                #expect(CreationHead.plainDecode(try head.encoded()) == head)
                taken += 1
            }
        }
        #expect(taken == 40)
    }
}
