import Foundation
import Logging
import MemeryHubProtocol
import PostgresNIO
import Testing
@testable import MemeryHub

/// A hub's working copies sync in process (`HubLocalSync`) under the API's own deadline: a
/// database that cannot be reached is a refusal that says so, not a call held until the
/// pool gives up.
@Suite(.timeLimit(.minutes(5))) struct HubLocalSyncTests {
    /// A loopback port nothing listens on, held bound (not listening) until `close`: a
    /// connection to it is refused, and no server the other suites start can take it
    /// meanwhile, as one could a port bound and let go.
    static func closedPort() throws -> (port: Int, socket: Int32) {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        if !bound { close(socket) }
        try #require(bound, "no port to bind on 127.0.0.1")
        return (Int(UInt16(bigEndian: address.sin_port)), socket)
    }

    @Test func aSyncCallWhoseDatabaseCannotBeReachedIsRefusedSayingSo() async throws {
        let closed = try Self.closedPort()
        defer { close(closed.socket) }
        let database = try DatabaseAddress("postgres://memery@127.0.0.1:\(closed.port)/hub?sslmode=disable")
        var logger = Logger(label: "memery.hub.test")
        logger.logLevel = .critical
        let client = PostgresClient(configuration: database.configuration, backgroundLogger: logger)
        let records = InMemoryHubRecords()
        let settings = HubSettings(database: database, bcryptCost: 4, logLevel: .warning)
        var local = HubLocalSync(accounts: HubRecords(accounts: records, logins: records, pictures: records).accounts(settings, logger: logger),
                                 events: EventLog(client: client, logger: logger), blobs: Blobs(records: records),
                                 reachable: { await DatabaseReachability.check(database) }, logger: logger)
        // Only the probe (after 2 s) may answer. With the usual 30 s, a test process whose
        // two cooperative threads were held that long by other suites' blocking work (their
        // programs run to the end) answered "did not answer within 30 s", and failed CI once.
        local.limit = .seconds(120)  // twice, push and pull, within the suite's 5 minutes
        let session = local.session(token: "a token nobody has")
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            for call in ["push", "pull"] {
                do {
                    if call == "push" {
                        _ = try await session.push(PushRequest(key: "push-1", seen: 0, events: []))
                    } else {
                        _ = try await session.pull(after: 0, at: nil, limit: 10)
                    }
                    Issue.record("\(call): answered with no database")
                } catch let refusal as HubRefusal {
                    #expect(refusal.status == 503 && refusal.problem.message.contains("the hub's database cannot be reached"), "\(call): \(refusal)")
                } catch {
                    Issue.record("\(call): \(String(reflecting: error)) is not the refusal the route gives")
                }
            }
            // The route's limits hold in process too.
            await #expect(throws: HubRefusal.self) { _ = try await session.pull(after: -1, at: nil, limit: 10) }
            group.cancelAll()
        }
    }
}
