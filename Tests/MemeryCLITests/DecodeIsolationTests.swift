import Foundation
import MemeryRender
import Testing

/// Pictures from outside are decoded in a helper process with a memory and processor limit:
/// a decode that spins, blows up or crashes ends there, with a message, and stores nothing.
@Suite struct DecodeIsolationTests {
    /// A flat interlaced PNG of `side` x `side` made with vips (bootstrap installs it): a few
    /// hundred kilobytes that take seconds of processor time to decode.
    static func interlacedPNG(side: Int, in s: Sandbox) throws -> String {
        let path = s.path("flat-\(side).png")
        let vips = Process()
        vips.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        vips.arguments = ["vips", "black", "\(path)[interlace]", "\(side)", "\(side)", "--bands", "3"]
        try vips.run()
        vips.waitUntilExit()
        #expect(vips.terminationStatus == 0, "vips could not make the test picture")
        return path
    }

    /// The visible bytes of each row (stride padding left out).
    static func rows(_ raster: Raster) -> [Data] {
        raster.withMutablePixels { pixels, stride in
            (0..<raster.height).map { Data(bytes: pixels + $0 * stride, count: raster.width * 4) }
        }
    }

    @Test func aDecodeOverItsProcessorTimeIsGivenUpWithAMessage() throws {
        let s = try Sandbox()
        let picture = try Self.interlacedPNG(side: 1_000, in: s)
        try s.ok(["new", "first", "--image", Paths.example])
        let before = try s.counts()
        // The helper spins at its fail point, so the 1 s limit is passed on any machine.
        let outcome = try s.run(["new", "slow", "--image", picture], environment: ["MEMERY_DECODE_SECONDS": "1", "MEMERY_FAILPOINT": "decode-spins"])
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr.contains("\(picture) took more than 1 s of processor time to decode and was given up"), "\(outcome)")
        #expect(try s.counts() == before)
    }

    @Test func aDecodeOverItsMemoryIsGivenUpWithAMessage() throws {
        let s = try Sandbox()
        let picture = try Self.interlacedPNG(side: 5_000, in: s)
        // 5000x5000 needs about 75 MB for the loader's RGB picture (the converted copy goes
        // into memory shared with the caller, which the limit does not count).
        let outcome = try s.run(["new", "hungry", "--image", picture], environment: ["MEMERY_DECODE_MEGABYTES": "50"])
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr.contains("\(picture) needed more than 50 MB of memory to decode"), "\(outcome)")
        #expect(!outcome.stderr.contains("Insufficient memory"), "gdk-pixbuf's words leaked: \(outcome)")
        // Within its budget the same picture imports.
        try s.ok(["new", "fits", "--image", picture])
    }

    @Test func aCrashingOrMissingHelperIsReportedAndStoresNothing() throws {
        let s = try Sandbox()
        let crasher = s.path("crasher.sh")
        try "#!/bin/sh\nkill -SEGV $$\n".write(toFile: crasher, atomically: true, encoding: .utf8)
        chmod(crasher, 0o755)
        try s.ok(["new", "first", "--image", Paths.example])
        let before = try s.counts()
        var outcome = try s.run(["new", "c", "--image", Paths.example], environment: ["MEMERY_HELPER": crasher])
        #expect(outcome.status == 1 && !outcome.signaled, "\(outcome)")
        #expect(outcome.stderr.contains("the decoder crashed on \(Paths.example) (signal 11)"), "\(outcome)")
        outcome = try s.run(["new", "m", "--image", Paths.example], environment: ["MEMERY_HELPER": s.path("nowhere")])
        #expect(outcome.stderr.contains("the decoding helper \(s.path("nowhere")) is missing or not executable"), "\(outcome)")
        outcome = try s.run(["new", "f", "--image", Paths.example], environment: ["MEMERY_HELPER": "/bin/false"])
        #expect(outcome.stderr.contains("the decoding helper /bin/false failed (exit 1)"), "\(outcome)")
        #expect(try s.counts() == before)
    }

    /// A server decodes for as long as it runs: every decode closes what it opened (the
    /// fuzzer ran out of descriptors after 13,000 imports when the pipes were left open).
    @Test func decodingLeavesNoFileDescriptorsOpen() throws {
        let isolated = IsolatedDecoder(decoder: ImageDecoder(), helper: Paths.memery)
        let data = try Data(contentsOf: URL(fileURLWithPath: Paths.example))
        func open() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count }
        _ = try isolated.decode(data, source: "warm-up")
        let before = try open()
        for _ in 0..<30 { _ = try isolated.decode(data, source: "again") }
        // Other tests run alongside and open files of their own: a leak would be 90 or more.
        #expect(try open() - before < 30)
    }

    @Test(.enabled(if: Paths.sharedAvailable, "../shared/testdata is absent: the comparison needs its photographs"))
    func theHelperGivesTheSamePixelsAsDecodingInPlace() throws {
        let decoder = ImageDecoder()
        let isolated = IsolatedDecoder(decoder: decoder, helper: Paths.memery)
        let folders = ["photos", "edge"].map { Paths.shared.appendingPathComponent($0) }
        var compared = 0
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                guard let (inPlace, info) = try? decoder.decode(data, source: name) else { continue }
                let (helped, helpedInfo) = try isolated.decode(data, source: name)
                #expect(helpedInfo == info, "\(name)")
                #expect(helped.width == inPlace.width && helped.height == inPlace.height, "\(name)")
                #expect(Self.rows(helped) == Self.rows(inPlace), "\(name): the pixels differ")
                compared += 1
            }
        }
        #expect(compared >= 15)
    }
}
