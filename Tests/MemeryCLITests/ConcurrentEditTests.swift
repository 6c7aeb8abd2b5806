import Foundation
import Testing

@Suite struct ConcurrentEditTests {
    /// Two processes adding text to one creation at once: every edit lands, none is lost to
    /// the other (a stale version is re-decided on the new state).
    @Test func twoProcessesEditingOneCreationLoseNothing() throws {
        let s = try Sandbox()
        try s.ok(["new", "shared", "--image", Paths.example])
        let perWriter = 12
        var writers = [Process]()
        for writer in ["a", "b"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "for i in $(seq \(perWriter)); do \"$0\" text add shared \"\(writer) $i\" --store \"$1\" >/dev/null || exit 1; done",
                                 Paths.memery, s.store]
            try process.run()
            writers.append(process)
        }
        for process in writers {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let detail = try #require(try s.json(["show", "shared", "--json"]) as? [String: Any])
        let texts = Set((detail["layers"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String })
        let expected = Set((1...perWriter).flatMap { ["a \($0)", "b \($0)"] })
        #expect(texts == expected)
        let ids = (detail["layers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(Set(ids).count == ids.count, "layer ids must be unique")
        let labels = (detail["layers"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
        #expect(Set(labels).count == labels.count && labels.count == ids.count, "and so must the labels people type")
        #expect(try s.ok(["verify"]).hasSuffix("ok"))
    }

    /// Issue 30's defect 12: a terminal's edits beside a streaming `memery apply` (the
    /// terminal-beside-the-editor case). A caption, a layer change and an undo mean the same
    /// on the newer state, so each is decided again until it gets in: none fails.
    @Test func editsBesideAStreamingApplyAllLand() throws {
        let s = try Sandbox()
        try s.ok(["new", "cc", "--canvas", "200x100"])
        try s.ok(["text", "cc", "--top", "start"])
        let script = s.path("stream.jsonl")
        try (0..<400).map { #"{"op":"text","top":"STREAM \#($0)"}"# }.joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let apply = Process()
        apply.executableURL = URL(fileURLWithPath: Paths.memery)
        apply.arguments = ["apply", "cc", "--file", script, "--store", s.store]
        apply.standardOutput = FileHandle.nullDevice
        try apply.run()
        var failed = [String]()
        for i in 0..<20 {
            for arguments in [["text", "cc", "--bottom", "C\(i)"], ["layer", "set", "cc", "L1", "opacity=0.\(i % 9 + 1)"], ["undo", "cc"]] {
                let outcome = try s.run(arguments)
                if outcome.status != 0 { failed.append("memery \(arguments.joined(separator: " ")): \(outcome.stderr)") }
            }
        }
        apply.waitUntilExit()
        #expect(apply.terminationStatus == 0)
        #expect(failed.isEmpty, "\(failed.count) of 60 failed: \(failed.prefix(3))")
        let history = try s.ok(["history", "cc"])
        for i in 0..<20 { #expect(history.contains("\"C\(i)\""), "C\(i) is not in the history") }
        #expect(history.contains("STREAM 399"))
        #expect(try s.ok(["verify"]).hasSuffix("ok"))
    }
}
