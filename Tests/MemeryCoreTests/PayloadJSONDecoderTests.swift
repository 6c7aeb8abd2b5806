import Foundation
import Testing
import MemeryCore

/// The payload decoder must read what Foundation's JSONDecoder reads, refuse what it refuses,
/// and give back exactly the events that were written.
@Suite struct PayloadJSONDecoderTests {
    static func both<T: Decodable & Equatable>(_ type: T.Type, _ json: String) -> (ours: Result<T, Error>, foundation: Result<T, Error>) {
        let data = Data(json.utf8)
        return (Result { try PayloadJSONDecoder().decode(T.self, from: data) }, Result { try JSONDecoder().decode(T.self, from: data) })
    }

    @Test func everyEventTypeInAThousandRandomEventsReadsBackAsWritten() throws {
        var random = EventGenerator(seed: 42)
        for _ in 0..<1000 {
            let event = random.event()
            let payload = try event.encodedPayload()
            let decoded = try CreationEvent.decode(type: event.type, schemaVersion: event.schemaVersion, payload: payload)
            #expect(decoded == event)
            #expect(try decoded.encodedPayload() == payload, "the same bytes again")
        }
    }

    struct Sample: Decodable, Equatable {
        var s: String
        var d: Double
        var i: Int
        var b: Bool
        var o: String?
        var list: [Int?]
        var map: [String: [Double]]
        var id: UUID?
        var data: Data?
        var url: URL?
        var u: UInt64?
        var small: UInt8?
    }

    @Test func valuesReadAsFoundationReadsThem() throws {
        let texts = [
            #"{"s":"plain","d":1,"i":-3,"b":true,"list":[],"map":{}}"#,
            #"{ "s" : "a\"b\\c\/d\b\f\n\r\t\u0001\u00e9\u65e5\ud83d\ude00 end", "d": -0.5e-3, "i": 9223372036854775807, "b": false, "o": null, "list": [1, null, 3], "map": {"z": [1.5, 2e10], "": []} }"#,
            #"{"s":"","d":-0,"i":-9223372036854775808,"b":true,"o":"x","list":[0],"map":{"k":[1E+2,0.1,123456789.125]},"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#,
            #"{"s":"é😀日本","d":1e308,"i":2.0,"b":true,"list":[1e2],"map":{},"data":"AAEC+v8=","url":"https://example.org/a?b=c","u":18446744073709551615,"small":255}"#,
            "\t{\"s\":\"x\",\"d\":5,\"i\":5,\"b\":true,\"list\":[],\"map\":{}}\n  ",
            #"{"s":"dup","s":"second","d":5,"i":5,"b":true,"list":[],"map":{}}"#,
        ]
        for text in texts {
            let (ours, foundation) = Self.both(Sample.self, text)
            let theirs = try foundation.get()
            #expect(try ours.get() == theirs, "\(text)")
            #expect(try ours.get().d.sign == theirs.d.sign, "the sign of zero")
        }
    }

    @Test func brokenTextAndWrongShapesAreRefusedAsFoundationRefusesThem() {
        let texts = [
            "", " ", "{", "}", "[", #"{"s":}"#, #"{"s":"x",}"#, #"{"s" "x"}"#, #"{s:"x"}"#, "nul", "tru", "01", "-", "1.", ".5", "1e",
            #""unterminated"#, "\"control \u{1} char\"", #""bad \x escape""#, #""bad \u12 escape""#, "[1,]", "[1 2]", "{}extra", "{} {}",
            #"{"s":"x","d":01,"i":1,"b":true,"list":[],"map":{}}"#,    // numbers JSON does not allow
            #"{"s":"x","d":1.,"i":1,"b":true,"list":[],"map":{}}"#,
            #"{"s":"x","d":-.5,"i":1,"b":true,"list":[],"map":{}}"#,
            #"{"s":"x","d":+1,"i":1,"b":true,"list":[],"map":{}}"#,
            #"{"s":"x","d":1e+,"i":1,"b":true,"list":[],"map":{}}"#,
            #"{"s":"x","d":NaN,"i":1,"b":true,"list":[],"map":{}}"#,
            #"{"s":"x\q","d":1,"i":1,"b":true,"list":[],"map":{}}"#,
            #"{"s":"x","d":1,"i":1,"b":true,"list":[],"map":{}"#,
            #"{"s":"x","d":"1","i":1,"b":true,"list":[],"map":{}}"#,   // a string for a number
            #"{"s":"x","d":1,"i":1.5,"b":true,"list":[],"map":{}}"#,   // a fraction for an integer
            #"{"s":"x","d":1,"i":1,"b":1,"list":[],"map":{}}"#,        // a number for a bool
            #"{"s":"x","d":1,"i":1,"b":true,"list":{},"map":{}}"#,     // an object for an array
            #"{"d":1,"i":1,"b":true,"list":[],"map":{}}"#,             // a missing key
            #"{"s":"x","d":1,"i":1,"b":true,"list":[],"map":{},"small":256}"#,  // out of range
            #"{"s":"x","d":1,"i":99999999999999999999,"b":true,"list":[],"map":{}}"#,
            #"{"s":"x","d":1e999,"i":1,"b":true,"list":[],"map":{}}"#,
            #"{"s":"x","d":1,"i":1,"b":true,"list":[],"map":{},"id":"not a uuid"}"#,
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        ]
        for text in texts {
            let (ours, foundation) = Self.both(Sample.self, text)
            #expect(throws: DecodingError.self, "\(text.prefix(60))") { try ours.get() }
            if case .success = foundation { Issue.record("Foundation read \(text.prefix(60)), the test's premise is wrong") }
        }
    }

    @Test func errorsNameThePathToTheBadValue() {
        struct Inner: Decodable, Equatable { var v: Int }
        struct Outer: Decodable, Equatable { var items: [Inner] }
        let (ours, _) = Self.both(Outer.self, #"{"items":[{"v":1},{"v":"two"}]}"#)
        #expect {
            try ours.get()
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["items", "Index 1", "v"]
        }
    }

    @Test func leavesReadWithoutADecoderOfTheirOwnStillNameTheirPath() {
        struct Lists: Decodable, Equatable { var numbers: [Int]; var words: [String: [Bool]] }
        let cases: [(String, [String])] = [
            (#"{"numbers":[1,"two"],"words":{}}"#, ["numbers", "Index 1"]),
            (#"{"numbers":[],"words":{"a":[true,1]}}"#, ["words", "a", "Index 1"]),
            (#"{"numbers":{},"words":{}}"#, ["numbers"]),
        ]
        for (text, path) in cases {
            let (ours, _) = Self.both(Lists.self, text)
            #expect {
                try ours.get()
            } throws: { error in
                guard case DecodingError.typeMismatch(_, let context) = error else { return false }
                return context.codingPath.map(\.stringValue) == path
            }
        }
    }

    /// Colours are read off their bytes when spelled as the encoder spells them; every other
    /// spelling goes through `Color(hex:)`, so both decoders take and refuse the same ones.
    @Test func coloursReadAsColorReadsThem() throws {
        struct Painted: Decodable, Equatable { var colour: Color; var more: [Color] }
        let taken = ["#ff8000", "#FF8000", "#ff800080", "#Ab12Cd", "#000", "ff8000", "#00000000", "#ffffffff"]
        for spelling in taken {
            let text = ##"{"colour":"\##(spelling)","more":["\##(spelling)","#010203"]}"##
            let (ours, foundation) = Self.both(Painted.self, text)
            let theirs = try foundation.get()
            #expect(try ours.get() == theirs, "\(spelling)")
        }
        #expect(try PayloadJSONDecoder().decode(Painted.self, from: Data(##"{"colour":"#ff800080","more":[]}"##.utf8)).colour
                == Color(red: 255, green: 128, blue: 0, alpha: 128))
        for spelling in ["#ff80zz", "#ff8000zz", "#ff80", "#ff8000ff00", "", "red"] {
            let text = #"{"colour":"\#(spelling)","more":[]}"#
            let (ours, foundation) = Self.both(Painted.self, text)
            #expect(throws: (any Error).self, "\(spelling)") { try ours.get() }
            if case .success = foundation { Issue.record("Foundation read \(spelling), the test's premise is wrong") }
        }
        let escaped = Self.both(Painted.self, #"{"colour":"\u0023ff8000","more":[]}"#)
        #expect(try escaped.ours.get() == escaped.foundation.get(), "an escaped spelling of a good colour")
        #expect {
            try PayloadJSONDecoder().decode(Painted.self, from: Data(#"{"colour":7,"more":[]}"#.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["colour"]
        }
    }

    /// A key written with escapes matches as a String does (canonically equivalent Unicode),
    /// as Foundation matches it; a colour that is null or missing is nil.
    @Test func escapedKeysAndAbsentColoursReadAsFoundationReadsThem() throws {
        struct Accented: Decodable, Equatable {
            enum CodingKeys: String, CodingKey { case café, tint }
            var café: Int
            var tint: Color?
        }
        for text in [#"{"caf\u00e9":1,"tint":null}"#, #"{"cafe\u0301":2}"#, ##"{"café":3,"tint":"#102030"}"##] {
            let (ours, foundation) = Self.both(Accented.self, text)
            switch foundation {
            case .success(let theirs): #expect(try ours.get() == theirs, "\(text)")
            case .failure: #expect(throws: (any Error).self, "\(text): refused, as Foundation refuses it") { try ours.get() }
            }
        }
        #expect(try PayloadJSONDecoder().decode(Accented.self, from: Data(#"{"caf\u00e9":1,"tint":null}"#.utf8)) == Accented(café: 1, tint: nil))
    }

    @Test func frozenVersionOneEventsStillRead() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/events-v1.json")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures)) as? [[String: Any]])
        #expect(!entries.isEmpty)
        for entry in entries {
            let type = try #require(entry["type"] as? String), version = try #require(entry["schema"] as? Int)
            let payload = try JSONSerialization.data(withJSONObject: try #require(entry["payload"]))
            if type == "HeadMoved", version == 1 {
                // Read only by the migration from store format 1, which rewrites it as v2.
                #expect(throws: EventDecodingError.self) { try CreationEvent.decode(type: type, schemaVersion: version, payload: payload) }
                let move = try CreationEvent.HeadMoved.FormatOne.decode(payload)
                #expect(move.to == 6 && move.cause == .undo)
                continue
            }
            _ = try CreationEvent.decode(type: type, schemaVersion: version, payload: payload)
        }
    }
}
