import HTTPTypes
import Hummingbird

/// A request that changes something and comes from a browser must come from the hub's own
/// pages: its Origin (or, without one, its Sec-Fetch-Site) must name this hub, or it is
/// refused before any route runs. The session cookie is `SameSite=Strict` already; this is
/// the second lock (RFC 6454 origins; OWASP's CSRF sheet). It also stops another site from
/// signing a visitor in to an account of its choosing. A program (`memery sync`) sends
/// neither header and a bearer token, and passes; a request that carries only the cookie
/// must prove its origin. Allowed: the `--public-url`'s origin; without one, http or https
/// with the Host the request named (a proxy that passes the Host through: Caddy and HAProxy
/// do; nginx needs `proxy_set_header Host $host`, or the hub told `--public-url`).
struct SameOriginChanges<Context: RequestContext>: RouterMiddleware {
    let publicOrigin: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard ![.get, .head, .options].contains(request.method) else { return try await next(request, context) }
        let origin = request.headers[.origin]?.lowercased()
        let site = request.headers[values: HTTPField.Name("Sec-Fetch-Site")!].first?.lowercased()
        let sameOrigin = origin.map { allowed(request).contains($0) }
        let sameSite = site.map { $0 == "same-origin" || $0 == "none" }
        let cookieOnly = request.headers[.authorization] == nil && SessionCookie.present(in: request.headers)
        if sameOrigin == false || (origin == nil && sameSite == false) || (cookieOnly && sameOrigin != true && sameSite != true) {
            throw HubError(.forbidden, "cross-origin", "a change made from a browser must come from this hub's own page (Origin \(origin ?? "missing")): nothing was done")
        }
        return try await next(request, context)
    }

    /// With `--public-url`, its origin alone: a page served over plain http on the same host,
    /// or a name rebound to this address, is not the hub's.
    func allowed(_ request: Request) -> [String] {
        if let publicOrigin { return [publicOrigin] }
        guard let host = request.head.authority?.lowercased() else { return [] }
        return ["http://\(host)", "https://\(host)"]
    }
}
