import Foundation
import Testing

/// A hub restored from a `pg_dump` made at some moment, with syncs killed around it: every
/// machine ends with everything any of them had acknowledged, and the same on each
/// (issue 30 §1). Nothing here trusts a machine's own record of what it sent.
@Suite(.serialized, .enabled(if: PostgresCluster.shared != nil, "no PostgreSQL cluster could be started (PostgreSQLIsThereForTheHubTests says why)"))
struct HubRestoreTests {
    typealias Hub = HubSyncTests

    /// `count` caption edits of `name`, through `memery apply`.
    static func edit(_ machine: Sandbox, _ name: String, _ count: Int, prefix: String) throws {
        let script = machine.path("\(prefix).jsonl")
        try (0..<count).map { #"{"op":"text","top":"\#(prefix) \#($0)"}"# }.joined(separator: "\n")
            .write(toFile: script, atomically: true, encoding: .utf8)
        let outcome = try machine.run(["apply", name, "--file", script])
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    /// A sync that dies (SIGKILL) after `pages` push pages were acknowledged.
    static func syncKilled(_ machine: Sandbox, afterPushPages pages: Int) throws {
        let outcome = try machine.run(["sync"], environment: ["MEMERY_FAILPOINT": "after-push-page:\(pages)"])
        #expect(outcome.signaled, "the sync was to die at its fail point: \(outcome)")
    }

    /// The hub stopped, its database made anew from `dump`, and a hub started on the same port.
    static func restore(_ hub: inout HubProcess, from dump: URL) throws {
        let port = hub.port, database = hub.database
        hub.kill()
        try Hub.cluster.restore(database, from: dump)
        hub = try HubProcess(database: database, port: port)
    }

    static func events(_ hub: HubProcess) throws -> Int {
        Int(try Hub.cluster.sql("SELECT count(*) FROM events", database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    static func expectSame(_ machines: [Sandbox], names: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for machine in machines {
            #expect(try Hub.list(machine) == names, sourceLocation: sourceLocation)
            let verified = try machine.run(["verify"])
            #expect(verified.status == 0, "\(verified)", sourceLocation: sourceLocation)
        }
        for name in names {
            let histories = try machines.map { try Hub.history($0, name) }
            #expect(Set(histories).count == 1, "\(name)'s history differs between machines", sourceLocation: sourceLocation)
        }
    }

    /// Issue 30's defect 1, step by step: R2's 3,000 edits, its sync killed once the hub has
    /// 1,500, the hub restored from a dump made before them. R2 sends everything again and
    /// R1 gets all 3,000.
    @Test func editsAHubLostToARestoreAreSentAgainByTheMachineThatMadeThem() throws {
        var hub = try Hub.hub()
        let r1 = try Hub.machine(hub, "rosa", signUp: true)
        let r2 = try Hub.machine(hub, "rosa", signUp: false)
        #expect(try r1.run(["new", "cc", "--canvas", "120x60"]).status == 0)
        _ = try Hub.sync(r1)
        _ = try Hub.sync(r2)
        _ = try Hub.sync(r1)
        let dump = try Hub.cluster.dump(hub.database)
        defer { try? FileManager.default.removeItem(at: dump) }
        try Self.edit(r2, "cc", 3_000, prefix: "EDIT")
        try Self.syncKilled(r2, afterPushPages: 3)
        #expect(try Self.events(hub) == 1_503)
        try Self.restore(&hub, from: dump)
        #expect(try Self.events(hub) == 3)
        let resent = try r2.run(["sync"])
        #expect(resent.status == 0 && resent.stdout.contains("so it sent again the 3003 events"), "\(resent)")
        _ = try Hub.sync(r1)
        #expect(try Self.events(hub) == 3_003)
        #expect(try r1.run(["show", "cc"]).stdout.contains("EDIT 2999"))
        try Self.expectSame([r1, r2], names: ["cc"])
    }

    /// CouchDB's checkpoint history: a hub restored to a moment between a machine's pushes
    /// is sent again only what came after the last checkpoint it still holds, not the store.
    @Test func aRestoreBetweenPushesIsSentOnlyWhatCameAfterTheLastCommonPoint() throws {
        var hub = try Hub.hub()
        let r1 = try Hub.machine(hub, "ursa", signUp: true)
        #expect(try r1.run(["new", "cc", "--canvas", "120x60"]).status == 0)
        try Self.edit(r1, "cc", 1_000, prefix: "EARLY")
        _ = try Hub.sync(r1)
        let dump = try Hub.cluster.dump(hub.database)
        defer { try? FileManager.default.removeItem(at: dump) }
        try Self.edit(r1, "cc", 2_000, prefix: "LATE")
        _ = try Hub.sync(r1)
        try Self.restore(&hub, from: dump)
        let report = try Hub.sync(r1)
        let resent = report["eventsResent"] as? Int ?? -1
        #expect((2_000...2_100).contains(resent), "\(resent) events sent again; the hub had lost 2,000 of 3,003")
        #expect(try Self.events(hub) == 3_003)
        let r2 = try Hub.machine(hub, "ursa", signUp: false)
        _ = try Hub.sync(r2)
        try Self.expectSame([r1, r2], names: ["cc"])
        #expect(try r2.run(["show", "cc"]).stdout.contains("LATE 1999"))
    }

    /// The machine's next push builds on nothing the hub lacks (a new creation), and the
    /// event its pull got to is still there: its checkpoint, the last event it pushed, is
    /// what tells it the hub lost its edits.
    @Test func aPushOfANewCreationAfterARestoreStillSendsWhatTheHubLost() throws {
        var hub = try Hub.hub()
        let r1 = try Hub.machine(hub, "tess", signUp: true)
        #expect(try r1.run(["new", "cc", "--canvas", "120x60"]).status == 0)
        _ = try Hub.sync(r1)
        let dump = try Hub.cluster.dump(hub.database)
        defer { try? FileManager.default.removeItem(at: dump) }
        try Self.edit(r1, "cc", 10, prefix: "LOST")
        // Killed after its push, before its pull: where its pull got is still on the hub.
        try Self.syncKilled(r1, afterPushPages: 1)
        try Self.restore(&hub, from: dump)
        #expect(try r1.run(["new", "fresh", "--canvas", "30x30"]).status == 0)
        _ = try Hub.sync(r1)
        let r2 = try Hub.machine(hub, "tess", signUp: false)
        _ = try Hub.sync(r2)
        try Self.expectSame([r1, r2], names: ["cc", "fresh"])
        #expect(try r2.run(["show", "cc"]).stdout.contains("LOST 9"))
    }

    enum Moment: String, CaseIterable, CustomTestStringConvertible {
        case beforeAPush, midPush, afterAPull
        var testDescription: String { rawValue }
    }

    /// A dump made at `moment`; edits, syncs and killed syncs on both machines after it;
    /// then the restore, and each machine syncs twice in turn.
    @Test(arguments: Moment.allCases)
    func afterARestoreEveryMachineEndsWithEverythingAcknowledged(moment: Moment) throws {
        var hub = try Hub.hub()
        let r1 = try Hub.machine(hub, "sam", signUp: true)
        let r2 = try Hub.machine(hub, "sam", signUp: false)
        #expect(try r1.run(["new", "cc", "--canvas", "120x60"]).status == 0)
        _ = try Hub.sync(r1)
        _ = try Hub.sync(r2)
        var dump: URL?
        defer { dump.map { try? FileManager.default.removeItem(at: $0) } }
        if moment == .beforeAPush { dump = try Hub.cluster.dump(hub.database) }
        try Self.edit(r2, "cc", 1_100, prefix: "TWO")
        try Self.syncKilled(r2, afterPushPages: 2)
        if moment == .midPush { dump = try Hub.cluster.dump(hub.database) }
        _ = try Hub.sync(r2)
        _ = try Hub.sync(r1)
        if moment == .afterAPull { dump = try Hub.cluster.dump(hub.database) }
        // Both go on: r1 makes a creation and edits cc, r2 edits cc; some syncs die.
        #expect(try r1.run(["new", "later", "--canvas", "30x30"]).status == 0)
        try Self.edit(r1, "cc", 600, prefix: "ONE")
        try Self.syncKilled(r1, afterPushPages: 1)
        try Self.edit(r2, "cc", 20, prefix: "MORE")
        _ = try Hub.sync(r2)
        try Self.restore(&hub, from: try #require(dump))
        for machine in [r1, r2, r1, r2] { _ = try Hub.sync(machine) }
        try Self.expectSame([r1, r2], names: ["cc", "later"])
        for (machine, words) in [(r1, ["TWO 1099", "MORE 19"]), (r2, ["ONE 599", "TWO 1099"])] {
            let history = try Hub.history(machine, "cc")
            for word in words { #expect(history.contains(word), "\(word) is missing") }
        }
        // The hub holds exactly what the machines hold: nothing lost on it, nothing doubled.
        let onHub = try Hub.cluster.sql("SELECT count(*) FROM events WHERE type <> '$purged'", database: hub.database)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let verified = try r1.run(["verify"]).stdout
        #expect(verified.hasPrefix("format 3: \(onHub) events"), "hub \(onHub), machine: \(verified)")
    }
}
