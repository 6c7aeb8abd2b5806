import Foundation
import Testing

/// Every input `make fuzz` kept (Tests/Fuzz/*), and the seeds, replayed through the fuzz
/// targets as built here: none may crash.
@Suite struct FuzzRegressionTests {
    func replay(_ target: String, _ inputs: [String]) throws -> Outcome {
        let tool = URL(fileURLWithPath: Paths.memery).deletingLastPathComponent().appendingPathComponent(target).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = inputs
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal, stdout: printed, stderr: "")
    }

    @Test func keptImageInputsNeverCrashTheImportPath() throws {
        var inputs = [Paths.root.appendingPathComponent("Tests/Fuzz/image").path]
        if Paths.sharedAvailable { inputs.append(Paths.shared.appendingPathComponent("edge").path) }
        let outcome = try replay("memery-fuzz-image", inputs)
        #expect(outcome.status == 0 && !outcome.signaled, "\(outcome)")
        #expect(outcome.stdout.hasPrefix("replayed "))
    }

    /// The same inputs and the kept ones of the whole import path, helper process included.
    @Test func keptInputsNeverCrashTheWholeImport() throws {
        var inputs = ["Tests/Fuzz/image", "Tests/Fuzz/import"].map { Paths.root.appendingPathComponent($0).path }
        if Paths.sharedAvailable { inputs.append(Paths.shared.appendingPathComponent("edge").path) }
        let outcome = try replay("memery-fuzz-import", inputs)
        #expect(outcome.status == 0 && !outcome.signaled, "\(outcome)")
        #expect(outcome.stdout.hasPrefix("replayed "))
    }

    @Test func keptEventInputsNeverCrashTheDecoders() throws {
        let outcome = try replay("memery-fuzz-events", [Paths.root.appendingPathComponent("Tests/Fuzz/events").path,
                                                        Paths.root.appendingPathComponent("Tests/MemeryCoreTests/Fixtures").path])
        #expect(outcome.status == 0 && !outcome.signaled, "\(outcome)")
        #expect(outcome.stdout.contains("replayed 6 inputs"), "\(outcome.stdout)")
    }

    /// Hostile pull pages (issue 30 §2): no answer from a hub crashes `memery`.
    @Test func keptPullPagesNeverCrashASync() throws {
        let outcome = try replay("memery-fuzz-pull", [Paths.root.appendingPathComponent("Tests/Fuzz/pull").path])
        #expect(outcome.status == 0 && !outcome.signaled, "\(outcome)")
        #expect(outcome.stdout.contains("replayed 4 inputs"), "\(outcome.stdout)")
    }
}
