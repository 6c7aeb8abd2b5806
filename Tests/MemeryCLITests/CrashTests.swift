import Foundation
import Testing

/// Kills writing `memery` processes with SIGKILL at random moments and checks that every
/// edit a process acknowledged (printed its layer id for) is in the store, and that the
/// store stays clean. MEMERY_CRASH_KILLS sets how many kills (default 100).
@Suite struct CrashTests {
    @Test func sigkillAtRandomMomentsLosesNoAcknowledgedEdit() throws {
        let s = try Sandbox()
        try s.ok(["new", "crash", "--image", Paths.example])
        let wanted = Int(ProcessInfo.processInfo.environment["MEMERY_CRASH_KILLS"] ?? "") ?? 100

        // How long one edit takes here, to aim the kills across a process's whole life. The
        // estimate adapts: it shrinks when a process finished before its kill (the machine
        // may be busy with other tests) and grows when kills keep landing.
        let started = Date()
        try s.ok(["text", "add", "crash", "warm-up"])
        var lifetime = max(0.005, Date().timeIntervalSince(started))

        var acknowledged = ["warm-up"]
        var kills = 0, attempts = 0
        var generator = SystemRandomNumberGenerator()
        while kills < wanted && attempts < wanted * 4 {
            attempts += 1
            let text = "edit \(attempts)"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.memery)
            process.arguments = ["text", "add", "crash", text, "--store", s.store]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Half the kills anywhere in the life, half late in it, where the commit is.
            let fraction = attempts % 2 == 0 ? Double.random(in: 0...1.1, using: &generator)
                                             : Double.random(in: 0.6...1.05, using: &generator)
            usleep(UInt32(lifetime * fraction * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal {
                kills += 1
                lifetime *= 1.03
            } else {
                #expect(process.terminationStatus == 0, "an unkilled edit failed: \(text)")
                lifetime = max(0.002, lifetime * 0.8)
            }
            // Acknowledged: the layer id was printed, which happens only after the commit.
            if printed.hasPrefix("L") { acknowledged.append(text) }
            if kills % 20 == 0 { #expect(try s.ok(["verify"]).hasSuffix("ok"), "after \(kills) kills") }
        }
        #expect(kills >= wanted, "only \(kills) of \(attempts) processes were killed before they finished")

        let verify = try s.run(["verify"])
        #expect(verify.status == 0 && verify.stdout.hasSuffix("ok\n"), "\(verify)")
        let detail = try #require(try s.json(["show", "crash", "--json"]) as? [String: Any])
        let texts = Set((detail["layers"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String })
        let lost = acknowledged.filter { !texts.contains($0) }
        #expect(lost.isEmpty, "acknowledged but lost: \(lost)")
        // Edits are whole: each stored text is one that some process was asked to add.
        #expect(texts.allSatisfy { $0 == "warm-up" || $0.hasPrefix("edit ") })
        print("crash test: \(kills) kills in \(attempts) runs, \(acknowledged.count) acknowledged edits, \(texts.count) stored")
    }
}
