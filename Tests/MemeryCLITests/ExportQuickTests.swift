import Foundation
import Testing
import MemeryRender

@Suite struct ExportQuickTests {
    @Test func exportWritesTheFormatTheExtensionNames() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["text", "m", "--top", "top", "--bottom", "bottom"])
        #expect(try s.ok(["export", "m", "-o", s.path("a.png")]) == s.path("a.png"))
        try s.ok(["export", "m", "-o", s.path("a.jpg")])
        try s.ok(["export", "m", "-o", s.path("a.webp")])
        try s.ok(["export", "m", "-o", s.path("forced.img"), "--format", "jpeg"])
        #expect(magic(s.path("a.png")) == [0x89, 0x50, 0x4e, 0x47])
        #expect(magic(s.path("a.jpg"), 2) == [0xff, 0xd8])
        #expect(magic(s.path("a.webp")) == Array("RIFF".utf8))
        #expect(magic(s.path("forced.img"), 2) == [0xff, 0xd8])
        // The export can be imported again at the canvas size.
        #expect(try s.ok(["new", "again", "--image", s.path("a.webp")]).hasPrefix("again\t"))
        #expect(try s.ok(["show", "again"]).contains("canvas:  451x300"))
    }

    /// `--width` scales down (never up), keeping the aspect; a bad width is refused.
    @Test func exportScalesToAWidth() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["text", "m", "--top", "small"])
        try s.ok(["export", "m", "-o", s.path("small.png"), "--width", "150"])
        try s.ok(["export", "m", "-o", s.path("same.png"), "--width", "2000"])
        let (small, _) = try ImageDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: s.path("small.png"))), source: "small.png")
        let (same, _) = try ImageDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: s.path("same.png"))), source: "same.png")
        #expect(small.width == 150 && small.height == 100 && small.isOpaque)
        #expect(same.width == 451 && same.height == 300, "wider than the picture: its own size")
        #expect(try s.run(["export", "m", "-o", s.path("none.png"), "--width", "0"]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: s.path("none.png")))
    }

    @Test func jpegQualityChangesTheFile() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["export", "m", "-o", s.path("low.jpg"), "--quality", "5"])
        try s.ok(["export", "m", "-o", s.path("high.jpg"), "--quality", "100"])
        let low = try FileManager.default.attributesOfItem(atPath: s.path("low.jpg"))[.size] as? Int ?? 0
        let high = try FileManager.default.attributesOfItem(atPath: s.path("high.jpg"))[.size] as? Int ?? 0
        #expect(low > 0 && low * 3 < high)
    }

    @Test func badExportRequestsAreRefusedClearly() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.fails(["export", "m", "-o", s.path("a.jpg"), "--quality", "0"], containing: "quality must be between 1 and 100, got 0")
        try s.fails(["export", "m", "-o", s.path("a.jpg"), "--quality", "101"], containing: "got 101")
        try s.fails(["export", "m", "-o", s.path("a.tga")], containing: "cannot tell the format from")
        try s.fails(["export", "m", "-o", s.path("missing/dir/a.png")], containing: "cannot write \(s.path("missing/dir/a.png")): No such file or directory")
        #expect(try s.run(["export", "m", "-o", s.path("a.png"), "--format", "bmp"]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: s.path("a.jpg")))
    }

    @Test func quickMakesTheMemeAndKeepsTheCreation() throws {
        let s = try Sandbox()
        #expect(try s.ok(["quick", Paths.example, "--top", "quick", "--bottom", "meme", "-o", s.path("q.jpg")]) == "chelsea")
        #expect(magic(s.path("q.jpg"), 2) == [0xff, 0xd8])
        #expect(try s.ok(["show", "chelsea"]).contains("\"quick\""))
        // A second quick of the same file gets a name of its own; the image blob is shared.
        #expect(try s.ok(["quick", Paths.example, "-o", s.path("q2.png")]) == "chelsea-2")
        let counts = try s.counts()
        #expect(counts.contains("4 streams") && counts.contains("1 blobs"), "two creations and their gallery memberships: \(counts)")
        // And it can be edited later.
        try s.ok(["text", "chelsea-2", "--bottom", "later"])
        try s.ok(["export", "chelsea-2", "-o", s.path("q3.png")])
    }

    /// quick draws its picture from edits decided in memory while the store keeps them (and
    /// writes a JPEG from a JPEG while decoding it): the picture is the one the kept creation
    /// renders, byte for byte.
    @Test(arguments: ["png", "jpg"])
    func quickWritesWhatTheKeptCreationRenders(_ format: String) throws {
        let s = try Sandbox()
        try s.ok(["new", "source", "--image", Paths.example])
        try s.ok(["export", "source", "-o", s.path("photo.jpg")])
        #expect(try s.ok(["quick", s.path("photo.jpg"), "--top", "drawn while", "--bottom", "it is stored", "--font", "Lato",
                          "--color", "gold", "-o", s.path("quick.\(format)")]) == "photo")
        try s.ok(["export", "photo", "-o", s.path("export.\(format)")])
        let quick = try Data(contentsOf: URL(fileURLWithPath: s.path("quick.\(format)")))
        #expect(quick == (try Data(contentsOf: URL(fileURLWithPath: s.path("export.\(format)")))))
        #expect(quick.count > 10_000)
        #expect(try s.ok(["show", "photo"]).contains("drawn while"))
    }

    /// A caption's words (fill and outline) drawn in full when the rows are written while
    /// they are decoded: a long caption over several lines, a free text box, an emoji.
    @Test func aStreamedJPEGHasEveryCaptionWhole() throws {
        let s = try Sandbox()
        try s.ok(["new", "source", "--image", Paths.example])
        try s.ok(["export", "source", "-o", s.path("photo.jpg")])
        try s.ok(["quick", s.path("photo.jpg"), "--top", "a caption long enough to need three lines or more at this size 😀",
                  "--bottom", "and another at the bottom", "-o", s.path("quick.jpg")])
        try s.ok(["export", "photo", "-o", s.path("export.jpg")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.path("quick.jpg"))) == (try Data(contentsOf: URL(fileURLWithPath: s.path("export.jpg")))))
    }

    /// A JPEG damaged in the middle: the fast decoder gives up part-way and gdk-pixbuf starts
    /// over, while quick is writing the rows it was given; what it writes is still the export.
    @Test func aJPEGDamagedInTheMiddleStartsOverAndStillGivesTheExport() throws {
        let s = try Sandbox()
        try s.ok(["new", "source", "--image", Paths.example])
        try s.ok(["export", "source", "-o", s.path("photo.jpg"), "--quality", "100"])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: s.path("photo.jpg"))))
        let scan = bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }!
        for index in (scan + (bytes.count - scan) / 2)..<(scan + (bytes.count - scan) / 2 + 64) where bytes[index] != 0xFF && bytes[index - 1] != 0xFF {
            bytes[index] = (bytes[index] &* 7 &+ 13) & 0xFE
        }
        try Data(bytes).write(to: URL(fileURLWithPath: s.path("damaged.jpg")))
        for run in 1...3 {
            let outcome = try s.run(["quick", s.path("damaged.jpg"), "--top", "damaged", "-o", s.path("quick\(run).jpg")])
            #expect(outcome.status == 0 && !outcome.signaled, "\(outcome)")
        }
        try s.ok(["export", "damaged", "-o", s.path("export.jpg")])
        let export = try Data(contentsOf: URL(fileURLWithPath: s.path("export.jpg")))
        for run in 1...3 { #expect(try Data(contentsOf: URL(fileURLWithPath: s.path("quick\(run).jpg"))) == export) }
    }

    @Test func quickWithABrokenImageStoresNothing() throws {
        let s = try Sandbox()
        try s.ok(["quick", Paths.example, "-o", s.path("ok.png")])
        let before = try s.counts()
        let text = s.path("notes.png")
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: text))
        try s.fails(["quick", text, "--top", "x", "-o", s.path("bad.png")], containing: "notes.png is text, not a picture: choose a picture")
        #expect(try s.counts() == before)
        #expect(!FileManager.default.fileExists(atPath: s.path("bad.png")))
    }

    /// Issue 30's defect 16: a quick meme that cannot be written leaves no creation behind
    /// (the retry used to make "chelsea-3").
    @Test func quickThatCannotWriteItsFileStoresNothing() throws {
        let s = try Sandbox()
        try s.ok(["new", "first", "--canvas", "10x10"])
        let before = try s.counts()
        try s.fails(["quick", Paths.example, "--top", "x", "-o", "/nonexistent/x.png"],
                    containing: "cannot write /nonexistent/x.png: the folder /nonexistent does not exist")
        try s.fails(["quick", Paths.example, "--top", "x", "-o", s.path("")], containing: "is a directory: give a file name in it")
        #expect(try s.counts() == before)
        #expect(try s.ok(["quick", Paths.example, "--top", "x", "-o", s.path("ok.png")]) == "chelsea")
    }
}
