import Foundation
import Testing

/// Small filesystems made for the test (tmpfs), to fill up and to make read-only.
enum Mounts {
    static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether this machine lets the tests mount a tmpfs (root in a sandbox that allows it).
    static let available: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("memery-mount-probe-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]) else { return false }
        return run(["umount", probe])
    }()

    static func tmpfs(_ path: String, size: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try #require(run(["mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]))
    }
}

@Suite(.serialized, .enabled(if: Mounts.available, "mounting a tmpfs is not allowed here: the full-disk and read-only tests need one"))
struct FaultTests {
    @Test func aFullDiskIsAClearErrorAndLosesNothing() throws {
        let s = try Sandbox()
        let tiny = s.path("tiny")
        try Mounts.tmpfs(tiny, size: "900k")
        defer { _ = Mounts.run(["umount", tiny]) }
        let store = tiny + "/store"
        // Pictures of different bytes, so each one is stored anew.
        try s.ok(["new", "source", "--image", Paths.example])
        var made = [String]()
        var failure: Outcome?
        func fileSize() -> Int { ((try? FileManager.default.attributesOfItem(atPath: store + "/data.mdb"))?[.size] as? Int) ?? -1 }
        var sizeBefore = 0
        for n in 0..<8 {
            try s.ok(["text", "source", "--top", "picture \(n)"])
            let picture = s.path("p\(n).png")
            try s.ok(["export", "source", "-o", picture])
            sizeBefore = fileSize()
            let outcome = try Sandbox.run(["new", "c\(n)", "--image", picture, "--store", store])
            if outcome.status == 0 { made.append("c\(n)") } else { failure = outcome; break }
        }
        let full = try #require(failure, "the 900 KiB disk never filled")
        #expect(full.status == 1 && !full.signaled)
        #expect(full.stderr.contains("the disk holding the store \(store) is full (or failing): nothing was stored; free some space and try again"), "\(full.stderr)")
        #expect(!made.isEmpty)
        // The failed write gave back what it had taken (LMDB had written its pages past the
        // end of data.mdb), so a small edit still fits.
        #expect(fileSize() <= sizeBefore, "data.mdb is \(fileSize()) bytes after the failed write, \(sizeBefore) before")
        #expect(try Sandbox.run(["text", made[0], "--top", "still room", "--store", store]).status == 0)
        // A stream of edits stops at the first line the full disk fails (it went on failing
        // 2,726 more lines before), with the reason on that line.
        let lines = (0..<2_000).map { #"{"op":"text","top":"\#(String(repeating: "x", count: 1_990)) \#($0)"}"# }.joined(separator: "\n")
        let script = s.path("many.jsonl")
        try lines.write(toFile: script, atomically: true, encoding: .utf8)
        let applied = try Sandbox.run(["apply", made[0], "--file", script, "--store", store])
        let refusals = applied.stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"ok":false"#) }
        #expect(applied.status == 1 && refusals.count == 1 && refusals.first?.contains("is full") == true, "\(applied.stderr)")
        #expect(applied.stdout.split(separator: "\n").count < 2_000, "2,000 lines of 2 kB do not fit in what is left of 900 kB")
        // What was acknowledged before is all there, and the store is sound.
        let list = try Sandbox.run(["list", "--store", store])
        #expect(list.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } == made)
        let verify = try Sandbox.run(["verify", "--store", store])
        #expect(verify.status == 0 && verify.stdout.hasSuffix("ok\n"), "\(verify)")
        // An export to the full disk fails whole: no half-written file is left.
        let export = try Sandbox.run(["export", made[0], "-o", tiny + "/out.png", "--store", store])
        if export.status != 0 {
            #expect(export.stderr.contains("No space left on device"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: tiny) == ["store"])
        }
    }

    @Test func aReadOnlyStoreCanBeReadButNotChanged() throws {
        let s = try Sandbox()
        let disk = s.path("ro")
        try Mounts.tmpfs(disk, size: "8m")
        defer { _ = Mounts.run(["umount", disk]) }
        let store = disk + "/store"
        #expect(try Sandbox.run(["quick", Paths.example, "--top", "frozen", "-o", s.path("q.png"), "--store", store]).status == 0)
        try #require(Mounts.run(["mount", "-o", "remount,ro", disk]))
        #expect(try Sandbox.run(["list", "--store", store]).stdout.hasPrefix("chelsea\t"))
        #expect(try Sandbox.run(["show", "chelsea", "--store", store]).stdout.contains("\"frozen\""))
        #expect(try Sandbox.run(["export", "chelsea", "-o", s.path("out.png"), "--store", store]).status == 0)
        #expect(try Sandbox.run(["verify", "--store", store]).stdout.hasSuffix("ok\n"))
        let edit = try Sandbox.run(["text", "chelsea", "--top", "thawed", "--store", store])
        #expect(edit.status == 1 && !edit.signaled)
        #expect(edit.stderr == "error: the store \(store) is read-only: it can be read, but nothing can be changed; make it writable to edit\n")
    }
}

/// An export killed at any moment leaves the target whole: the old picture or the new one.
@Suite struct InterruptedExportTests {
    @Test func aKilledExportNeverLeavesHalfAFile() throws {
        let s = try Sandbox()
        let big = s.path("big.png")
        // A big picture, so that encoding and writing take long enough to be interrupted.
        try s.ok(["new", "canvas", "--canvas", "3000x2000", "--background", "#336699"])
        try s.ok(["draw", "canvas", "--points", "0,0 3000,2000 0,2000 3000,0", "--width", "40", "--color", "#ffcc00"])
        try s.ok(["export", "canvas", "-o", big])
        try s.ok(["new", "m", "--image", big])
        try s.ok(["text", "m", "--top", "old"])
        let target = s.path("out.png")
        try s.ok(["export", "m", "-o", target])
        let old = try Data(contentsOf: URL(fileURLWithPath: target))
        try s.ok(["text", "m", "--top", "new"])
        try s.ok(["export", "m", "-o", s.path("reference.png")])
        let new = try Data(contentsOf: URL(fileURLWithPath: s.path("reference.png")))
        var interrupted = 0
        for attempt in 0..<12 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.memery)
            process.arguments = ["export", "m", "-o", target, "--store", s.store]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(50_000 + attempt * 40_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { interrupted += 1 }
            let now = try Data(contentsOf: URL(fileURLWithPath: target))
            #expect(now == old || now == new, "attempt \(attempt): the target is neither the old nor the new picture")
        }
        #expect(interrupted > 0, "no export was interrupted; the picture is too small to test this")
        // The next export clears what the killed ones left beside the target.
        try s.ok(["export", "m", "-o", target])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: s.dir.path).filter { $0.hasPrefix(".out.png.") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
