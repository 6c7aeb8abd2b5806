import AsyncHTTPClient
import Crypto
import Foundation
public import MemeryHubProtocol
import NIOCore
import NIOHTTP1

/// Why talking to the hub failed, in words for the person: the hub's own message, or what
/// went wrong on the way. Nothing in the store was changed by a request that failed.
public struct HubClientError: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// The hub's answer, when it gave one.
    public var problem: HubProblem?
    public var status: Int?
    /// True when what the person gave was wrong, found before any request (a short
    /// password, an address that is not one): bad input, not the hub's doing.
    public var isBadInput = false
    /// True when an answer's bytes are not what the hub said they would be (a picture whose
    /// hash differs from its entry's): damaged on the way, nothing of it used.
    public var isDamagedAnswer = false
    public init(_ description: String, problem: HubProblem? = nil, status: Int? = nil, isBadInput: Bool = false, isDamagedAnswer: Bool = false) {
        self.description = description; self.problem = problem; self.status = status; self.isBadInput = isBadInput
        self.isDamagedAnswer = isDamagedAnswer
    }
}

/// Requests to one hub, as a device (with its session's token) or as anyone. Every answer
/// with a body is checked against the SHA-256 the hub sent with it before it is read.
public struct HubConnection: Sendable {
    public let hub: String
    let token: String?
    /// Whose token it is, to name them in what to do when the hub has forgotten it.
    var user: String?
    var timeout: TimeAmount = .seconds(60)

    /// `hub` is the address `memery hub` printed (http://HOST:PORT).
    public init(hub: String, token: String? = nil, user: String? = nil) throws {
        var address = hub.trimmingCharacters(in: .whitespaces)
        while address.hasSuffix("/") { address.removeLast() }
        guard let url = URL(string: address), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw HubClientError("\(hub.prefix(80)) is not a hub address: give http://HOST:PORT as `memery hub` printed it", isBadInput: true)
        }
        self.hub = address
        self.token = token
        self.user = user
    }

    /// One client for the process. A hub that refuses the connection fails the request at
    /// once (a person is waiting; `memery sync --watch` tries again by itself).
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(10)
        configuration.connectionPool.retryConnectionEstablishment = false
        // A hub's working copies (MemeryHubEditor) sync many people at once through it.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Sends a request; answers the body of a 2xx, throws `HubClientError` otherwise.
    func send(_ method: HTTPMethod, _ path: String, body: Data? = nil, type: String = "application/json") async throws -> Data {
        var request = HTTPClientRequest(url: hub + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: type)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response: HTTPClientResponse
        do {
            response = try await Self.client.execute(request, timeout: timeout)
        } catch {
            throw HubClientError("the hub at \(hub) cannot be reached (\(Self.describe(error))): is it running, and is the address right? Nothing of this request was applied")
        }
        let bytes: ByteBuffer
        do {
            bytes = try await response.body.collect(upTo: 256 << 20)
        } catch {
            throw HubClientError("the hub at \(hub) stopped answering mid-way (\(Self.describe(error))); nothing from that answer was used: try again")
        }
        let data = Data(bytes.readableBytesView)
        if let sent = response.headers.first(name: HubPaths.checksumHeader), sent != hex(SHA256.hash(data: data)) {
            throw HubClientError("the hub's answer to \(method) \(path.split(separator: "?").first ?? "") failed its checksum (damaged on the way): nothing from it was applied; sync again")
        }
        guard (200..<300).contains(Int(response.status.code)) else {
            let problem = try? JSONDecoder().decode(HubProblem.self, from: data)
            if response.status.code == 401, token != nil {
                throw HubClientError("""
                    the hub at \(hub) no longer knows this device's session (logged out or revoked from another device, \
                    or the password was changed): run `memery login \(hub) --user \(user ?? "NAME")` again
                    """, problem: problem, status: 401)
            }
            throw HubClientError(problem?.message ?? "the hub answered \(response.status.code) \(response.status.reasonPhrase) to \(method) \(path)",
                                 problem: problem, status: Int(response.status.code))
        }
        return data
    }

    func json<Answer: Decodable>(_ method: HTTPMethod, _ path: String, _ body: (some Encodable)? = Optional<Int>.none,
                                 as: Answer.Type) async throws -> Answer {
        let data = try await send(method, path, body: try body.map { try JSONEncoder().encode($0) })
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw HubClientError("the hub's answer to \(method) \(path) is not what this memery understands: is the hub a newer version?")
        }
    }

    /// Why a request got no answer, by the error's type: AsyncHTTPClient's own errors, and
    /// the socket's errno.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as HTTPClientError where error == .connectTimeout: return "no answer in time"
        case let error as HTTPClientError where error == .deadlineExceeded: return "it took too long"
        case let error as IOError where error.errnoCode == ECONNREFUSED: return "connection refused"
        case let error as IOError where error.errnoCode == ECONNRESET: return "the connection was reset"
        default:
            let text = String(describing: error)
            return text.count > 120 ? String(text.prefix(120)) + "…" : text
        }
    }
}
