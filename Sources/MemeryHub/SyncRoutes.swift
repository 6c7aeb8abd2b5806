import Foundation
import HTTPTypes
import Hummingbird
import MemeryHubProtocol
import NIOCore

/// A sync's push and pull, and purges sent ahead of a push (schemas/hub-openapi.yaml).
struct SyncRoutes: Sendable {
    let accounts: Accounts
    let events: EventLog

    func add(to router: Router<HubContext>) {
        // A sync's two requests check their session in the same statement as their work.
        router.post(RouterPath(HubPaths.events)) { request, context -> Response in
            let session = try accounts.session(request.headers)
            let push = try await JSONBody.decode(PushRequest.self, from: request, context: context)
            return JSONBody.response(try await events.push(push, session: session))
        }
        router.get(RouterPath(HubPaths.events)) { request, _ -> Response in
            let session = try accounts.session(request.headers)
            let after = try QueryNumber.read(request, "after", default: 0, in: 0...Int64.max)
            let limit = try QueryNumber.read(request, "limit", default: 500, in: 1...Int64(EventLog.pageLimit))
            let at = request.uri.queryParameters.get("at").flatMap(UUID.init(uuidString:))
            return JSONBody.response(try await events.pull(after: after, at: at, limit: Int(limit), session: session))
        }

        router.group().add(middleware: SignedInOnly(accounts: accounts)).post(RouterPath(HubPaths.purges)) { request, context -> Response in
            let who = try context.who
            let body = try await JSONBody.decode(PurgeRequest.self, from: request, context: context)
            return JSONBody.response(PurgeAnswer(emptied: try await events.purge(body.creations, of: who)))
        }
    }
}
