import Foundation
import HTTPTypes
import Hummingbird
import MemeryHTTP
import MemeryHubProtocol

/// The library's routes: publishing needs a login; reading, browsing and searching do not.
struct LibraryRoutes: Sendable {
    let accounts: Accounts
    let library: Library

    func add(to router: Router<HubContext>) {
        let members = router.group().add(middleware: SignedInOnly(accounts: accounts))
        for (path, kind) in [(HubPaths.recommendations, LibraryItem.Kind.recommendation), (HubPaths.templates, .template), (HubPaths.shares, .share)] {
            members.post(RouterPath(path)) { request, context -> Response in
                let who = try context.who
                let body = try await JSONBody.decode(LibraryPublish.self, from: request, context: context)
                return JSONBody.response(try await library.publish(body, as: kind, by: who), status: .created)
            }
        }
        router.get(RouterPath(HubPaths.recommendations)) { request, _ -> Response in
            JSONBody.response(try await library.recommended(week: request.uri.queryParameters.get("week")))
        }
        members.put(RouterPath(HubPaths.recommendations + "/:id/position")) { request, context -> Response in
            let who = try context.who
            let body = try await JSONBody.decode(RecommendationMove.self, from: request, context: context)
            return JSONBody.response(try await library.move(context.parameters.get("id") ?? "", to: body.position, by: who))
        }
        router.get(RouterPath(HubPaths.search)) { request, _ -> Response in
            let kind = try request.uri.queryParameters.get("kind").map { text in
                guard let kind = LibraryItem.Kind(rawValue: String(text)) else {
                    throw HubError.badRequest("?kind= is recommendation, template or share, not \(text.prefix(40))")
                }
                return kind
            }
            let limit = try QueryNumber.read(request, "limit", default: 50, in: 1...200)
            let words = request.uri.queryParameters.get("q") ?? ""
            return JSONBody.response(LibraryPage(items: try await library.search(words, kind: kind, limit: Int(limit))))
        }
        router.get(RouterPath(HubPaths.library + "/:id")) { _, context -> Response in
            JSONBody.response(try await library.item(context.parameters.get("id") ?? ""))
        }
        members.delete(RouterPath(HubPaths.library + "/:id")) { request, context -> Response in
            let who = try context.who
            try await library.remove(context.parameters.get("id") ?? "", by: who)
            return Response(status: .noContent)
        }
        // Pictures answer HEAD too: chat apps ask before they show a link's preview.
        for method in [HTTPRequest.Method.get, .head] {
            router.on(RouterPath(HubPaths.library + "/:id/picture"), method: method) { request, context -> Response in
                try await picture(context.parameters.get("id") ?? "", base: false, request)
            }
            router.on(RouterPath(HubPaths.library + "/:id/base"), method: method) { request, context -> Response in
                try await picture(context.parameters.get("id") ?? "", base: true, request)
            }
            // A shared meme's public link: /s/ID.jpg (the extension is for chat apps; any is taken).
            router.on(RouterPath(HubPaths.shareLinks + "/:file"), method: method) { request, context -> Response in
                let file = context.parameters.get("file") ?? ""
                let parts = file.split(separator: ".", maxSplits: 1).map(String.init)
                let id = parts.first ?? ""
                // A link whose extension is not the picture's (/s/ID.png for a JPEG) is sent
                // to the one that is: a chat app trusts the extension as much as the type.
                if parts.count == 2, let right = LibraryRules.contentTypes[try await library.pictureInfo(id, base: false).contentType],
                   parts[1].lowercased() != right, !(right == "jpg" && parts[1].lowercased() == "jpeg") {
                    return Response(status: .permanentRedirect, headers: [.location: HubPaths.shareLinks + "/" + id + "." + right])
                }
                return try await picture(id, base: false, request)
            }
        }
    }

    /// Public, cached for five minutes (a link taken down is gone from caches soon after),
    /// never sniffed as anything but the picture it says it is. The ETag is the picture's
    /// hash, so a cache asks again cheaply; HEAD and a match read no bytes.
    func picture(_ id: String, base: Bool, _ request: Request) async throws -> Response {
        let info = try await library.pictureInfo(id, base: base)
        let tag = "\"" + info.hash + "\""
        var headers: HTTPFields = [.cacheControl: "public, max-age=300", .eTag: tag, .contentType: info.contentType]
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        headers[.init("Access-Control-Allow-Origin")!] = "*"
        if EntityTag.matches(request.headers, tag) { return Response(status: .notModified, headers: headers) }
        if request.method == .head {
            headers[.contentLength] = String(info.size)
            return Response(status: .ok, headers: headers)
        }
        var response = JSONBody.bytes(try await library.bytes(info.hash), type: info.contentType, cache: "public, max-age=300")
        for field in headers { response.headers[field.name] = field.value }
        return response
    }
}
