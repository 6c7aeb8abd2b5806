import Foundation
import MemeryCore
import Testing

/// `PrettyJSON` lays out stored JSON as Foundation's `.prettyPrinted` does, without making
/// values of it, and refuses what is not JSON.
@Suite struct PrettyJSONTests {
    static func pretty(_ json: String, level: Int = 0) throws -> String {
        var out = [UInt8]()
        try Array(json.utf8).withUnsafeBytes { try PrettyJSON.append($0, level: level, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    static func foundationPretty(_ json: String) throws -> String {
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    /// Byte for byte Foundation's layout, for values whose keys it sorts as they are stored
    /// and whose numbers it writes as they are written: nesting, empty containers (an empty
    /// line inside), escapes kept, text past ASCII, whitespace between tokens dropped.
    @Test(arguments: [
        #"{"a":1,"b":[1,-2,0.5,{"c":null,"d":true,"e":false}],"f":{}}"#,
        #"{"empty":[],"nested":{"deeper":{"deepest":[[],{}]}}}"#,
        #"{"text":"quote \" back \\ slash / tab \t line \n ctl \u0001 é 日本 😀"}"#,
        #"[{"x":1.25,"y":-3}]"#,
        #"[]"#, #"{}"#, #""alone""#, #"42"#, #"null"#,
        " {\n \"a\" : [ 1 ,\t2 ] ,\r\n \"b\":{ } } ",
        "\u{FEFF}{\"after a byte order mark\":1}",
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
    ])
    func laysOutAsFoundationDoes(json: String) throws {
        #expect(try Self.pretty(json) == (try Self.foundationPretty(json)))
    }

    /// Nested lines are indented from the level the value sits at: an envelope's payload
    /// sits two levels in.
    @Test func nestedLinesStartFromTheLevelGiven() throws {
        #expect(try Self.pretty(#"{"a":[1]}"#, level: 2) == "{\n      \"a\" : [\n        1\n      ]\n    }")
    }

    /// A payload is copied as it is written, where JSONSerialization made values of it and
    /// wrote them again: escapes, numbers and the order of keys stay as stored.
    @Test func whatIsWrittenIsCopiedNotRewritten() throws {
        #expect(try Self.pretty(#"{"b":"\/ \u00e9","a":1.0,"c":1E2}"#) == "{\n  \"b\" : \"\\/ \\u00e9\",\n  \"a\" : 1.0,\n  \"c\" : 1E2\n}")
    }

    /// Every random event's payload, as the store keeps it, lays out to the same value.
    @Test func everyRandomPayloadKeepsItsValue() throws {
        var random = EventGenerator(seed: 20261129)
        for _ in 0..<500 {
            let payload = try random.event().encodedPayload()
            let laidOut = try Self.pretty(String(decoding: payload, as: UTF8.self), level: 1)
            let before = try JSONSerialization.jsonObject(with: payload) as? NSDictionary
            let after = try JSONSerialization.jsonObject(with: Data(laidOut.utf8)) as? NSDictionary
            #expect(before != nil && before == after, "\(laidOut)")
        }
    }

    /// What is not one JSON value is refused with where and why, never laid out in part as
    /// if it were, and never by running out of stack.
    @Test(arguments: [
        (#"{"a":1}x"#, "more after the value"), (#"{"a" 1}"#, "followed by ':'"), (#"[1,]"#, "not the start of a value"),
        (#"{,}"#, "must be a string"), (#"{"a":1"#, "expected ',' or '}'"), (#"[1 2]"#, "expected ',' or ']'"),
        (#""open"#, "not closed"), (#""\x""#, "not an escape"), (#""\u12G4""#, "four hex digits"),
        ("\"raw\u{1}control\"", "control character"), ("01", "more after the value"), ("1.", "after '.'"),
        ("-", "needs a digit"), ("1e+", "exponent"), ("tru", "not a value"), ("", "ends early"),
        (String(repeating: "[", count: 600) + String(repeating: "]", count: 600), "nested deeper than 512"),
    ])
    func notJSONIsRefusedByName(json: String, reason: String) {
        let error = #expect(throws: PrettyJSON.Invalid.self) { try Self.pretty(json) }
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        var out = [UInt8]()
        let bytes: [UInt8] = [UInt8(ascii: "\""), 0xC3, 0x28, UInt8(ascii: "\"")]
        let error = #expect(throws: PrettyJSON.Invalid.self) { try bytes.withUnsafeBytes { try PrettyJSON.append($0, level: 0, to: &out) } }
        #expect(error?.reason == "not UTF-8")
    }
}
