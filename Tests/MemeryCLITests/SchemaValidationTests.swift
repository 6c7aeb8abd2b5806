import Foundation
import MemeryCore
import Testing

/// Every event type the CLI produces is checked against schemas/ by scripts/validate-events.py
/// (Python's jsonschema, which scripts/bootstrap installs).
@Suite struct SchemaValidationTests {
    func validate(_ files: [String], script: String = "validate-events.py") throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Paths.root.appendingPathComponent("scripts/\(script)").path] + files
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
        try s.ok(["image", "add", "first", Paths.example, "--at", "5,5", "--scale", "0.25", "--rotate", "-20", "--opacity", "0.9", "--flip", "v"])
        try s.ok(["shape", "add", "first", "--rect", "10,10,50,20", "--fill", "#00ff00", "--alpha", "0.5"])
        try s.ok(["shape", "add", "first", "--ellipse", "10,10,50,20", "--fill", "none", "--stroke", "#123456"])
        try s.ok(["draw", "first", "--points", "1,1 20,20 40,5"])
        try s.ok(["draw", "first", "--points", "10,10", "--erase", "--width", "8"])
        try s.ok(["layer", "set", "first", "L1", "x=30", "opacity=0.4", "text=changed", "flip=hv"])
        try s.ok(["layer", "set", "first", "L4", "fill=none", "stroke=#ff0000", "w=80"])
        try s.ok(["layer", "move", "first", "L4", "--back"])
        try s.ok(["layer", "remove", "first", "L5"])
        try s.ok(["filter", "apply", "first", "org.memery.sepia", "amount=0.5"])
        try s.ok(["filter", "apply", "first", "org.memery.deep-fry", "--layer", "L4", "seed=7"])
        try s.ok(["filter", "apply", "first", "org.memery.vignette", "--canvas"])
        try s.ok(["filter", "set", "first", "1", "amount=0.25"])
        try s.ok(["filter", "remove", "first", "3"])
        try s.ok(["crop", "first", "10,10,300,200"])
        try s.ok(["canvas", "extend", "first", "--top", "40", "--background", "#ffffff80"])
        try s.ok(["canvas", "fit", "first", "--margin", "4"])
        try s.ok(["rotate", "first", "30"])
        try s.ok(["flip", "first", "h"])
        try s.ok(["rotate", "first", "-90", "--picture"])
        try s.ok(["flip", "first", "v", "--layer", "L2"])
        try s.ok(["new", "blank", "--canvas", "64x48", "--background", "#102030"])
        try s.ok(["quick", Paths.example, "--top", "日本語 😀", "-o", s.path("q.png")])
        // Gallery events, and a purge, whose tombstones the log leaves out.
        try s.ok(["rename", "chelsea", "renamed"])
        try s.ok(["favorite", "renamed"])
        try s.ok(["move", "renamed", "--to", "1"])
        try s.ok(["delete", "blank"])
        try s.ok(["restore", "blank"])
        try s.ok(["new", "doomed", "--canvas", "8x8"])
        try s.ok(["purge", "doomed", "--yes"])
        try s.ok(["garage", "add", Paths.example, "--name", "cat", "--tag", "animal"])
        try s.ok(["garage", "tag", "cat", "cute", "--remove", "animal"])
        try s.ok(["template", "save", "first", "tpl"])
        try s.ok(["new", "from-template", "--template", "tpl"])
        try s.ok(["template", "save", "first", "doomed"])
        try s.ok(["template", "remove", "doomed"])
        try s.ok(["new", "from-garage", "--garage", "cat"])
        try s.ok(["garage", "remove", "cat"])
        let history = s.path("first.json"), log = s.path("log.json")
        try Data(try s.ok(["history", "first", "--events", "--json"]).utf8).write(to: URL(fileURLWithPath: history))
        try Data(try s.ok(["log", "--json"]).utf8).write(to: URL(fileURLWithPath: log))
        return [history, log]
    }

    @Test func everyProducedEventMatchesItsSchema() throws {
        let s = try Sandbox()
        let files = try producedEvents(s)
        let envelopes = try files.suffix(1).flatMap { file -> [[String: Any]] in
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [[String: Any]] ?? []
        }
        let types = envelopes.compactMap { $0["type"] as? String }
        // Each creation event is written at the version this build names for its type
        // (`CreationEvent.schemaVersion`, a switch, beside `currentVersions`).
        for envelope in envelopes {
            guard let type = envelope["type"] as? String, let current = CreationEvent.currentVersions[type] else { continue }
            #expect(envelope["schema"] as? Int == current, "\(type) written at version \(envelope["schema"] ?? "none"), not \(current)")
        }
        #expect(Set(types) == Set(CreationEvent.currentVersions.keys).subtracting(CreationEvent.readOnlyTypes).union(GalleryEvent.types).union(Garage.Event.types).union(Templates.Event.types),
                "some event type was not produced")
        let outcome = try validate(files)
        #expect(outcome.status == 0, "\(outcome.stdout)")
        #expect(outcome.stdout.contains(" problems") && outcome.stdout.hasSuffix(", 0 problems\n"), "\(outcome.stdout)")
    }

    /// The frozen v1 samples (Tests/MemeryCoreTests/Fixtures) still match the v1 schemas.
    @Test func frozenOldVersionsStillMatchTheirSchemas() throws {
        let fixture = Paths.root.appendingPathComponent("Tests/MemeryCoreTests/Fixtures/events-v1.json").path
        let outcome = try validate([fixture])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("8 events checked, 0 problems"))
    }

    @Test func aPayloadThatBreaksItsSchemaIsCaught() throws {
        let s = try Sandbox()
        let file = try producedEvents(s)[0]
        var envelopes = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [[String: Any]])
        var payload = try #require(envelopes[2]["payload"] as? [String: Any])
        var layer = try #require(payload["layer"] as? [String: Any])
        var text = try #require(layer["text"] as? [String: Any])
        var style = try #require(text["style"] as? [String: Any])
        style["fill"] = "red"
        text["style"] = style
        layer["text"] = text
        payload["layer"] = layer
        envelopes[2]["payload"] = payload
        envelopes[0]["seq"] = 0
        try JSONSerialization.data(withJSONObject: envelopes).write(to: URL(fileURLWithPath: file))
        let outcome = try validate([file])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("'red' does not match"))
        #expect(outcome.stdout.contains("seq 0 (CreationCreated): envelope: 0 is less than the minimum of 1"))
    }

    /// Every edit the docs show, and every edit as Memery encodes it, matches edit.schema.json.
    @Test func documentedAndEncodedEditsMatchTheEditSchema() throws {
        let s = try Sandbox()
        let documented = try DocumentedEdits.lines().map(\.line)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let encoded = try documented.map { String(decoding: try encoder.encode(try AddressedEdit.decode(jsonLine: $0)), as: UTF8.self) }
        let file = s.path("edits.jsonl")
        try Data((documented + encoded).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        let outcome = try validate([file], script: "validate-edits.py")
        #expect(outcome.status == 0, "\(outcome.stdout)")
        #expect(outcome.stdout.hasSuffix("\(documented.count * 2) edits checked, 0 problems\n"), "\(outcome.stdout)")

        // And the schema refuses what Memery refuses.
        let bad = s.path("bad.jsonl")
        try Data([#"{"op":"crop","box":"1,2,3"}"#, ##"{"op":"text add","text":"x","colour":"#fff"}"##, #"{"op":"teleport"}"#]
            .joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: bad))
        let refused = try validate([bad], script: "validate-edits.py")
        #expect(refused.status == 1 && refused.stdout.hasSuffix("3 edits checked, 3 problems\n"), "\(refused.stdout)")
    }
}
