import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Memery
import NIOCore

/// A failure answered as JSON: `{"error": message, "kind": ...}` with the status that fits.
/// The engine's errors are classified once by the facade (`MemeryError`); here each kind
/// gets its HTTP status.
struct APIError: HTTPResponseError {
    var status: HTTPResponse.Status
    var message: String
    var kind: String
    /// The creation's version now, when an edit was stale or a list of edits stopped part-way.
    var version: UInt64?
    /// How many edits of a list were stored before one was refused.
    var applied: Int?
    /// The request's id, under which a 500 is logged.
    var request: String?
    /// What went wrong inside, for the log only: never sent.
    var cause: (any Error)?

    init(_ status: HTTPResponse.Status, _ message: String, kind: String? = nil, version: UInt64? = nil) {
        self.status = status
        self.message = message
        self.kind = kind ?? Self.kindName(status)
        self.version = version
    }

    /// The engine's error as an answer; nil for errors that are not the engine's.
    init?(engine error: any Error) {
        guard let error = MemeryError(classifying: error) else { return nil }
        let status: HTTPResponse.Status = switch error.kind {
        case .badInput: .badRequest
        case .notFound: .notFound
        case .conflict: .conflict
        case .busy: .serviceUnavailable
        case .damagedStore, .storage: .internalServerError
        case .pluginFailure: .unprocessableContent
        }
        self.init(status, PageWords.forThePage(error.message), kind: error.kind.rawValue)
        cause = error
    }

    /// A failure that is not the engine's: a 500 that keeps its cause for the log.
    init(failure: any Error) {
        self.init(.internalServerError, "the server failed to answer", kind: "internal")
        cause = failure
    }

    static func kindName(_ status: HTTPResponse.Status) -> String {
        switch status.code {
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "notFound"
        case 409: "conflict"
        case 413: "tooLarge"
        default: "badInput"
        }
    }

    /// What a failure answers: its words and kind, and what else it knows.
    struct Body: Encodable {
        var error: String
        var kind: String
        var version: UInt64?
        var applied: Int?
        var request: String?
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(error: message, kind: kind, version: version, applied: applied, request: self.request)
        // A body too large is not read: the connection closes, or the sender would block.
        // Failures carry the hardening headers too: they are answers like any other.
        return AccessGuard<ServerContext>.hardened(
            JSONAnswer.response(body, status: status, headers: status == .contentTooLarge ? [.connection: "close"] : [:]))
    }
}

/// Turns whatever a route throws into an answer: the engine's errors by their kind,
/// Hummingbird's own as they are. Every 500 is logged with its cause and the request's id
/// (the logger carries it) and answered with that id: a failure that is not the engine's
/// with no internals; the engine's own storage failures with their words, which tell the
/// store's owner what to do (`memery verify`). The terminal running `memery serve` holds the rest.
struct ErrorAnswers<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw logged(error, request, context)
        } catch let error as any HTTPResponseError {
            if error.status == .contentTooLarge {
                throw APIError(.contentTooLarge, "the request body is larger than this server takes; start `memery serve --max-upload-mb N` for more")
            }
            if error.status == .internalServerError {
                context.logger.error("request failed", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)",
                                                                 "error": "\(String(reflecting: error))"])
            }
            throw error
        } catch {
            throw logged(APIError(engine: error) ?? APIError(failure: error), request, context)
        }
    }

    func logged(_ answer: APIError, _ request: Request, _ context: Context) -> APIError {
        guard answer.status == .internalServerError else { return answer }
        context.logger.error("request failed", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)",
                                                         "error": "\(answer.cause.map { String(reflecting: $0) } ?? answer.message)"])
        var answer = answer
        answer.message += " (logged as request \(context.id) where `memery serve` runs)"
        answer.request = context.id
        return answer
    }
}
