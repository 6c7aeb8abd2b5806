import Foundation
import HTTPTypes
import Hummingbird
import MemeryHubProtocol
import NIOCore

/// The routes of protocol version 1 (schemas/hub-openapi.yaml).
struct HubRoutes: Sendable {
    let accounts: Accounts
    let events: EventLog
    let blobs: Blobs

    func add(to router: Router<HubContext>) {
        let members = router.group().add(middleware: SignedInOnly(accounts: accounts))
        router.post(RouterPath(HubPaths.accounts)) { request, context -> Response in
            let body = try await JSONBody.decode(SignUpRequest.self, from: request, context: context)
            let user = try await accounts.signUp(body, from: accounts.address(request, context))
            return JSONBody.response(["user": user], status: .created)
        }
        router.post(RouterPath(HubPaths.sessions)) { request, context -> Response in
            let body = try await JSONBody.decode(LoginRequest.self, from: request, context: context)
            return JSONBody.response(try await accounts.logIn(body, from: accounts.address(request, context)), status: .created)
        }
        members.get(RouterPath(HubPaths.account)) { _, context -> Response in
            JSONBody.response(try await accounts.account(of: try context.who))
        }
        members.delete(RouterPath(HubPaths.account)) { request, context -> Response in
            let who = try context.who
            try await accounts.delete(try await JSONBody.decode(AccountDeletion.self, from: request, context: context), of: who,
                                      from: accounts.address(request, context))
            return Response(status: .noContent)
        }
        members.put(RouterPath(HubPaths.password)) { request, context -> Response in
            let who = try context.who
            try await accounts.changePassword(try await JSONBody.decode(PasswordChange.self, from: request, context: context), of: who,
                                              from: accounts.address(request, context))
            return Response(status: .noContent)
        }
        // Logging out: this device's session, every session, or another device's.
        members.delete(RouterPath(HubPaths.sessions + "/current")) { request, context -> Response in
            let who = try context.who
            try await accounts.revoke(who.session, of: who)
            return Response(status: .noContent)
        }
        members.delete(RouterPath(HubPaths.sessions)) { _, context -> Response in
            try await accounts.revokeAll(of: try context.who)
            return Response(status: .noContent)
        }
        members.delete(RouterPath(HubPaths.sessions + "/:id")) { request, context -> Response in
            let who = try context.who
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
                throw HubError.notFound("no such session: `memery account` lists them")
            }
            try await accounts.revoke(id, of: who)
            return Response(status: .noContent)
        }

        // A sync's two requests check their session in the same statement as their work.
        router.post(RouterPath(HubPaths.events)) { request, context -> Response in
            let session = try Accounts.session(request.headers)
            let push = try await JSONBody.decode(PushRequest.self, from: request, context: context)
            return JSONBody.response(try await events.push(push, session: session))
        }
        router.get(RouterPath(HubPaths.events)) { request, _ -> Response in
            let session = try Accounts.session(request.headers)
            let after = try Self.integer(request, "after", default: 0, in: 0...Int64.max)
            let limit = try Self.integer(request, "limit", default: 500, in: 1...Int64(EventLog.pageLimit))
            let at = request.uri.queryParameters.get("at").flatMap(UUID.init(uuidString:))
            return JSONBody.response(try await events.pull(after: after, at: at, limit: Int(limit), session: session))
        }

        members.post(RouterPath(HubPaths.purges)) { request, context -> Response in
            let who = try context.who
            let body = try await JSONBody.decode(PurgeRequest.self, from: request, context: context)
            return JSONBody.response(PurgeAnswer(emptied: try await events.purge(body.creations, of: who)))
        }
        members.post(RouterPath(HubPaths.blobs + "/missing")) { request, context -> Response in
            let who = try context.who
            let body = try await JSONBody.decode(BlobList.self, from: request, context: context)
            guard body.hashes.count <= 10_000 else { throw HubError.badRequest("ask about at most 10000 pictures at once") }
            return JSONBody.response(BlobList(hashes: try await blobs.missing(body.hashes, for: who)))
        }
        members.put(RouterPath(HubPaths.blobs + "/:hash")) { request, context -> Response in
            let who = try context.who
            let hash = request.uri.path.split(separator: "/").last.map(String.init) ?? ""
            let bytes = try await request.body.collect(upTo: Blobs.largest)
            let new = try await blobs.put(hash, bytes, by: who)
            return Response(status: new ? .created : .ok)
        }
        members.get(RouterPath(HubPaths.blobs + "/:hash")) { request, context -> Response in
            let who = try context.who
            let hash = request.uri.path.split(separator: "/").last.map(String.init) ?? ""
            // A picture never changes under its hash: a device may keep it for good.
            return JSONBody.bytes(try await blobs.get(hash, for: who), type: "application/octet-stream", cache: "private, max-age=31536000, immutable")
        }
    }

    /// A query parameter that must be a whole number in `range` when present.
    static func integer(_ request: Request, _ name: String, default value: Int64, in range: ClosedRange<Int64>) throws -> Int64 {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        guard let number = Int64(text), range.contains(number) else {
            throw HubError.badRequest("?\(name)= must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(text.prefix(40))")
        }
        return number
    }
}
