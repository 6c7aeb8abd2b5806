import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MemeryHubProtocol
import MemeryTestSupport
import NIOCore
import Prometheus
import Testing
@testable import MemeryHub

/// The hub's router answered in process (HummingbirdTesting's router framework, no socket)
/// on a database of its own in the throwaway cluster: who may reach what, and how a
/// failure is answered.
@Suite(.serialized, .enabled(if: PostgresCluster.shared != nil, "no PostgreSQL cluster could be started (PostgreSQLIsThereForTheHubTests says why)"))
struct HubRouterTests {
    func hub() throws -> some ApplicationProtocol {
        let database = try PostgresCluster.shared!.newDatabase()
        let settings = HubSettings(database: try DatabaseAddress(database), bcryptCost: 4, logLevel: .warning)
        var logger = Logger(label: "memery.hub.test")
        logger.logLevel = .warning
        return HubServer.application(settings, registry: PrometheusCollectorRegistry(), logger: logger, announce: { _ in })
    }

    static func json(_ value: some Encodable) -> ByteBuffer {
        ByteBuffer(data: try! JSONEncoder().encode(value))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ buffer: ByteBuffer) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
    }

    /// Signs a person up and logs them in; their bearer header.
    static func member(_ name: String, _ client: some TestClientProtocol) async throws -> HTTPFields {
        let password = "correct horse battery staple"
        let made = try await client.execute(uri: HubPaths.accounts, method: .post, headers: [.contentType: "application/json"],
                                            body: json(SignUpRequest(user: name, password: password)))
        #expect(made.status == .created)
        let login = try await client.execute(uri: HubPaths.sessions, method: .post, headers: [.contentType: "application/json"],
                                             body: json(LoginRequest(user: name, password: password, device: "test")))
        #expect(login.status == .created)
        let token = try decode(LoginAnswer.self, login.body).token
        return [.authorization: "Bearer \(token)", .contentType: "application/json"]
    }

    @Test func everyRouteBehindALoginAnswers401WithoutOneAndNamesThePersonWithIt() async throws {
        try await hub().test(.router) { client in
            let alice = try await Self.member("alice", client)
            let behindLogin: [(HTTPRequest.Method, String)] = [
                (.get, HubPaths.account), (.delete, HubPaths.account), (.put, HubPaths.password), (.delete, HubPaths.sessions),
                (.delete, HubPaths.sessions + "/current"), (.delete, HubPaths.sessions + "/\(UUID())"), (.post, HubPaths.purges),
                (.post, HubPaths.blobs + "/missing"), (.put, HubPaths.blobs + "/\(String(repeating: "0", count: 64))"),
                (.get, HubPaths.blobs + "/\(String(repeating: "0", count: 64))"), (.get, HubPaths.watch), (.post, HubPaths.shares),
                (.post, HubPaths.templates), (.put, HubPaths.recommendations + "/x/position"), (.delete, HubPaths.library + "/x"),
            ]
            for (method, path) in behindLogin {
                for headers: HTTPFields in [[:], [.authorization: "Bearer not-a-session"]] {
                    let answer = try await client.execute(uri: path, method: method, headers: headers)
                    #expect(answer.status == .unauthorized, "\(method) \(path)")
                    #expect(try Self.decode(HubProblem.self, answer.body).error == "unauthorized", "\(method) \(path)")
                }
            }
            let account = try await client.execute(uri: HubPaths.account, method: .get, headers: alice)
            #expect(account.status == .ok)
            let answer = try Self.decode(AccountAnswer.self, account.body)
            #expect(answer.user == "alice" && answer.devices.count == 1 && answer.devices.first?.current == true)
            // Logged out: the same token is refused on its next request.
            #expect(try await client.execute(uri: HubPaths.sessions + "/current", method: .delete, headers: alice).status == .noContent)
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: alice).status == .unauthorized)
        }
    }

    @Test func onePersonsPictureIsNotFoundForAnother() async throws {
        try await hub().test(.router) { client in
            let alice = try await Self.member("alice", client), bob = try await Self.member("bob", client)
            let picture = pngDeclaring(width: 3, height: 2) + Data("only alice has it".utf8)
            let path = HubPaths.blobs + "/" + hex(SHA256Digest.of(picture))
            let pictureType: HTTPFields = [.authorization: alice[.authorization]!, .contentType: "application/octet-stream"]
            let put = try await client.execute(uri: path, method: .put, headers: pictureType, body: ByteBuffer(data: picture))
            #expect(put.status == .created, "\(String(buffer: put.body))")
            let theirs = try await client.execute(uri: path, method: .get, headers: alice)
            #expect(theirs.status == .ok && Data(theirs.body.readableBytesView) == picture)
            let guessed = try await client.execute(uri: path, method: .get, headers: bob)
            #expect(guessed.status == .notFound)
            #expect(!String(buffer: guessed.body).contains("only alice has it"))
        }
    }
}

/// How the hub answers what it did not expect (no database needed).
@Suite struct HubProblemAnswerTests {
    /// A failure that is not the hub's own words: logged with its cause under the request's
    /// id, answered with the id and nothing of the cause.
    @Test func aFiveHundredIsLoggedWithItsRequestIdAndAnsweredWithoutInternals() async throws {
        struct SecretFailure: Error { let detail = "password_hash column 7" }
        let log = LogLines()
        let router = Router(context: HubContext.self)
        router.add(middleware: ProblemAnswers())
        router.get("boom") { _, _ -> Response in throw SecretFailure() }
        try await Application(router: router, logger: log.logger).test(.router) { client in
            let answer = try await client.execute(uri: "/boom", method: .get)
            #expect(answer.status == .internalServerError)
            #expect(!String(buffer: answer.body).contains("password_hash") && !String(buffer: answer.body).contains("SecretFailure"))
            let problem = try HubRouterTests.decode(HubProblem.self, answer.body)
            #expect(problem.error == "internal")
            let id = try #require(problem.request)
            #expect(problem.message.contains(id))
            let logged = try #require(log.lines.first { $0.message == "request failed" })
            #expect(logged.metadata["hb.request.id"] == id)
            #expect(logged.metadata["error"]?.contains("password_hash column 7") == true)
        }
    }
}
