import Foundation
import Testing

/// Issue 32's §4 limits: a size Memery chose itself is never refused as the person's, a
/// format's own limit is said before any work, and a blank canvas keeps the import limit.
@Suite struct LimitsSaidPlainlyTests {
    @Test func aVeryTallPictureGetsItsCaptionsAtTheLargestSize() throws {
        let s = try Sandbox()
        try s.ok(["new", "screenshot", "--canvas", "1000x15000"])
        // 15000 / 7 is 2143, past the 2000 a person may give: Memery's own choice is kept within it.
        try s.ok(["text", "screenshot", "--top", "scroll down", "--bottom", "keep going"])
        let show = try #require(try s.json(["show", "screenshot", "--json"]) as? [String: Any])
        let sizes = (show["layers"] as? [[String: Any]])?.compactMap { ($0["style"] as? [String: Any])?["maxSize"] as? Double }
        #expect(sizes == [2000, 2000], "\(String(describing: sizes))")
        try s.ok(["text", "screenshot", "--top", "edited"])
        try s.fails(["text", "screenshot", "--top", "given", "--size", "2143"], containing: "size must be between 4 and 2000, got 2143")
    }

    @Test func aWebPTooLongIsRefusedBeforeAnyWorkWithWhatToDo() throws {
        let s = try Sandbox()
        try s.ok(["new", "strip", "--canvas", "800x17000"])
        try s.fails(["export", "strip", "-o", s.path("strip.webp")],
                    containing: "WebP holds at most 16383 pixels a side and this picture is 800x17000: export it as PNG or JPEG, or at a smaller width")
        #expect(!FileManager.default.fileExists(atPath: s.path("strip.webp")))
        try s.ok(["export", "strip", "-o", s.path("half.webp"), "--width", "400"])
        #expect(magic(s.path("half.webp")) == Array("RIFF".utf8))
    }

    @Test func aBlankCanvasKeepsTheImportLimit() throws {
        let s = try Sandbox()
        try s.fails(["new", "huge", "--canvas", "20000x20000"],
                    containing: "a 20000x20000 canvas is 400 megapixels, over the limit of 100 megapixels a picture may have: choose a smaller size")
        #expect(try s.run(["new", "huge", "--canvas", "20000x20000"], environment: ["MEMERY_MAX_MEGAPIXELS": "500"]).status == 0,
                "the operator's limit is the canvas's too")
        #expect(try s.ok(["new", "fine", "--canvas", "10000x10000"]).hasPrefix("fine\t"))
    }

    @Test func aTextHasALengthLimitSaidInItsError() throws {
        let s = try Sandbox()
        try s.ok(["new", "c", "--canvas", "600x400"])
        try s.ok(["text", "add", "c", String(repeating: "a", count: 2000)])
        try s.fails(["text", "add", "c", String(repeating: "ab ", count: 667)],
                    containing: "the text is 2001 characters long; a layer takes at most 2000: split it over several text boxes")
        try s.fails(["text", "c", "--top", String(repeating: "😂", count: 2001)], containing: "the text is 2001 characters long")
        #expect(try s.ok(["show", "c"]).contains("layers:  1, bottom first"))
    }

    @Test func applyReadsALongLineAndManyShortOnesFromAPipe() throws {
        let s = try Sandbox()
        try s.ok(["new", "c", "--canvas", "600x400"])
        // A 3 MB line (refused for its length), then 300 more, through a pipe in pieces: each
        // is answered, in order.
        let long = #"{"op":"text add","text":"\#(String(repeating: "x", count: 3_000_000))"}"#
        let lines = [long] + (1...300).map { #"{"op":"text add","text":"line \#($0)","box":"10,10,100,40"}"# }
        let outcome = try s.run(["apply", "c"], input: lines.joined(separator: "\n") + "\n")
        let replies = outcome.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(replies.count == 301, "\(outcome.stderr)")
        #expect((replies.first??["error"] as? String)?.contains("the text is 3000000 characters long") == true, "\(String(describing: replies.first))")
        #expect(replies.dropFirst().allSatisfy { $0?["ok"] as? Bool == true })
        #expect(try s.ok(["show", "c"]).contains("layers:  300, bottom first"))
    }
}
