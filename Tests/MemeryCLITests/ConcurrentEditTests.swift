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
}
