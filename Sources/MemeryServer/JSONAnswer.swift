import Foundation
import HTTPTypes
import Hummingbird
import Memery
import NIOCore

/// JSON bodies in and out. Answers are the facade's typed answers (`Memery/Answers`), the
/// same the CLI prints with `--json`, written by `AnswerJSON`.
enum JSONAnswer {
    static func response(_ answer: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        let data = (try? AnswerJSON.data(answer)) ?? Data(#"{"error":"the answer could not be written as JSON"}"#.utf8)
        return BytesAnswer.response(data, type: "application/json; charset=utf-8", cache: "no-store", status: status, headers: headers)
    }

    /// The request's body as a JSON value, within the server's limit.
    static func body(of request: Request, context: ServerContext) async throws -> Any {
        let buffer = try await request.body.collect(upTo: context.bodyLimit)
        do {
            return try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView), options: [.fragmentsAllowed])
        } catch {
            throw APIError(.badRequest, "the request body is not JSON: send a JSON object (Content-Type: application/json)")
        }
    }
}
