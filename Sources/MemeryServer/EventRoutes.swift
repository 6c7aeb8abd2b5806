import Foundation
import HTTPTypes
import Hummingbird
import Memery
import NIOCore
import MemeryLocks
import ServiceLifecycle

/// `GET /api/events`: Server-Sent Events, one per change of the store, from this server or
/// from any other process. Each event's id is the change's global sequence, so a page that
/// reconnects (`Last-Event-ID`) is told what it missed. On a hub, a page whose session ends
/// is told `signedOut` and its stream ends. A quiet stream says a comment every
/// `keepAlive`: a proxy's idle timeout (HAProxy's `timeout server`, 60 s in
/// packaging/haproxy.cfg) does not cut it, and a connection that has gone is found at that
/// write rather than at the next change.
struct EventRoutes {
    let feed: ChangeFeed
    let keepAlive: Duration

    func add(to router: Router<ServerContext>) {
        router.get("api/events", use: events)
    }

    @Sendable func events(_ request: Request, context: ServerContext) async throws -> Response {
        let resumeFrom = request.headers[HTTPField.Name("Last-Event-ID")!].flatMap { UInt64($0) }
            ?? request.uri.queryParameters["after"].flatMap { UInt64(String($0)) }
        let (start, backlog, stream) = try await feed.subscribe(after: resumeFrom)
        let sessionEnded = context.sessionEnded
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // The first message says where the page stands, so it can resume from there.
            try await writer.write(ByteBuffer(string: "retry: 1000\nevent: hello\nid: \(start)\ndata: {\"sequence\":\(start)}\n\n"))
            if !backlog.isEmpty { try await writer.write(ByteBuffer(string: Self.messages(backlog))) }
            // The store's changes and, on a hub, the end of the session, in the order they come.
            // Bounded as the feed's own stream is: a page that stops reading holds at most the
            // newest 64 (it reloads on the next it reads, so older ones are not missed); the
            // end of the session is the last thing said, and so kept.
            let (said, saying) = AsyncStream.makeStream(of: Said.self, bufferingPolicy: .bufferingNewest(64))
            let changes = Task {
                for await changes in stream { saying.yield(.changes(changes)) }
                saying.finish()
            }
            // At most one comment waits in the buffer, so a reader that stops cannot have its
            // newest changes pushed out by comments.
            let commentWaiting = Locked(false)
            let beats = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: keepAlive)
                    if Task.isCancelled { break }
                    if commentWaiting.withLock({ waiting in defer { waiting = true }; return !waiting }) { saying.yield(.stillHere) }
                }
            }
            let session = sessionEnded.map { ended in
                Task {
                    await ended()
                    if !Task.isCancelled {
                        saying.yield(.signedOut)
                        saying.finish()  // nothing after it, so no change pushes it out
                    }
                }
            }
            defer {
                changes.cancel()
                beats.cancel()
                session?.cancel()
            }
            // A stream would hold the server open for ever: it ends when the server is asked to stop.
            reading: for await message in said.cancelOnGracefulShutdown() {
                switch message {
                case .changes(let changes):
                    try await writer.write(ByteBuffer(string: Self.messages(changes)))
                case .stillHere:
                    commentWaiting.withLock { $0 = false }
                    try await writer.write(ByteBuffer(string: ": still here\n\n"))
                case .signedOut:
                    // The page goes to the sign-in page now (app/api.js), not at its next request.
                    try await writer.write(ByteBuffer(string: "event: signedOut\ndata: {\"kind\":\"signedOut\"}\n\n"))
                    break reading
                }
            }
            try await writer.finish(nil)
        })
    }

    /// What a page's stream says next.
    private enum Said: Sendable {
        case changes([StoreChange])
        case stillHere
        case signedOut
    }

    static func messages(_ changes: [StoreChange]) -> String {
        changes.map { change in
            let json = (try? AnswerJSON.data(change)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return "event: change\nid: \(change.sequence)\ndata: \(json)\n\n"
        }.joined()
    }
}
