import Foundation
import Testing

/// Every machine ends the same (issue 30 §4): gallery changes made on two machines at once
/// converge by (time, id) through the hub, and a person whose change lost is told.
/// (SyncConvergenceTests runs the same with random changes on three stores, without a hub.)
@Suite(.serialized, .enabled(if: PostgresCluster.shared != nil, "no PostgreSQL cluster could be started (PostgreSQLIsThereForTheHubTests says why)"))
struct HubConvergenceTests {
    typealias Hub = HubSyncTests

    /// Issue 30's defect 5 through a hub: after one round of syncs both machines show the
    /// later name, `history` works under it on both, and the one whose name lost is told.
    @Test func concurrentRenamesConvergeAndTheLoserIsTold() throws {
        let hub = try Hub.hub()
        let a = try Hub.machine(hub, "pia", signUp: true)
        let b = try Hub.machine(hub, "pia", signUp: false)
        #expect(try a.run(["new", "cc", "--canvas", "40x40"]).status == 0)
        _ = try Hub.sync(a)
        _ = try Hub.sync(b)
        #expect(try a.run(["rename", "cc", "mocha"]).status == 0)
        Thread.sleep(forTimeInterval: 0.01)
        #expect(try b.run(["rename", "cc", "latte"]).status == 0)
        _ = try Hub.sync(b)
        let told = try a.run(["sync"])
        #expect(told.status == 0 && told.stdout.contains("you renamed a creation \"mocha\", and another machine renamed it later: it is \"latte\""),
                "\(told)")
        _ = try Hub.sync(b)
        for machine in [a, b] {
            #expect(try Hub.list(machine) == ["latte"])
            #expect(try machine.run(["history", "latte"]).status == 0)
        }
    }
}
