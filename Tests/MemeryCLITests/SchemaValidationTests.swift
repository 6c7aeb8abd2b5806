import Foundation
import MemeryCore
import Testing

/// Every event type the CLI produces is checked against schemas/ by scripts/validate-events.py
/// (Python's jsonschema, which scripts/bootstrap installs).
@Suite struct SchemaValidationTests {
    func validate(_ files: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Paths.root.appendingPathComponent("scripts/validate-events.py").path] + files
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, signaled: false, stdout: String(decoding: data, as: UTF8.self), stderr: "")
    }

    /// Makes events of every type and writes each creation's envelopes to a file.
    func producedEvents(_ s: Sandbox) throws -> [String] {
        try s.ok(["new", "first", "--image", Paths.example])
        try s.ok(["text", "first", "--top", "top", "--bottom", "bottom"])
        try s.ok(["text", "first", "--top", "edited"])
        try s.ok(["text", "first", "--bottom", ""])
        try s.ok(["text", "add", "first", "free", "--box", "1,2,300,40", "--color", "#11223344", "--outline-width", "3",
                  "--align", "right", "--no-caps", "--font", "DejaVu Sans", "--size", "12.5"])
        try s.ok(["undo", "first", "--steps", "2"])
        try s.ok(["redo", "first"])
        try s.ok(["checkout", "first", "--event", "3"])
        try s.ok(["quick", Paths.example, "--top", "日本語 😀", "-o", s.path("q.png")])
        var files = [String]()
        for name in ["first", "chelsea"] {
            let file = s.path("\(name).json")
            try Data(try s.ok(["history", name, "--events", "--json"]).utf8).write(to: URL(fileURLWithPath: file))
            files.append(file)
        }
        return files
    }

    @Test func everyProducedEventMatchesItsSchema() throws {
        let s = try Sandbox()
        let files = try producedEvents(s)
        let types = try files.flatMap { file -> [String] in
            let envelopes = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [[String: Any]] ?? []
            return envelopes.compactMap { $0["type"] as? String }
        }
        #expect(Set(types) == Set(CreationEvent.currentVersions.keys), "some event type was not produced")
        let outcome = try validate(files)
        #expect(outcome.status == 0, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("\(types.count) events checked, 0 problems"))
    }

    @Test func aPayloadThatBreaksItsSchemaIsCaught() throws {
        let s = try Sandbox()
        let file = try producedEvents(s)[0]
        var envelopes = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [[String: Any]])
        var payload = try #require(envelopes[2]["payload"] as? [String: Any])
        var layer = try #require(payload["layer"] as? [String: Any])
        var style = try #require(layer["style"] as? [String: Any])
        style["fill"] = "red"
        layer["style"] = style
        payload["layer"] = layer
        envelopes[2]["payload"] = payload
        envelopes[0]["seq"] = 0
        try JSONSerialization.data(withJSONObject: envelopes).write(to: URL(fileURLWithPath: file))
        let outcome = try validate([file])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("'red' does not match"))
        #expect(outcome.stdout.contains("seq 0 (CreationCreated): envelope: 0 is less than the minimum of 1"))
    }
}
