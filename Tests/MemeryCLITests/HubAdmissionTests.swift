import Foundation
import MemeryHubProtocol
import Testing

/// No device can damage another (issue 30 §2): the hub admits only events the engine can
/// read, and a machine checks what it pulls the same way, setting aside what it cannot read
/// instead of stopping there.
@Suite(.serialized, .enabled(if: PostgresCluster.shared != nil, "no PostgreSQL cluster could be started (PostgreSQLIsThereForTheHubTests says why)"))
struct HubAdmissionTests {
    typealias Hub = HubSyncTests

    /// A machine with one synced creation "cc"; its user's id and cc's stream.
    static func setUp(_ hub: HubProcess, _ user: String) throws -> (Sandbox, user: String, stream: UUID) {
        let a = try Hub.machine(hub, user, signUp: true)
        #expect(try a.run(["new", "cc", "--canvas", "120x60"]).status == 0)
        _ = try Hub.sync(a)
        let id = try Hub.cluster.sql("SELECT id FROM users WHERE name_key = '\(user)'", database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines)
        let stream = try Hub.cluster.sql("SELECT stream FROM events WHERE type = 'CreationCreated'", database: hub.database)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return (a, id, try #require(UUID(uuidString: stream)))
    }

    static func event(_ stream: UUID, type: String, version: Int = 1, payload: String, time: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) -> HubEvent {
        let id = UUID()
        return HubEvent(id: id, batch: id, stream: stream, parent: nil, type: type, schemaVersion: version, time: time, payload: payload, blobs: [])
    }

    /// POSTs a push by hand: (status, body).
    static func push(_ events: [HubEvent], to hub: HubProcess, token: String) throws -> (Int, String) {
        let body = try JSONEncoder().encode(PushRequest(key: UUID().uuidString, seen: 0, events: events))
        let file = "/tmp/memery-push-\(UUID().uuidString.prefix(8)).json"
        try body.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let out = try Hub.curl(hub.address + HubPaths.events, token: token,
                               ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@" + file, "-w", "\n%{http_code}"])
        let status = Int(out.split(separator: "\n").last ?? "") ?? 0
        return (status, String(out.split(separator: "\n").dropLast().joined(separator: "\n")))
    }

    @Test func aPushOfAnEventTheEngineCannotReadIsRefusedWholeWith422() throws {
        let hub = try Hub.hub()
        let (a, _, stream) = try Self.setUp(hub, "uma")
        let token = try Hub.token(a)
        let before = try Hub.cluster.sql("SELECT count(*) FROM events", database: hub.database)
        let good = Self.event(stream, type: "CanvasFlipped", payload: #"{"axis":"h"}"#)
        let cases: [(HubEvent, String)] = [
            (Self.event(stream, type: "Bogus", payload: "not json at all"), "no event type any memery writes"),
            (Self.event(stream, type: "TextLayerEdited", payload: "{\"layer\": 12"), "does not match its schema"),
            (Self.event(stream, type: "CanvasFlipped", payload: #"{"axis":"h"}"#, time: Int64.max), "is not between 2000 and 2100"),
            (Self.event(stream, type: "CanvasFlipped", version: 7, payload: #"{"axis":"h"}"#), "update the hub"),
        ]
        for (bad, why) in cases {
            let (status, body) = try Self.push([good, bad], to: hub, token: token)
            #expect(status == 422, "\(bad.type): \(status) \(body)")
            #expect(body.contains(bad.id.uuidString.lowercased()) && body.contains(why), "\(body)")
        }
        #expect(try Hub.cluster.sql("SELECT count(*) FROM events", database: hub.database) == before, "nothing of a refused push is stored")
        // A picture the payload uses must be named with it: else another machine could never get it.
        let hash = String(repeating: "ab", count: 32)
        let unnamed = Self.event(stream, type: "BaseImageImported",
                                 payload: #"{"image":{"blob":"\#(hash)","format":"png","height":4,"sourceName":"x.png","width":4}}"#)
        let (status, body) = try Self.push([unnamed], to: hub, token: token)
        #expect(status == 422 && body.contains("without naming it"), "\(status) \(body)")
        // The account still syncs, a new machine of it too.
        let b = try Hub.machine(hub, "uma", signUp: false)
        _ = try Hub.sync(b)
        _ = try Hub.sync(a)
        #expect(try b.run(["verify"]).status == 0)
    }

    @Test func pulledEventsAMachineCannotReadAreSetAsideAndTheRestArrives() throws {
        let hub = try Hub.hub()
        let (a, user, stream) = try Self.setUp(hub, "vic")
        // As a hub that admitted anything would hold them: intact (their checksums are
        // right), unreadable or from a newer memery.
        let hostile = [
            Self.event(stream, type: "TextLayerEdited", payload: "garbage, not JSON"),
            Self.event(stream, type: "StickerWobbled", version: 1, payload: #"{"wobble":3}"#),
            Self.event(stream, type: "CanvasFlipped", payload: #"{"axis":"h"}"#, time: Int64.max),
        ]
        for event in hostile {
            try Hub.cluster.sql("""
                WITH u AS (UPDATE users SET position = position + 1 WHERE id = \(user) RETURNING position)
                INSERT INTO events (user_id, position, id, batch, stream, parent, type, schema_version, time_ms, payload, blobs, checksum)
                SELECT \(user), u.position, '\(event.id)', '\(event.batch)', '\(event.stream)', NULL, '\(event.type)', \(event.schemaVersion),
                       \(event.time), $p$\(event.payload)$p$, '{}', '\(event.checksum)' FROM u
                """, database: hub.database)
        }
        #expect(try a.run(["text", "cc", "--top", "AFTER THEM"]).status == 0)
        for machine in [a, try Hub.machine(hub, "vic", signUp: false)] {
            let synced = try machine.run(["sync"])
            #expect(synced.status == 0 && !synced.signaled, "\(synced)")
            #expect(synced.stdout.contains("2 edits of \"cc\" from the hub cannot be read"), "\(synced.stdout)")
            #expect(synced.stdout.contains("1 edit of \"cc\" was made with a newer memery"), "\(synced.stdout)")
            #expect(try machine.run(["show", "cc"]).stdout.contains("AFTER THEM"))
            let verified = try machine.run(["verify"])
            #expect(verified.status == 0 && verified.stdout.contains("set aside: 2 edits of \"cc\""), "\(verified)")
            // Asked again, the same: nothing stored, nothing stopped.
            #expect(try machine.run(["sync"]).status == 0)
        }
    }
}
