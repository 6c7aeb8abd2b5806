import Foundation
import MemeryLocks
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// The helper processes run `memery-helper`, an executable that links only MemeryPixels, no
/// drawing (issue 34: a one-shot command pays a helper's start for every picture it imports).
@Suite struct HelperBinaryTests {
    static let build = URL(fileURLWithPath: "/opt/memery/bin")
    static let prefix = URL(fileURLWithPath: "/opt/memery")

    @Test func theHelperIsLookedForBesideTheExecutableThenInstalledThenMemeryServes() {
        func found(_ environment: [String: String] = [:], present: Set<String>) -> String {
            HelperProcess.helperBinary(environment: environment, executableDirectory: Self.build.path, installPrefix: Self.prefix,
                                       exists: present.contains)
        }
        let beside = "/opt/memery/bin/memery-helper", installed = "/opt/memery/lib/memery/memery-helper"
        #expect(found(present: [beside, installed]) == beside)
        #expect(found(present: [installed]) == installed)
        #expect(found(present: []) == "/opt/memery/bin/memery", "memery has the same hidden modes")
        #expect(found(["MEMERY_HELPER": "/elsewhere/helper"], present: [beside]) == "/elsewhere/helper")
        #expect(HelperProcess.helperBinary(environment: [:], executableDirectory: "/build", installPrefix: nil, exists: { _ in false })
                == "/build/memery")
    }

    /// The tests' own helpers (every decoding and filter test in this bundle) are the small
    /// executable, built beside them.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MEMERY_HELPER"] == nil, "MEMERY_HELPER names another helper"))
    func thisBuildsHelpersAreTheSmallExecutable() throws {
        #expect(URL(fileURLWithPath: HelperProcess.helperBinary).lastPathComponent == "memery-helper", "\(HelperProcess.helperBinary)")
        #expect(FileManager.default.isExecutableFile(atPath: HelperProcess.helperBinary))
    }

    /// The same limits as in `memery`: a picture decodes, a processor-time bomb is stopped at
    /// its limit and said so.
    @Test func theSmallHelperDecodesWithinItsLimits() throws {
        let picture = try WarmHelpersTests.png(red: 99)
        var decoder = IsolatedDecoder(decoder: ImageDecoder(), helper: HelperProcess.helperBinary, cpuSeconds: 1)
        let (raster, info) = try decoder.decode(picture, source: "red.png")
        #expect(info.format == "png" && raster.pixel(x: 5, y: 5) == (99, 0x40, 0x20, 0xff))
        decoder.spendMilliseconds = 5_000
        let error = try #require(throws: RenderError.self) { try decoder.decode(picture, source: "bomb.png") }
        #expect(error == .decodeTooSlow(source: "bomb.png", seconds: 1))
    }

    /// `memery new` waits until its picture's helper runs before parsing its arguments
    /// (`PictureReadAhead.waitUntilHelperStarted`): the decoder says when that is, once, and
    /// never for a picture refused by its header, for which no helper starts.
    @Test func theDecoderSaysOnceWhenItsHelperIsRunningAndNeverForAPictureItRefusesFirst() throws {
        let told = Locked(0)
        var decoder = IsolatedDecoder(decoder: ImageDecoder())
        decoder.whenStarted = { told.withLock { $0 += 1 } }
        let (raster, _) = try decoder.decode(try WarmHelpersTests.png(red: 7), source: "red.png")
        #expect(raster.width == 64 && told.withLock { $0 } == 1)
        #expect(throws: RenderError.self) { try decoder.decode(Data("not a picture at all".utf8), source: "words.png") }
        #expect(told.withLock { $0 } == 1, "a refused header starts no helper")
        decoder.warm = WarmHelpers(.decoding, keep: 1)
        _ = try decoder.decode(try WarmHelpersTests.png(red: 8), source: "warm.png")
        #expect(told.withLock { $0 } == 2, "a warm helper's job is told as well")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["MEMERY_HELPER"] == nil, "MEMERY_HELPER names another helper"))
    func theHelperStartedByHandSaysWhatItIsFor() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: HelperProcess.helperBinary)
        process.arguments = ["decode", "x.png"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(said.contains("memery-helper is started by memery, not by hand"), "\(said)")
    }
}
