import Foundation
import Testing
import MemeryCore

/// The payload encoder must write exactly what Foundation's JSONEncoder writes with sorted
/// keys, so that equal events keep giving equal bytes whichever wrote them.
@Suite struct SortedJSONEncoderTests {
    static func foundation<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    static func expectSameBytes<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ours = try SortedJSONEncoder().encode(value), theirs = try foundation(value)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self), sourceLocation: sourceLocation)
    }

    @Test func everyEventTypeInAThousandRandomEventsGivesFoundationsBytes() throws {
        var random = EventGenerator(seed: 20261121)
        var typesSeen = Set<String>()
        for _ in 0..<1000 {
            let event = random.event()
            typesSeen.insert(event.type)
            let payload = try event.encodedPayload()
            let reference: Data = try {
                switch event {
                case .created(let p): try Self.foundation(p)
                case .baseImageImported(let p): try Self.foundation(p)
                case .canvasCreated(let p): try Self.foundation(p)
                case .startedFromTemplate(let p): try Self.foundation(p)
                case .textLayerAdded(let p), .imageLayerAdded(let p), .shapeLayerAdded(let p), .drawingLayerAdded(let p): try Self.foundation(p)
                case .textLayerEdited(let p): try Self.foundation(p)
                case .strokeAdded(let p): try Self.foundation(p)
                case .layerChanged(let p): try Self.foundation(p)
                case .layerRemoved(let p): try Self.foundation(p)
                case .layerReordered(let p): try Self.foundation(p)
                case .canvasCropped(let p): try Self.foundation(p)
                case .canvasExtended(let p): try Self.foundation(p)
                case .canvasRotated(let p): try Self.foundation(p)
                case .canvasFlipped(let p): try Self.foundation(p)
                case .baseImageMoved(let p): try Self.foundation(p)
                case .filterApplied(let p): try Self.foundation(p)
                case .filterParamsChanged(let p): try Self.foundation(p)
                case .filterRemoved(let p): try Self.foundation(p)
                case .headMoved(let p): try Self.foundation(p)
                }
            }()
            #expect(String(decoding: payload, as: UTF8.self) == String(decoding: reference, as: UTF8.self))
            #expect(try CreationEvent.decode(type: event.type, schemaVersion: event.schemaVersion, payload: payload) == event)
        }
        #expect(typesSeen.count == 22, "every event type was generated: \(typesSeen.sorted())")
    }

    /// Snapshots and checkpoints (a creation's whole state) are written by the same encoder:
    /// Foundation's bytes, read back whole by the payload decoder.
    @Test func creationStatesFoldedFromRandomEventsGiveFoundationsBytes() throws {
        var random = EventGenerator(seed: 20261127)
        var creation = try startedCreation()
        for n in 1...600 {
            creation = creation.evolve(random.event())
            guard n % 50 == 0 else { continue }
            let head = CreationHead(state: creation, streamVersion: UInt64(n), headVersion: UInt64(n - 1), headEdit: UUID(),
                                    latest: HistoryOrder(time: Int64(n), id: UUID()))
            try Self.expectSameBytes(head)
            #expect(CreationHead.decoded(try head.encoded()) == head)
        }
        #expect(creation.layers.count >= 10 && !creation.filters.isEmpty, "a state with layers and filters: \(creation.layers.count)")
    }

    /// Integers of every width, alone, in arrays and as members (their own `encode(to:)`
    /// goes through a single-value container).
    @Test func integersOfEveryWidth() throws {
        struct Widths: Encodable {
            var a: Int8 = -128, b: Int16 = -32768, c: Int32 = .max, d: UInt8 = 255, e: UInt16 = 65535, f: UInt32 = .max, g: UInt = .max
            var list: [UInt8] = [0, 1, 255]
            var optional: Int16? = 7
        }
        try Self.expectSameBytes(Widths())
        try Self.expectSameBytes([Int32.min, 0, Int32.max])
        try Self.expectSameBytes(UInt16(513))
    }

    @Test func stringsNeedingEscapesAndUnicode() throws {
        try Self.expectSameBytes(["s": "a/b\"q\\\u{1}\u{1f}\n\t\r\u{8}\u{c}é😀\u{7f}\u{2028} 日本語", "": "", "\n": "key with an escape"])
    }

    @Test func numbersAsFoundationSpellsThem() throws {
        try Self.expectSameBytes([0, 1.0, -1, 0.5, 1e-5, 1e20, 1e15, 999_999_999_999_999, 1e16, 9_007_199_254_740_993,
                                  123456789.125, -0.0, 0.1, 1e300, 4.9e-324, Double(Float(0.1)), -2.5e-8, .pi, 1.7976931348623157e308])
        try Self.expectSameBytes([Int.min, Int.max, 0, -1, 10, 1_000_000])
        try Self.expectSameBytes([Int64.min, Int64.max])
        try Self.expectSameBytes([UInt64.max, 0])
        try Self.expectSameBytes([Float(0.1), Float(1e14), Float(16_777_217), Float(-3)])
        try Self.expectSameBytes([true, false])
    }

    @Test func keysSortedAsFoundationSortsThem() throws {
        try Self.expectSameBytes(["a10": 1, "a9": 2, "B": 3, "a": 4, "_x": 5, "b": 6, "Ä": 7, "A": 8, "ab": 9, "a-b": 10, "": 11])
        try Self.expectSameBytes(["z": ["y": [1, 2], "a": [3]], "a": ["k": []]])
    }

    @Test func leafTypesFoundationSpecialCases() throws {
        struct Leaves: Encodable {
            var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
            var data = Data([0, 1, 2, 250, 255])
            var url = URL(string: "https://example.org/a/b?c=d")!
            var none: Int? = nil
            var some: Int? = 3
            var nested: [[String: [Int?]]] = [["b": [1, nil]], [:]]
        }
        try Self.expectSameBytes(Leaves())
    }

    @Test func handWrittenContainersNestedAndReopened() throws {
        /// Uses nested containers, asks twice for its container, and a super encoder.
        struct Awkward: Encodable {
            enum Keys: String, CodingKey { case zeta, alpha, middle, list, sup }
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: Keys.self)
                var nested = c.nestedContainer(keyedBy: Keys.self, forKey: .zeta)
                try nested.encode(1, forKey: .middle)
                try nested.encode(2, forKey: .alpha)
                var list = c.nestedUnkeyedContainer(forKey: .list)
                try list.encode("x")
                var inner = list.nestedContainer(keyedBy: Keys.self)
                try inner.encode(true, forKey: .zeta)
                try inner.encode(false, forKey: .alpha)
                try list.encode(3)
                var again = encoder.container(keyedBy: Keys.self)
                try again.encode("a", forKey: .alpha)
                var sup = c.superEncoder(forKey: .sup).singleValueContainer()
                try sup.encode([2, 1])
            }
        }
        struct Empty: Encodable { func encode(to encoder: Encoder) throws {} }
        try Self.expectSameBytes(Awkward())
        try Self.expectSameBytes(["e": Empty()])
        try Self.expectSameBytes([Awkward(), Awkward()])
    }

    @Test func nonFiniteNumbersAreRefused() {
        #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode(["x": Double.nan]) }
        #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode([Double.infinity]) }
    }
}

/// Random events of every type, from a seed, with awkward strings and numbers.
struct EventGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 11
    }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func bool() -> Bool { next() % 2 == 0 }
    mutating func double() -> Double {
        switch int(0...5) {
        case 0: Double(int(-5000...5000))
        case 1: Double(int(-5000...5000)) / 8
        case 2: Double(next()) / Double(1 << 53) * 4000 - 2000
        case 3: [0.1, 1e-7, 3e21, -0.0, 1e15, 2.5e-300].randomElement(using: &self)!
        default: Double(int(0...100)) / 100
        }
    }
    mutating func string() -> String {
        let pieces = ["cat", "CAT", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "é", "日本", "😀", "👍🏽", "\u{7f}", "a", "0"]
        return (0..<int(0...6)).map { _ in pieces.randomElement(using: &self)! }.joined()
    }
    mutating func id() -> String { ["L", "F"].randomElement(using: &self)! + String(int(1...300)) }
    mutating func color() -> Color {
        Color(red: UInt8(int(0...255)), green: UInt8(int(0...255)), blue: UInt8(int(0...255)), alpha: UInt8(int(0...255)))
    }
    mutating func transform() -> Transform {
        Transform(x: double(), y: double(), scale: double(), rotation: double(), flipH: bool(), flipV: bool())
    }
    mutating func image() -> BaseImage {
        BaseImage(blob: String(repeating: "ab", count: 32), width: int(1...9000), height: int(1...9000),
                  format: ["png", "jpeg", "webp"].randomElement(using: &self)!, sourceName: bool() ? string() : nil)
    }
    mutating func style() -> TextStyle {
        TextStyle(font: string(), maxSize: double(), fill: color(), outline: color(), outlineWidth: bool() ? double() : nil,
                  align: TextStyle.Alignment.allCases.randomElement(using: &self)!, uppercase: bool())
    }
    mutating func shape() -> ShapeContent {
        ShapeContent(kind: ShapeContent.Kind.allCases.randomElement(using: &self)!, width: double(), height: double(),
                     fill: bool() ? color() : nil, alpha: double(), stroke: bool() ? color() : nil, strokeWidth: double())
    }
    mutating func stroke() -> Stroke {
        Stroke(points: (0..<int(0...40)).map { _ in Point(x: double(), y: double()) }, width: double(), color: color(), erase: bool())
    }
    mutating func layer() -> Layer {
        let content: Layer.Content = switch int(0...3) {
        case 0: .text(TextContent(role: TextContent.Role.allCases.randomElement(using: &self)!, text: string(), width: double(),
                                  height: double(), style: style()))
        case 1: .image(ImageContent(image: image()))
        case 2: .shape(shape())
        default: .drawing(DrawingContent(width: double(), height: double(), strokes: (0..<int(0...3)).map { _ in stroke() }))
        }
        return Layer(id: id(), content: content, transform: transform(), opacity: double())
    }
    mutating func params() -> [String: FilterValue] {
        var params = [String: FilterValue]()
        for _ in 0..<int(0...6) {
            let value: FilterValue = switch int(0...5) {
            case 0: .number(double())
            case 1: .integer(Int64(int(-100...100)))
            case 2: .boolean(bool())
            case 3: .color(color())
            case 4: .point(Point(x: double(), y: double()))
            default: .choice(string())
            }
            params[["radius", "Amount", "x", "blur-size", "a10", "a9", "_b", string()].randomElement(using: &self)!] = value
        }
        return params
    }
    mutating func target() -> FilterTarget { [.base, .canvas, .layer(id())].randomElement(using: &self)! }

    mutating func event() -> CreationEvent {
        switch int(0...21) {
        case 0: return .created(.init(id: UUID(), name: string()))
        case 1: return .baseImageImported(.init(image: image()))
        case 2: return .canvasCreated(.init(width: int(1...9000), height: int(1...9000), background: color()))
        case 3: return .startedFromTemplate(.init(template: string(), canvas: Canvas(width: int(1...900), height: int(1...900), background: color()),
                                           baseImage: bool() ? image() : nil, basePlacement: transform()))
        case 4:
            let layer = layer()
            switch layer.content {
            case .text: return .textLayerAdded(.init(layer: layer))
            case .image: return .imageLayerAdded(.init(layer: layer))
            case .shape: return .shapeLayerAdded(.init(layer: layer))
            case .drawing: return .drawingLayerAdded(.init(layer: layer))
            }
        case 5: return .textLayerEdited(.init(id: id(), text: bool() ? string() : nil, box: bool() ? Box(x: double(), y: double(), w: double(), h: double()) : nil,
                                       style: bool() ? style() : nil))
        case 6: return .imageLayerAdded(.init(layer: Layer(id: id(), content: .image(ImageContent(image: image())), transform: transform())))
        case 7: return .shapeLayerAdded(.init(layer: Layer(id: id(), content: .shape(shape()), transform: transform(), opacity: double())))
        case 8: return .drawingLayerAdded(.init(layer: Layer(id: id(), content: .drawing(DrawingContent(width: double(), height: double(), strokes: [stroke()])),
                                                      transform: transform())))
        case 9: return .strokeAdded(.init(id: id(), stroke: stroke()))
        case 10: return .layerChanged(.init(id: id(), transform: bool() ? transform() : nil, opacity: bool() ? double() : nil, shape: bool() ? shape() : nil))
        case 11: return .layerRemoved(.init(id: id()))
        case 12: return .layerReordered(.init(id: id(), index: int(0...50)))
        case 13: return .canvasCropped(.init(x: int(-10...900), y: int(-10...900), width: int(1...900), height: int(1...900)))
        case 14: return .canvasRotated(.init(degrees: double(), width: int(1...900), height: int(1...900)))
        case 15: return .canvasFlipped(.init(axis: FlipAxis.allCases.randomElement(using: &self)!))
        case 16: return .filterApplied(.init(filter: AppliedFilter(id: id(), filter: "org.memery." + string(), target: target(),
                                                             paramVersion: int(1...3), params: params())))
        case 17: return .filterParamsChanged(.init(id: id(), paramVersion: int(1...3), params: params()))
        case 18: return .filterRemoved(.init(id: id()))
        case 19: return .baseImageMoved(.init(transform: transform()))
        case 20: return .canvasExtended(.init(left: int(0...900), top: int(0...900), right: int(0...900), bottom: int(0...900), background: color()))
        default: return .headMoved(.init(to: UUID(), cause: [CreationEvent.HeadMoved.Cause.undo, .redo, .checkout].randomElement(using: &self)!))
        }
    }
}

extension EventGenerator: RandomNumberGenerator {}
