import Foundation
import Testing

/// A store that cannot be written can still be read (issue 30 §6, defect 17): list, show,
/// export, history and verify work; an edit says why it cannot be made. Root writes
/// anything, so as root the store is read by another user (PostgreSQL's, which
/// scripts/bootstrap installs).
@Suite(.enabled(if: getuid() != 0 || getpwnam("postgres") != nil, "runs as root without a postgres user to read as"))
struct ReadOnlyStoreTests {
    @Test func aStoreThatCannotBeWrittenIsRead() throws {
        let s = try Sandbox()
        try s.ok(["new", "ro", "--image", Paths.example])
        try s.ok(["text", "ro", "--top", "READ ONLY"])
        let out = s.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        chmod(out, 0o777)
        for file in ["", "/data.mdb", "/lock.mdb"] { chmod(s.store + file, file.isEmpty ? 0o555 : 0o444) }
        defer { for file in ["", "/data.mdb", "/lock.mdb"] { chmod(s.store + file, file.isEmpty ? 0o755 : 0o644) } }
        func memery(_ arguments: [String]) throws -> Outcome {
            let command = [Paths.memery] + arguments + ["--store", s.store]
            guard getuid() == 0 else { return try PostgresCluster.commandOutcome(command) }
            return try PostgresCluster.commandOutcome(["/usr/sbin/runuser", "-u", "postgres", "--"] + command)
        }
        #expect(try memery(["list"]).stdout.hasPrefix("ro\t451x300"))
        #expect(try memery(["show", "ro"]).stdout.contains("READ ONLY"))
        #expect(try memery(["history", "ro"]).stdout.contains("READ ONLY"))
        #expect(try memery(["verify"]).stdout.hasSuffix("ok\n"))
        let exported = try memery(["export", "ro", "-o", out + "/ro.png"])
        #expect(exported.status == 0 && FileManager.default.fileExists(atPath: out + "/ro.png"), "\(exported)")
        let edit = try memery(["text", "ro", "--top", "changed"])
        #expect(edit.status != 0 && edit.stderr.contains("is read-only"), "\(edit)")
    }
}
