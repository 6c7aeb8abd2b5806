import Foundation
@testable import Memery
import MemeryRender
import Testing

/// What users missed on first use (issue 11 §5): pictures on standard output, colours by
/// name, removing templates, a name held by the trash.
@Suite struct SmallThingsTests {
    /// `memery ARGS --store S > FILE`: the bytes written to standard output, and the exit status.
    func standardOutput(_ s: Sandbox, _ arguments: [String]) throws -> (Data, Int32) {
        let file = s.path("stdout-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: file, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.memery)
        process.arguments = arguments + ["--store", s.store]
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (try Data(contentsOf: URL(fileURLWithPath: file)), process.terminationStatus)
    }

    /// A reader that stops early (`memery log --json | head`, `memery history m | head`) is
    /// not an error of ours: the output ends quietly, with success, as the lines `print`
    /// dropped did before. (A drawing of the history that rethrew the failed write crashed.)
    @Test(arguments: [["log", "--json"], ["log"], ["history", "m"]])
    func outputIntoAPipeNobodyReadsEndsQuietly(command: [String]) throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--canvas", "10x10"])
        // More than one piece of output (64 KiB), so that a write fails in the middle of it.
        let edits = s.path("edits.jsonl")
        try Data((0..<1_500).map { #"{"op":"text","top":"edit \#($0)"}"# + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: edits))
        try s.ok(["apply", "m", "--file", edits])
        try s.ok(["undo", "m"])  // the move writes the history index, which `history` then draws from
        #expect(try s.ok(command).utf8.count > 64 * 1024)
        // A pipe whose reading end is closed before the command starts: its first write fails (EPIPE).
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        let errors = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.memery)
        process.arguments = command + ["--store", s.store]
        process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        process.standardError = errors.fileHandleForWriting
        try process.run()
        process.waitUntilExit()
        try errors.fileHandleForWriting.close()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0 && said.isEmpty, "\(process.terminationStatus): \(said)")
    }

    @Test func exportAndQuickWriteThePictureToStandardOutput() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["export", "m", "-o", s.path("file.png")])
        let (png, status) = try standardOutput(s, ["export", "m", "-o", "-", "--format", "png"])
        #expect(status == 0)
        #expect(png == (try Data(contentsOf: URL(fileURLWithPath: s.path("file.png")))), "the same bytes as the file")
        let (jpeg, quickStatus) = try standardOutput(s, ["quick", Paths.example, "--top", "piped", "-o", "-", "--format", "jpeg"])
        #expect(quickStatus == 0)
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]) && jpeg.count > 1000, "only the picture: no name printed into it")
        #expect(try s.ok(["list"]).contains("chelsea"), "the quick meme is kept")
    }

    @Test func anOutputThatCannotBeRightIsRefusedBeforeAnythingIsStored() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        let before = try s.counts()
        try s.fails(["export", "m", "-o", "-"], containing: "standard output (-o -) needs --format png|jpeg|webp")
        try s.fails(["export", "m", "-o", s.path("x.png"), "--format", "jpeg"],
                    containing: "is named as png but --format asks for jpeg: name it .jpg or leave out --format")
        try s.fails(["export", "m", "-o", s.dir.path], containing: "is a directory: give a file name in it")
        try s.fails(["quick", Paths.example, "--top", "x", "-o", s.path("q.webp"), "--format", "png"], containing: "is named as webp")
        #expect(try s.counts() == before)
        #expect(!FileManager.default.fileExists(atPath: s.path("x.png")))
        try s.ok(["export", "m", "-o", s.path("picture.out"), "--format", "webp"])  // an extension no format claims is fine
    }

    @Test func coloursAreTakenByCSSNameEverywhere() throws {
        let s = try Sandbox()
        try s.ok(["new", "blank", "--canvas", "40x30", "--background", "RebeccaPurple"])
        try s.ok(["shape", "add", "blank", "--rect", "0,0,10,10", "--fill", "red", "--stroke", "navy"])
        try s.ok(["text", "add", "blank", "x", "--color", "gold", "--outline", "transparent"])
        try s.ok(["layer", "set", "blank", "L1", "fill=lime"])
        try s.ok(["draw", "blank", "--points", "30,20", "--color", "white"])
        let detail = try #require(try s.json(["show", "blank", "--json"]) as? [String: Any])
        let layers = try #require(detail["layers"] as? [[String: Any]])
        let style = try #require(layers[1]["style"] as? [String: Any])
        #expect(style["fill"] as? String == "#ffd700" && style["outline"] as? String == "#00000000", "stored as hex")
        let opened = try Workspace(directory: URL(fileURLWithPath: s.store))
        let picture = try opened.pictures.render(try opened.creation(named: "blank"))
        let p = picture.pixel(x: 20, y: 28)
        #expect((p.r, p.g, p.b) == (0x66, 0x33, 0x99), "rebeccapurple")
        let q = picture.pixel(x: 5, y: 5)
        #expect((q.r, q.g, q.b) == (0, 255, 0), "lime, set by name")
        try s.fails(["text", "add", "blank", "x", "--color", "reddish"], containing: "or a CSS name, e.g. #ffffff or rebeccapurple")
    }

    @Test func aTemplateCanBeRemoved() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["template", "save", "m", "Classic"])
        try s.ok(["new", "from", "--template", "classic"])
        try s.ok(["template", "remove", "CLASSIC"])
        #expect(try s.ok(["template", "list"]).contains("no templates yet"))
        try s.fails(["new", "later", "--template", "Classic"], containing: "no template named")
        try s.fails(["template", "remove", "Classic"], containing: "no template named")
        #expect(try s.ok(["show", "from"]).contains("451x300"), "a creation started from it keeps what it took")
    }

    @Test func aNameHeldByTheTrashSaysSoAndHowToFreeIt() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--canvas", "10x10"])
        try s.ok(["delete", "m"])
        try s.fails(["new", "M", "--canvas", "10x10"],
                    containing: "a creation named \"M\" is in the trash: restore it, or purge it to use the name again: `memery restore M` brings it back; `memery purge M` deletes it for good")
        try s.ok(["new", "other", "--canvas", "10x10"])
        try s.fails(["rename", "other", "m"], containing: "is in the trash")
        try s.ok(["restore", "m"])
        try s.fails(["new", "m", "--canvas", "10x10"], containing: "a creation named \"m\" already exists")
    }
}
