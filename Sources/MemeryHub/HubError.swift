import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MemeryHubProtocol
import NIOCore
import PostgresNIO

/// A failure answered as a `HubProblem` (JSON), with the status that fits.
struct HubError: HTTPResponseError {
    var status: HTTPResponse.Status
    var problem: HubProblem
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ error: String, _ message: String, missing: [String]? = nil, headers: HTTPFields = [:]) {
        self.status = status
        problem = HubProblem(error: error, message: message, missing: missing)
        self.headers = headers
    }

    static func badRequest(_ message: String) -> HubError { HubError(.badRequest, "bad-request", message) }
    static let unauthorized = HubError(.unauthorized, "unauthorized",
                                       "this request needs a login: run `memery login HUB --user NAME` (the session may have been revoked)")
    static func notFound(_ message: String) -> HubError { HubError(.notFound, "not-found", message) }
    static func forbidden(_ message: String) -> HubError { HubError(.forbidden, "forbidden", message) }
    /// What would take an account past the hub's `--quota-mb`: nothing of it was stored.
    static func overQuota(used: Int64, adding: Int64, quota: Int64) -> HubError {
        func mb(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        return HubError(.contentTooLarge, "over-quota",
                        "this would take the account past the hub's quota of \(mb(quota)) (\(mb(used)) kept, \(mb(adding)) more): purge creations you no longer need, or ask the hub's operator for more; nothing was stored")
    }

    /// The refusal a failure is answered with, when it is one: ours, one made inside a
    /// transaction (rolled back), or the database's statement or lock timeout. Nil for
    /// anything else (a 500, logged).
    static func answering(_ error: any Error) -> HubError? {
        switch error {
        case let error as HubError: error
        case let error as PostgresTransactionError where error.closureError is HubError: error.closureError as? HubError
        case let error where isDatabaseTimeout(error):
            HubError(.serviceUnavailable, "unavailable", "the hub's database took too long (a statement over 25 s, or a lock held over 20 s): try again later")
        default: nil
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONBody.response(problem, status: status)
        for field in headers { response.headers.append(field) }
        return response
    }
}

/// Turns what a route throws into an answer: ours as they are, Hummingbird's (a body too
/// large, a bad decode) as problems, anything else as a 500 logged with the request's id and
/// answered with that id and no internals.
struct ProblemAnswers<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if let refusal = HubError.answering(error) {
                if refusal.status == .internalServerError {
                    context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(refusal.problem.message)"])
                }
                throw refusal
            }
            throw Self.problem(for: error, request: request, context: context)
        }
    }

    /// A failure that is not a `HubError` as the problem it is answered with.
    private static func problem(for error: any Error, request: Request, context: Context) -> any Error {
        switch error {
        case let error as any HTTPResponseError:
            switch error.status {
            case .contentTooLarge: return HubError(.contentTooLarge, "too-large", "the request body is larger than the hub takes (96 MB): send smaller pushes")
            case .badRequest: return HubError.badRequest("the request body is not what this route takes (see schemas/hub-openapi.yaml)")
            case .notFound: return HubError.notFound("no such route: \(request.uri.path) (see schemas/hub-openapi.yaml)")
            case .methodNotAllowed: return HubError(.methodNotAllowed, "bad-request", "\(request.method) is not allowed on \(request.uri.path)")
            default: return error
            }
        case is DecodingError:
            return HubError.badRequest("the request body is not what this route takes (see schemas/hub-openapi.yaml)")
        default:
            // The log line carries the request's id (hb.request.id); the answer names only that id.
            context.logger.error("request failed", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)",
                                                             "error": "\(String(reflecting: error))"])
            var answer = HubError(.internalServerError, "internal", "the hub failed to answer; it is logged as request \(context.id): try again, or give the id to the hub's operator")
            answer.problem.request = context.id
            return answer
        }
    }
}

extension HubError {
    /// PostgreSQL stopped a statement for its `statement_timeout` or `lock_timeout`.
    static func isDatabaseTimeout(_ error: any Error) -> Bool {
        let psql = (error as? PSQLError) ?? ((error as? PostgresTransactionError)?.closureError as? PSQLError)
        return ["57014", "55P03"].contains(psql?.serverInfo?[.sqlState] ?? "")
    }
}

/// JSON bodies in and out, each answer with the SHA-256 of its body in a header, which
/// the client checks before it believes a byte.
enum JSONBody {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? encoder.encode(value)) ?? Data(#"{"error":"internal","message":"the answer could not be written"}"#.utf8)
        return bytes(data, type: "application/json", status: status)
    }

    static func bytes(_ data: Data, type: String, status: HTTPResponse.Status = .ok, cache: String = "no-store") -> Response {
        var headers: HTTPFields = [.contentType: type, .cacheControl: cache]
        headers[HTTPField.Name(HubPaths.checksumHeader)!] = hex(SHA256Digest.of(data))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: HubContext) async throws -> T {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch {
            throw HubError.badRequest("the request body is not a \(T.self) as schemas/hub-openapi.yaml describes: \(Self.describe(error))")
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): "\"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.isEmpty ? "it is not JSON" : "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" is wrong"
        default: "it is not JSON"
        }
    }
}
