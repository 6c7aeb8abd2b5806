import Foundation
import Testing

/// `make crashtest` at CI's size: 100 kills of a streaming `memery apply`, at random and at
/// every named fail point, each followed by the full set of checks, while a second process
/// edits the same creation (issue 30 §6: none of its edits may fail, each must be kept).
@Suite struct CrashSoakTests {
    @Test func aHundredKillsLoseNothingAcknowledged() throws {
        let tool = URL(fileURLWithPath: Paths.memery).deletingLastPathComponent().appendingPathComponent("memery-crashtest").path
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("memery-soak-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store); try? FileManager.default.removeItem(atPath: store + ".growth") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--kills", "100", "--memery", Paths.memery, "--store", store]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(printed)")
        #expect(printed.contains("crashtest passed: 100 kills"), "\(printed)")
        for point in ["after-put-before-commit", "after-commit-before-ack", "during-snapshot", "during-map-growth"] {
            #expect(printed.contains("fail point \(point) "), "\(point) was never hit: \(printed)")
        }
        #expect(printed.contains(" 0 failed, all present"), "\(printed)")
        print(printed.split(separator: "\n").suffix(2).joined(separator: "\n"))
    }
}
