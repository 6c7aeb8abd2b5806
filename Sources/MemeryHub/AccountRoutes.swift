import Foundation
import HTTPTypes
import Hummingbird
import MemeryHubProtocol
import NIOCore

/// Signing up, logging in and out, the account and its devices (schemas/hub-openapi.yaml).
struct AccountRoutes: Sendable {
    let accounts: Accounts

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
    }
}
