import Foundation
import HTTPTypes
import Hummingbird
import Memery
import NIOCore
import ServiceLifecycle

/// `GET /api/events`: Server-Sent Events, one per change of the store, from this server or
/// from any other process. Each event's id is the change's global sequence, so a page that
/// reconnects (`Last-Event-ID`) is told what it missed.
struct EventRoutes {
    let feed: ChangeFeed

    func add(to router: Router<ServerContext>) {
        router.get("api/events", use: events)
    }

    @Sendable func events(_ request: Request, context: ServerContext) async throws -> Response {
        let resumeFrom = request.headers[HTTPField.Name("Last-Event-ID")!].flatMap { UInt64($0) }
            ?? request.uri.queryParameters["after"].flatMap { UInt64(String($0)) }
        let (start, backlog, stream) = try await feed.subscribe(after: resumeFrom)
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // The first message says where the page stands, so it can resume from there.
            try await writer.write(ByteBuffer(string: "retry: 1000\nevent: hello\nid: \(start)\ndata: {\"sequence\":\(start)}\n\n"))
            if !backlog.isEmpty { try await writer.write(ByteBuffer(string: Self.messages(backlog))) }
            // A stream would hold the server open for ever: it ends when the server is asked to stop.
            for try await changes in stream.cancelOnGracefulShutdown() {
                try await writer.write(ByteBuffer(string: Self.messages(changes)))
            }
            try await writer.finish(nil)
        })
    }

    static func messages(_ changes: [StoreChange]) -> String {
        changes.map { change in
            let json = (try? AnswerJSON.data(change)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return "event: change\nid: \(change.sequence)\ndata: \(json)\n\n"
        }.joined()
    }
}
