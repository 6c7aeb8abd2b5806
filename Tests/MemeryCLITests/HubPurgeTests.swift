import Foundation
import Testing

/// Purge means purge, everywhere (issue 30 §3): off the hub, off every machine at its next
/// sync, again after the hub is restored from an older backup; an edit made offline to a
/// purged creation is dropped with a word and damages nothing.
@Suite(.serialized, .enabled(if: PostgresCluster.shared != nil, "no PostgreSQL cluster could be started (PostgreSQLIsThereForTheHubTests says why)"))
struct HubPurgeTests {
    typealias Hub = HubSyncTests

    static func count(_ hub: HubProcess, _ query: String) throws -> Int {
        Int(try Hub.cluster.sql(query, database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test func aPurgeTakesTheCreationAndItsPictureOffTheHubAndEveryMachineEvenAfterARestore() throws {
        var hub = try Hub.hub()
        let a = try Hub.machine(hub, "mia", signUp: true)
        #expect(try a.run(["new", "pic", "--image", Paths.example]).status == 0)
        #expect(try a.run(["text", "pic", "--top", "SECRET WORDS"]).status == 0)
        #expect(try a.run(["new", "keep", "--canvas", "40x40"]).status == 0)
        _ = try Hub.sync(a)
        let b = try Hub.machine(hub, "mia", signUp: false)
        _ = try Hub.sync(b)
        #expect(try Hub.list(b) == ["keep", "pic"])
        let dump = try Hub.cluster.dump(hub.database)
        defer { try? FileManager.default.removeItem(at: dump) }

        #expect(try a.run(["purge", "pic", "--yes"]).status == 0)
        _ = try Hub.sync(a)
        #expect(try Self.count(hub, "SELECT count(*) FROM events WHERE payload LIKE '%SECRET WORDS%'") == 0, "the words are gone from the hub")
        #expect(try Self.count(hub, "SELECT count(*) FROM blobs") == 0, "and the picture")
        let synced = try b.run(["sync"])
        #expect(synced.status == 0 && synced.stdout.contains("purged \"pic\" as another machine did"), "\(synced)")
        #expect(try Hub.list(b) == ["keep"])
        let fresh = try Hub.machine(hub, "mia", signUp: false)
        _ = try Hub.sync(fresh)
        #expect(try Hub.list(fresh) == ["keep"])
        #expect(try fresh.ok(["verify"]).contains(" 0 blobs"), "a new machine never downloads the purged picture")

        // A restore from before the purge brings the creation back to the hub, until a
        // machine that has the purge syncs.
        try HubRestoreTests.restore(&hub, from: dump)
        #expect(try Self.count(hub, "SELECT count(*) FROM events WHERE payload LIKE '%SECRET WORDS%'") == 1)
        _ = try Hub.sync(a)
        #expect(try Self.count(hub, "SELECT count(*) FROM events WHERE payload LIKE '%SECRET WORDS%'") == 0)
        #expect(try Self.count(hub, "SELECT count(*) FROM blobs") == 0)
        // (fresh logged in after the dump: the restored hub does not know its session.)
        for machine in [a, b] {
            _ = try Hub.sync(machine)
            #expect(try Hub.list(machine) == ["keep"])
            #expect(try machine.run(["verify"]).status == 0)
        }
    }

    /// Issue 30's defect 3.
    @Test func anEditMadeOfflineToACreationPurgedElsewhereIsDroppedAndDamagesNothing() throws {
        let hub = try Hub.hub()
        let a = try Hub.machine(hub, "ned", signUp: true)
        let b = try Hub.machine(hub, "ned", signUp: false)
        #expect(try a.run(["new", "x", "--canvas", "40x40"]).status == 0)
        #expect(try a.run(["new", "y", "--canvas", "40x40"]).status == 0)
        _ = try Hub.sync(a)
        _ = try Hub.sync(b)
        #expect(try a.run(["purge", "x", "--yes"]).status == 0)
        _ = try Hub.sync(a)
        // More than a page of them: a page ending on an edit the hub drops must not leave a
        // checkpoint the hub lacks (the sync then failed for good).
        #expect(try b.run(["text", "x", "--top", "OFFLINE EDIT"]).status == 0)
        try HubRestoreTests.edit(b, "x", 600, prefix: "MORE")
        let onB = try b.run(["sync"])
        #expect(onB.status == 0 && onB.stdout.contains("purged \"x\" as another machine did"), "\(onB)")
        #expect(try b.run(["new", "z", "--canvas", "10x10"]).status == 0)
        let again = try b.run(["sync"])
        #expect(again.status == 0 && !again.stdout.contains("so it sent again"), "\(again)")
        let onA = try a.run(["sync"])
        #expect(onA.status == 0, "\(onA)")
        for machine in [a, b] {
            let verified = try machine.run(["verify"])
            #expect(verified.status == 0 && verified.stdout.hasSuffix("ok\n"), "\(verified)")
            #expect(try Hub.list(machine) == ["y", "z"])
        }
        #expect(try Self.count(hub, "SELECT count(*) FROM events WHERE payload LIKE '%OFFLINE EDIT%'") == 0)
    }

    @Test func aPictureAnotherCreationStillUsesStays() throws {
        let hub = try Hub.hub()
        let a = try Hub.machine(hub, "ola", signUp: true)
        #expect(try a.run(["new", "one", "--image", Paths.example]).status == 0)
        #expect(try a.run(["new", "two", "--image", Paths.example]).status == 0)
        _ = try Hub.sync(a)
        #expect(try a.run(["purge", "one", "--yes"]).status == 0)
        _ = try Hub.sync(a)
        #expect(try Self.count(hub, "SELECT count(*) FROM blobs") == 1)
        let b = try Hub.machine(hub, "ola", signUp: false)
        _ = try Hub.sync(b)
        #expect(try Hub.list(b) == ["two"])
        #expect(try b.run(["export", "two", "-o", b.path("two.png")]).status == 0)
    }
}
