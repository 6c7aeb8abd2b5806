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
}
