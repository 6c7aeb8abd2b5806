import Foundation
import Testing

/// Damaged stores are exit 3 and never a wrong picture; paths that are not pictures say so.
@Suite struct DamagedInputTests {
    @Test func anImageWhoseBytesChangedOnDiskIsRefusedNotExported() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        let copy = s.path("copy")
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: s.store + "/data.mdb"))
        // Flip bits inside the stored PNG's pixel data (its IDAT chunk), not its header.
        let png = try Data(contentsOf: URL(fileURLWithPath: Paths.example))
        let idat = try #require(png.range(of: Data("IDAT".utf8)))
        let sample = png[(idat.upperBound + 5000)..<(idat.upperBound + 5032)]
        let at = try #require(bytes.range(of: sample), "the picture is stored whole")
        for offset in 0..<8 { bytes[at.lowerBound + offset] ^= 0x5a }
        try bytes.write(to: URL(fileURLWithPath: copy + "/data.mdb"))
        let target = s.path("out.png")
        let export = try Sandbox.run(["export", "m", "-o", target, "--store", copy])
        #expect(export.status == 3 && !export.signaled, "\(export)")
        #expect(export.stderr.contains("does not match its hash"), "\(export.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target), "no picture written")
        #expect(try Sandbox.run(["verify", "--store", copy]).status == 3)
    }

    @Test(arguments: [Data(repeating: 0x41, count: 65_536), Data("not a store\n".utf8)])
    func aDataFileThatIsNotAStoreIsADamagedStore(contents: Data) throws {
        let s = try Sandbox()
        let dir = s.path("fake")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try contents.write(to: URL(fileURLWithPath: dir + "/data.mdb"))
        let outcome = try Sandbox.run(["list", "--store", dir])
        #expect(outcome.status == 3 && !outcome.signaled, "\(outcome)")
        #expect(outcome.stderr.contains("data.mdb is not a readable store file"), "\(outcome.stderr)")
    }

    @Test func pathsThatAreNotPicturesSayWhat() throws {
        let s = try Sandbox()
        try s.fails(["new", "x", "--image", s.dir.path], containing: "it is a directory, not an image file")
        try s.fails(["new", "x", "--image", ""], containing: "an empty path names no file")
        try s.fails(["new", "x", "--image", "/dev/zero"], containing: "/dev/zero: it is not a regular file")
        try s.fails(["new", "x", "--image", s.path("missing.png")], containing: "missing.png: no such file")
        #expect(try s.counts() == "no store" || !(try s.ok(["list"])).contains("x"))
    }
}
