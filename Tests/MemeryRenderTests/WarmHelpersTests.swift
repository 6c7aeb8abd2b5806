import Foundation
import MemeryCore
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// Decoding helpers kept warm between pictures (issue 34): the same limits as a helper of
/// its own, a processor-time limit per job, let go after a number of jobs and after any job
/// that did not decode, and never shared between two pools (two people's workspaces).
@Suite struct WarmHelpersTests {
    /// A PNG of one colour.
    static func png(width: Int = 64, height: Int = 48, red: UInt8) throws -> Data {
        let raster = try Raster(width: width, height: height)
        raster.withMutablePixels { pixels, stride in
            for y in 0..<height {
                for x in 0..<width {
                    let pixel = pixels + y * stride + x * 4  // Cairo's ARGB32, little-endian: B G R A
                    pixel[0] = 0x20; pixel[1] = 0x40; pixel[2] = red; pixel[3] = 0xff
                }
            }
        }
        return try ImageEncoder.encode(raster, as: .png)
    }

    static func decoder(_ pool: WarmHelpers, cpuSeconds: Int = 30, megabytes: Int? = nil) -> IsolatedDecoder {
        IsolatedDecoder(decoder: ImageDecoder(), cpuSeconds: cpuSeconds, megabytes: megabytes, warm: pool)
    }

    @Test func aWarmHelperDecodesOnePictureAfterAnother() throws {
        let pool = WarmHelpers(.decoding, keep: 1)
        for red: UInt8 in [10, 120, 250] {
            let (raster, info) = try Self.decoder(pool).decode(try Self.png(red: red), source: "red-\(red).png")
            #expect(info.format == "png" && info.width == 64 && info.height == 48)
            #expect(raster.pixel(x: 63, y: 47) == (red, 0x40, 0x20, 0xff))
        }
        #expect(pool.served.count == 3)
        #expect(Set(pool.served).count == 1, "one helper took all three: \(pool.served)")
    }

    @Test func aHelperIsLetGoAfterItsNumberOfJobs() throws {
        let pool = WarmHelpers(.decoding, keep: 1, jobsPerHelper: 3)
        for red: UInt8 in [1, 2, 3, 4] { _ = try Self.decoder(pool).decode(try Self.png(red: red), source: "p.png") }
        let served = pool.served
        try #require(served.count == 4, "\(served)")
        #expect(Set(served.prefix(3)).count == 1)
        #expect(served[3] != served[0], "the fourth picture went to a new helper: \(served)")
    }

    @Test func aHelperIsLetGoAfterAPictureThatDidNotDecode() throws {
        let pool = WarmHelpers(.decoding, keep: 1)
        _ = try Self.decoder(pool).decode(try Self.png(red: 1), source: "good.png")
        // A whole PNG whose compressed pixels are damaged: its header passes, its decoder refuses it.
        var damaged = try Self.png(width: 300, height: 200, red: 2)
        let data = try #require(damaged.range(of: Data("IDAT".utf8))).upperBound
        for offset in data + 8..<data + 40 { damaged[offset] ^= 0x5a }
        #expect(throws: RenderError.self) { try Self.decoder(pool).decode(damaged, source: "damaged.png") }
        _ = try Self.decoder(pool).decode(try Self.png(red: 3), source: "after.png")
        let served = pool.served
        try #require(served.count == 3, "\(served)")
        #expect(served[1] == served[0], "the damaged picture went to the warm helper: \(served)")
        #expect(served[2] != served[1], "the helper that refused a picture was let go: \(served)")
    }

    @Test func twoPoolsNeverShareAHelper() throws {
        let mine = WarmHelpers(.decoding, keep: 2), theirs = WarmHelpers(.decoding, keep: 2)
        for red: UInt8 in [1, 2, 3] {
            _ = try Self.decoder(mine).decode(try Self.png(red: red), source: "mine.png")
            _ = try Self.decoder(theirs).decode(try Self.png(red: red), source: "theirs.png")
        }
        #expect(mine.served.count == 3 && theirs.served.count == 3)
        #expect(Set(mine.served).isDisjoint(with: theirs.served), "mine \(mine.served), theirs \(theirs.served)")
    }

    /// RLIMIT_CPU counts a process's whole life; a warm helper's limit is set per job. After
    /// 50 jobs of 40 ms (2 s in all, past the 1 s limit) a job of 700 ms still decodes in the
    /// same helper, and a job that would take 5 s is stopped at its own limit.
    @Test func eachJobHasItsOwnProcessorTimeLimit() throws {
        let pool = WarmHelpers(.decoding, keep: 1, jobsPerHelper: 100)
        var decoder = Self.decoder(pool, cpuSeconds: 1)
        let picture = try Self.png(red: 7)
        decoder.spendMilliseconds = 40
        for _ in 0..<50 { _ = try decoder.decode(picture, source: "small.png") }
        decoder.spendMilliseconds = 700
        let (raster, _) = try decoder.decode(picture, source: "near-the-limit.png")
        #expect(raster.pixel(x: 0, y: 0) == (7, 0x40, 0x20, 0xff))
        #expect(Set(pool.served).count == 1, "51 jobs in one helper")
        decoder.spendMilliseconds = 5_000
        let error = try #require(throws: RenderError.self) { try decoder.decode(picture, source: "bomb.png") }
        #expect(error == .decodeTooSlow(source: "bomb.png", seconds: 1))
        decoder.spendMilliseconds = nil
        _ = try decoder.decode(picture, source: "after.png")
        #expect(pool.served.last != pool.served.first, "the helper the limit ended was replaced")
    }

    /// The memory limit holds for a warm helper too, set per job over what the helper holds
    /// already: within one helper a large picture decodes with a large budget, a small one
    /// with a small budget, and a large one with the small budget is refused, naming it.
    @Test func eachJobHasItsOwnMemoryLimit() throws {
        let pool = WarmHelpers(.decoding, keep: 1)
        let large = try Self.png(width: 5_000, height: 5_000, red: 9)
        let (raster, _) = try Self.decoder(pool).decode(large, source: "large.png")
        #expect(raster.width == 5_000 && raster.pixel(x: 4_999, y: 4_999) == (9, 0x40, 0x20, 0xff))
        _ = try Self.decoder(pool, megabytes: 50).decode(try Self.png(red: 1), source: "small.png")
        let error = try #require(throws: RenderError.self) { try Self.decoder(pool, megabytes: 50).decode(large, source: "large.png") }
        #expect(error == .decodeTooHungry(source: "large.png", megabytes: 50))
        let served = pool.served
        #expect(served.count == 3 && Set(served).count == 1, "all three in one helper: \(served)")
    }

    /// An idle helper that died (killed from outside) is noticed before a job is sent to it,
    /// and a new one takes the job.
    @Test func aDeadIdleHelperIsReplaced() throws {
        let pool = WarmHelpers(.decoding, keep: 1)
        _ = try Self.decoder(pool).decode(try Self.png(red: 1), source: "first.png")
        let first = try #require(pool.served.first)
        kill(first, SIGKILL)
        // Dead (a zombie until the pool collects it), its socket closed.
        for _ in 0..<600 where !((try? String(contentsOfFile: "/proc/\(first)/stat", encoding: .utf8))?.contains(") Z ") ?? true) {
            usleep(100_000)
        }
        let (raster, _) = try Self.decoder(pool).decode(try Self.png(red: 2), source: "second.png")
        #expect(raster.pixel(x: 0, y: 0) == (2, 0x40, 0x20, 0xff))
        #expect(pool.served.last != first)
        try Self.expectEnded(first)
    }

    /// A helper that is not memery, or not there: a clear error, every time, and nothing left
    /// open behind it.
    @Test func aHelperThatIsNotThereOrNotMemeryLeavesNothingOpen() throws {
        let before = try Self.openDescriptors()
        for _ in 0..<100 {
            let pool = WarmHelpers(.decoding, keep: 1, helper: "/bin/false")
            let decoder = IsolatedDecoder(decoder: ImageDecoder(), helper: "/bin/false", warm: pool)
            #expect(throws: RenderError.self) { try decoder.decode(try Self.png(red: 1), source: "p.png") }
            let missing = WarmHelpers(.decoding, keep: 1, helper: "/nowhere/memery")
            let failure = try #require(throws: WarmHelpers.Failure.self) { try missing.start(Data("{}".utf8), descriptors: [], timeout: 1) }
            #expect(failure.reason.contains("/nowhere/memery is missing or not executable"))
        }
        // Helpers are ended and collected away from the caller: give them a moment. The
        // count is the whole test process's, where other suites open and close files and
        // sockets meanwhile: a margin of 50, half the 100 a leak of one per round leaves.
        var after = try Self.openDescriptors()
        for _ in 0..<600 where after - before >= 50 {
            usleep(100_000)
            after = try Self.openDescriptors()
        }
        #expect(after - before < 50, "descriptors open before \(before), after \(after)")
    }

    static func openDescriptors() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count }

    /// Waits (up to 60 s: collecting runs on a shared queue that a busy test run may hold)
    /// for `pid` to be gone and collected: no zombie left behind.
    static func expectEnded(_ pid: pid_t) throws {
        for _ in 0..<600 where FileManager.default.fileExists(atPath: "/proc/\(pid)") { usleep(100_000) }
        #expect(!FileManager.default.fileExists(atPath: "/proc/\(pid)"), "helper \(pid) is still there (a zombie?)")
    }

    /// A helper let go after its jobs is ended and collected.
    @Test func aHelperLetGoIsCollected() throws {
        let pool = WarmHelpers(.decoding, keep: 1, jobsPerHelper: 1)
        _ = try Self.decoder(pool).decode(try Self.png(red: 1), source: "p.png")
        try Self.expectEnded(try #require(pool.served.first))
    }

    /// Rows are handed on while a warm helper decodes, as with a helper of its own.
    @Test func aWarmHelperStreamsRows() throws {
        final class Rows: RowsConsumer {
            var told = 0
            func rowsReady(_ rows: Int, of raster: Raster) throws { told = max(told, rows) }
            func startOver() throws { told = 0 }
        }
        let pool = WarmHelpers(.decoding, keep: 1)
        let raster = try Raster(width: 640, height: 480)
        let jpeg = try ImageEncoder.encode(raster, as: .jpeg)
        let rows = Rows()
        let (decoded, info, streamed) = try Self.decoder(pool).decode(jpeg, source: "photo.jpg", expecting: 640, 480, streamingTo: rows)
        #expect(streamed && info.width == 640 && decoded.height == 480 && rows.told == 480)
        #expect(pool.served.count == 1)
    }
}
