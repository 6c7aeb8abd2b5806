import Foundation
import Testing

/// A negative number is a value to check, not an option: each gets exit 1 and a message
/// that names it and the range, never argument-parser's "Missing value".
@Suite struct NegativeValueTests {
    @Test(arguments: [
        (["text", "add", "c", "hi", "--size", "-5"], "size must be between 4 and 2000, got -5"),
        (["crop", "c", "-10,-10,50,50"], "crop -10,-10,50,50 must lie inside the 100x100 canvas"),
        (["undo", "c", "--steps", "-1"], "steps must be between 1 and 1000000, got -1"),
        (["shape", "add", "c", "--rect", "0,0,10,10", "--alpha", "-0.5"], "alpha must be between 0 and 1, got -0.5"),
        (["draw", "c", "--points", "1,1", "--width", "-3"], "-3"),
        (["move", "c", "--to", "-2"], "position must be between 1 and 1, got -2"),
    ])
    func negativeNumbersAreRefusedByRange(arguments: [String], message: String) throws {
        let s = try Sandbox()
        try s.ok(["new", "c", "--canvas", "100x100"])
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
}
