import Foundation
import Testing

/// The CLI keeps its own promises (issue 33): every command that prints a result prints it
/// as JSON with `--json`, and a failure with `--json` is JSON too; `--store` may come before
/// the command; a negative number is refused by its range, never as a missing value.
@Suite struct CLIPromisesTests {
    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func exportPurgeAndLayerAtAnswerInJSON() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["shape", "add", "m", "--rect", "10,10,100,80", "--fill", "#ff0000"])
        let exported = try object(try s.ok(["export", "m", "-o", s.path("m.jpg"), "--width", "200", "--json"]))
        #expect(exported["creation"] as? String == "m" && exported["output"] as? String == s.path("m.jpg"))
        #expect(exported["format"] as? String == "jpeg" && exported["frames"] as? Int == 1 && (exported["bytes"] as? Int ?? 0) > 1000)
        #expect(exported["credits"] is NSNull && exported["note"] is NSNull)
        try s.fails(["export", "m", "-o", "-", "--json"], status: 2, containing: "--json reports a file written")

        let layer = try object(try s.ok(["layer", "at", "m", "50,50", "--json"]))
        #expect(layer["label"] as? String == "L1" && layer["kind"] as? String == "shape" && layer["position"] as? Int == 1)

        try s.ok(["new", "gone", "--canvas", "100x100"])
        try s.ok(["delete", "gone"])
        let purged = try object(try s.ok(["purge", "gone", "--yes", "--json"]))
        #expect(purged["creation"] as? String == "gone" && (purged["events"] as? Int ?? 0) >= 2)
    }

    @Test func applySaysHowTheStreamWentInItsLastLine() throws {
        let s = try Sandbox()
        let lines = [#"{"op":"new","creation":"a","canvas":"100x80"}"#, #"{"op":"text add","creation":"a","text":"hi"}"#,
                     #"{"op":"crop","creation":"a","box":"0,0,0,0"}"#].joined(separator: "\n")
        let outcome = try s.run(["apply", "--json"], input: lines + "\n")
        #expect(outcome.status == 1)
        let answers = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(answers.count == 4, "\(outcome)")
        let summary = try object(try #require(answers.last))
        #expect(summary["done"] as? Bool == true && summary["lines"] as? Int == 3 && summary["applied"] as? Int == 2 && summary["refused"] as? Int == 1)
    }

    @Test func pluginCheckAnswersInJSON() throws {
        let builtins = URL(fileURLWithPath: Paths.memery).deletingLastPathComponent().appendingPathComponent("libmemery-builtins.so").path
        let outcome = try Sandbox.run(["plugin", "check", builtins, "--json"])
        #expect(outcome.status == 0, "\(outcome)")
        let report = try object(outcome.stdout)
        let checks = try #require(report["checks"] as? [[String: Any]])
        #expect(report["failed"] as? Int == 0 && checks.count == 62 && checks.allSatisfy { $0["passed"] as? Bool == true })
    }

    @Test func failuresWithJSONAreJSON() throws {
        let s = try Sandbox()
        let missing = try s.run(["show", "nothing-here", "--json"])
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        let said = try object(missing.stderr)
        #expect(said["exit"] as? Int == 1 && (said["error"] as? String ?? "").contains("nothing-here"), "\(missing)")
        let usage = try s.run(["export", "m", "--width", "wide", "--json"])
        #expect(usage.status == 2)
        #expect(try object(usage.stderr)["exit"] as? Int == 2, "\(usage)")
        // Without --json, people's words.
        #expect(try s.run(["show", "nothing-here"]).stderr.hasPrefix("error: "))
    }

    /// A name typed with a leading '-' is never taken for a request for help that succeeds.
    @Test func aNameStartingWithADashIsRefusedWithTheNote() throws {
        let s = try Sandbox()
        let help = try s.run(["new", "-help", "--canvas", "10x10"])
        #expect(help.status == 2 && help.stdout.isEmpty && help.stderr.contains("a name cannot start with '-'"), "\(help)")
        let dashed = try s.run(["new", "-cat", "--canvas", "10x10"])
        #expect(dashed.status == 2 && dashed.stderr.contains("note: \"-cat\" was read as an option: a name cannot start with '-'"), "\(dashed)")
        #expect(try s.run(["new", "--help"]).status == 0)
    }

    /// A hub that is not there is said by the error's type (the socket's ECONNREFUSED), with
    /// the hub's exit code.
    @Test func aHubThatIsNotThereIsSaidAsRefused() throws {
        let s = try Sandbox()
        let outcome = try s.run(["recommended", "--hub", "http://127.0.0.1:9"])
        #expect(outcome.status == 4 && outcome.stderr.contains("cannot be reached (connection refused)"), "\(outcome)")
    }

    @Test func theStoreMayBeNamedBeforeTheCommand() throws {
        let s = try Sandbox()
        try s.ok(["new", "first", "--canvas", "50x50"])
        let listed = try Sandbox.run(["--store", s.store, "list"])
        #expect(listed.status == 0 && listed.stdout.contains("first"), "\(listed)")
        let equals = try Sandbox.run(["--store=\(s.store)", "show", "first", "--json"])
        #expect(equals.status == 0 && equals.stdout.contains("\"first\""), "\(equals)")
    }

    @Test(arguments: [
        (["export", "m", "-o", "x.png", "--width", "-5"], "--width must be at least 1 pixel, not -5"),
        (["canvas", "extend", "m", "--left", "-5"], "-5"),
        (["canvas", "fit", "m", "--margin", "-3"], "-3"),
    ])
    func negativeNumbersAreRefusedByTheirRange(_ arguments: [String], _ words: String) throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--canvas", "100x100"])
        let outcome = try s.run(arguments)
        #expect(outcome.status != 0 && !outcome.stderr.contains("Missing value") && outcome.stderr.contains(words), "\(outcome)")
    }
}
