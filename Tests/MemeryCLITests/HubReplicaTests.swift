import Foundation
import MemeryTestSupport
import Testing

/// A hub reading pulls and pictures from a PostgreSQL streaming replica (`--replica-database`,
/// issue 35 §2): a primary and a hot standby on loopback (pg_basebackup -R). Every
/// acknowledged edit reaches every machine whether the replica is caught up, lagging (its
/// replay paused) or stopped, and a lagging replica never looks like a restored hub (no
/// machine is told to send everything again). `/metrics` counts who answered each read.
@Suite(.serialized, .enabled(if: PostgresCluster.shared != nil, "no PostgreSQL cluster could be started (PostgreSQLIsThereForTheHubTests says why)"))
struct HubReplicaTests {
    typealias Hub = HubSyncTests

    /// How many reads the replica (or, for it, the primary) answered, from the hub's `/metrics`.
    static func reads(_ hub: HubProcess, answeredBy who: String) throws -> Int {
        let text = try PostgresCluster.command("/usr/bin/curl", ["-s", hub.address + "/metrics"])
        let line = text.split(separator: "\n").first { $0.hasPrefix("memery_hub_replica_reads_total") && $0.contains("answered_by=\"\(who)\"") }
        return line.flatMap { Int(Double($0.split(separator: " ").last ?? "") ?? -1) } ?? 0
    }

    /// Waits (up to 60 s) until the replica has replayed the user's newest position and purges.
    static func caughtUp(_ replica: PostgresCluster, _ primary: PostgresCluster, database: String, user: String) throws {
        let query = "SELECT coalesce((SELECT position || ' ' || purges FROM users WHERE name_key = '\(user)'), '-1')"
        let wanted = try primary.sql(query, database: database)
        let end = Date().addingTimeInterval(60)
        while try replica.sql(query, database: database) != wanted {
            guard Date() < end else { throw ClusterError("the replica did not replay position \(wanted) of \(user) within 60 s") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Asks `done` every 0.2 s until it is true, for up to 90 s.
    static func waitFor(_ what: String, _ done: () throws -> Bool) throws {
        let end = Date().addingTimeInterval(90)
        while try !done() {
            guard Date() < end else { throw ClusterError("waited 90 s for \(what)") }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    static func caption(_ machine: Sandbox, _ name: String, _ text: String) throws {
        let outcome = try machine.run(["text", name, "--top", text])
        #expect(outcome.status == 0, "\(outcome)")
    }

    static func expectConverged(_ a: Sandbox, _ b: Sandbox, _ report: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try Hub.history(a, "cat") == Hub.history(b, "cat"), sourceLocation: sourceLocation)
        #expect(try Hub.exported(a, "cat") == Hub.exported(b, "cat"), sourceLocation: sourceLocation)
        // A lagging replica taken for a restored hub would have made the machine send everything again.
        #expect(report["resent"] as? Bool == false, "\(report)", sourceLocation: sourceLocation)
    }

    /// A primary, its replica, a hub reading from both, and two machines of `user` on it.
    static func withReplica(user: String, _ body: (_ primary: PostgresCluster, _ replica: PostgresCluster, _ database: String,
                                                   _ hub: HubProcess, _ a: Sandbox, _ b: Sandbox) throws -> Void) throws {
        let primary = try PostgresCluster()
        defer { primary.stop() }
        let database = try primary.newDatabase()
        let replica = try primary.replica()
        defer { replica.stop() }
        let name = PostgresCluster.name(database)
        let hub = try HubProcess(database: database, extra: ["--replica-database", "postgres://memery@127.0.0.1:\(replica.port)/\(name)?sslmode=disable"])
        try body(primary, replica, database, hub, try Hub.machine(hub, user, signUp: true), try Hub.machine(hub, user, signUp: false))
    }

    /// Pauses the replica's replay and waits until it holds back (it answers, further and further behind).
    static func pause(_ replica: PostgresCluster) throws {
        try replica.pauseReplay()
        // "pause requested" until there is WAL to hold back: then nothing more is replayed.
        try waitFor("the replica's replay to pause") {
            try replica.sql("SELECT pg_get_wal_replay_pause_state()", database: "postgres").trimmingCharacters(in: .whitespacesAndNewlines) != "not paused"
        }
    }

    @Test func everyAcknowledgedEditReachesEveryMachineWithTheReplicaCaughtUpLaggingOrStopped() throws {
        try Self.withReplica(user: "rita") { primary, replica, database, hub, a, b in
            // Caught up: the page of events and the picture come from the replica.
            #expect(try a.run(["new", "cat", "--image", Paths.example]).status == 0)
            _ = try Hub.sync(a)
            try Self.caughtUp(replica, primary, database: database, user: "rita")
            let first = try Hub.sync(b)
            #expect(first["picturesDown"] as? Int == 1, "\(first)")
            try Self.expectConverged(a, b, first)
            let fromReplica = try Self.reads(hub, answeredBy: "replica")
            #expect(fromReplica >= 2, "the pull and the picture read on the replica")

            // Lagging: replay paused, the replica answers but is behind; the primary answers the pulls.
            try Self.pause(replica)
            let primaryBefore = try Self.reads(hub, answeredBy: "primary")
            for round in 1...3 {
                try Self.caption(a, "cat", "while the replica lags \(round)")
                #expect(try Hub.sync(a)["resent"] as? Bool == false)
                try Self.expectConverged(a, b, try Hub.sync(b))
            }
            // Each of b's three pulls asked the replica and was answered by the primary.
            #expect(try Self.reads(hub, answeredBy: "primary") >= primaryBefore + 3)

            // Stopped: the replica refuses connections; the primary answers, and nothing waits long for it.
            try replica.stopServer()
            for round in 1...3 {
                try Self.caption(a, "cat", "while the replica is stopped \(round)")
                _ = try Hub.sync(a)
                try Self.expectConverged(a, b, try Hub.sync(b))
            }

            // Back (replay runs again after a start) and caught up: reads go to the replica again,
            // once its rest is over and its pool has reconnected (polled: no fixed wait).
            try replica.startServer()
            try Self.caption(a, "cat", "the replica is back")
            _ = try Hub.sync(a)
            try Self.caughtUp(replica, primary, database: database, user: "rita")
            let before = try Self.reads(hub, answeredBy: "replica")
            var round = 0
            try Self.waitFor("a pull answered by the replica again") {
                round += 1
                try Self.caption(a, "cat", "again \(round)")
                _ = try Hub.sync(a)
                try Self.caughtUp(replica, primary, database: database, user: "rita")
                try Self.expectConverged(a, b, try Hub.sync(b))
                return try Self.reads(hub, answeredBy: "replica") > before
            }
        }
    }

    /// A purge sent ahead of its push (`POST /v1/purges`, as a machine past its quota sends
    /// it) empties the creation's events and takes its pictures away without moving the
    /// user's position. A replica that has not replayed it yet must not be read: neither a
    /// pull nor a download hands the purged creation back (schema step 12 counts purges).
    @Test func aPurgeSentAheadIsNotUndoneByALaggingReplica() throws {
        try Self.withReplica(user: "pia") { primary, replica, database, hub, a, b in
            #expect(try a.run(["new", "cat", "--image", Paths.example]).status == 0)
            _ = try Hub.sync(a)
            _ = try Hub.sync(b)
            // dog has a picture of its own (cat's, encoded again), which the purge takes away.
            _ = try a.ok(["export", "cat", "-o", a.path("dog.png")])
            #expect(try a.run(["new", "dog", "--image", a.path("dog.png")]).status == 0)
            _ = try Hub.sync(a)
            try Self.caughtUp(replica, primary, database: database, user: "pia")
            func onPrimary(_ query: String) throws -> String {
                try primary.sql(query, database: database).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let dog = try onPrimary("SELECT lower(payload::jsonb ->> 'id') FROM events WHERE type = 'GalleryEntryAdded' AND payload::jsonb ->> 'name' = 'dog'")
            let dogPicture = try onPrimary("SELECT DISTINCT h FROM events e, unnest(e.blobs) AS h WHERE e.stream = '\(dog)'::uuid")
            #expect(dog.count == 36 && dogPicture.count == 64, "dog \(dog), its picture \(dogPicture)")
            let catPicture = try onPrimary("SELECT DISTINCT h FROM events e, unnest(e.blobs) AS h WHERE e.stream <> '\(dog)'::uuid")

            try Self.pause(replica)
            let token = try Hub.token(a)
            let purged = try Hub.curl(hub.address + "/v1/purges", token: token, [
                "-X", "POST", "-H", "Content-Type: application/json", "-d", "{\"creations\":[\"\(dog)\"]}"])
            #expect(purged.contains("\"emptied\""), "\(purged)")
            #expect(try onPrimary("SELECT count(*) FROM events WHERE stream = '\(dog)'::uuid AND type <> '$purged'") == "0")
            // The replica still holds dog whole; the primary answers both reads.
            #expect(try replica.sql("SELECT count(*) FROM events WHERE stream = '\(dog)'::uuid AND type <> '$purged'", database: database)
                .trimmingCharacters(in: .whitespacesAndNewlines) != "0")
            let bToken = try Hub.token(b)
            let askedBefore = try Self.reads(hub, answeredBy: "primary")
            #expect(try Hub.status(hub.address + "/v1/blobs/" + dogPicture, token: bToken) == 404)
            #expect(try Hub.status(hub.address + "/v1/blobs/" + catPicture, token: bToken) == 200)
            let pulled = try Hub.sync(b)
            #expect(pulled["resent"] as? Bool == false, "\(pulled)")
            #expect(try Hub.list(b) == ["cat"])
            // The replica was asked each time (it neither rested nor failed) and said it is behind.
            #expect(try Self.reads(hub, answeredBy: "primary") >= askedBefore + 3)

            try replica.resumeReplay()
            try Self.caughtUp(replica, primary, database: database, user: "pia")
            let replicaBefore = try Self.reads(hub, answeredBy: "replica")
            #expect(try Hub.status(hub.address + "/v1/blobs/" + catPicture, token: bToken) == 200)
            #expect(try Self.reads(hub, answeredBy: "replica") == replicaBefore + 1, "the replica answers again once it has replayed the purge")
            #expect(try Hub.status(hub.address + "/v1/blobs/" + dogPicture, token: bToken) == 404)
            let fresh = try Hub.machine(hub, "pia", signUp: false)
            _ = try Hub.sync(fresh)
            #expect(try Hub.list(fresh) == ["cat"])
        }
    }
}
