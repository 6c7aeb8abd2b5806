import Foundation
import Testing

/// Values out of range are refused with exit 1 and a message that names them, and nothing
/// is stored: negative numbers (read as values, not options; they used to get argument-
/// parser's "Missing value") and numbers of 1e19 and more (which do not fit an integer, and
/// used to kill the process in formatting code with exit 132).
@Suite struct OutOfRangeValueTests {
    static let negative: [([String], String)] = [
        (["text", "add", "c", "hi", "--size", "-5"], "size must be between 4 and 2000, got -5"),
        (["crop", "c", "-10,-10,50,50"], "crop -10,-10,50,50 must lie inside the 100x100 canvas"),
        (["undo", "c", "--steps", "-1"], "steps must be between 1 and 1000000, got -1"),
        (["shape", "add", "c", "--rect", "0,0,10,10", "--alpha", "-0.5"], "alpha must be between 0 and 1, got -0.5"),
        (["draw", "c", "--points", "1,1", "--width", "-3"], "-3"),
        (["move", "c", "--to", "-2"], "position must be between 1 and 1, got -2")
    ]

    static let huge: [([String], String)] = [
        (["text", "add", "c", "hi", "--box", "1e308,0,10,10"], "box 1e+308,0,10,10 does not overlap"),
        (["image", "add", "c", Paths.example, "--at", "1e19,1e19", "--scale", "0.1"], "1e+19"),
        (["crop", "c", "0,0,1e308,10"], "crop 0,0,1e+308,10 must lie inside"),
        (["layer", "set", "c", "L1", "box=1e300,0,5,5"], "box 1e+300,0,5,5 does not overlap"),
        (["layer", "set", "c", "L1", "x=1e300"], "x must be between -100000 and 100000, got 1e+300"),
        (["checkout", "c", "--at", "999999999999w"], "\"999999999999w\" is not a time"),
        (["shape", "add", "c", "--rect", "1e19,1e19,1e19,1e19"], "1e+19"),
        (["draw", "c", "--points", "1e19,1e19"], "a stroke's x must be between -100000 and 100000, got 1e+19"),
        (["rotate", "c", "1e300"], "got 1e+300"),
        (["new", "e", "--canvas", "99999999999999999999x5"], "is not a canvas size")
    ]

    @Test(arguments: negative + huge)
    func outOfRangeValuesAreRefusedAndStoreNothing(arguments: [String], message: String) throws {
        let s = try Sandbox()
        try s.ok(["new", "c", "--canvas", "100x100"])
        try s.ok(["text", "add", "c", "hi"])
        let before = try s.counts()
        try s.fails(arguments, containing: message)
        #expect(try s.counts() == before, "nothing stored")
    }

    @Test func aNegativeButValidValueIsUsed() throws {
        let s = try Sandbox()
        try s.ok(["new", "c", "--canvas", "100x100"])
        #expect(try s.ok(["image", "add", "c", Paths.example, "--at", "-20,-10", "--rotate", "-15", "--scale", "0.1"]) == "L1")
        #expect(try s.ok(["layer", "set", "c", "L1", "x=-5"]).contains("L1"))
    }

    @Test func aStreamGoesOnPastHugeNumbers() throws {
        let s = try Sandbox()
        try s.ok(["new", "c", "--canvas", "100x100"])
        let input = s.path("huge.jsonl")
        try Data([#"{"op":"crop","box":[0,0,1e308,10]}"#, #"{"op":"checkout","at":"999999999999w"}"#,
                  #"{"op":"text add","text":"x","box":"1e19,1e19,5,5"}"#, #"{"op":"text","top":"after"}"#]
            .joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: input))
        let outcome = try s.run(["apply", "c", "--file", input])
        #expect(outcome.status == 1 && !outcome.signaled, "\(outcome)")
        let oks = outcome.stdout.split(separator: "\n").map { $0.hasPrefix(#"{"ok":true"#) }
        #expect(oks == [false, false, false, true], "\(outcome.stdout)")
    }
}
