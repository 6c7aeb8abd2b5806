import Foundation
import HTTPTypes
import Hummingbird

/// Who may talk to `memery serve`, checked before any route runs:
/// - the Host header must name this server (loopback and its port), so a page on another
///   site cannot reach it through DNS rebinding;
/// - every request carries the token: once in the URL (traded for a cookie and a redirect
///   to the same address without it), then as that cookie, or as `Authorization: Bearer`
///   for scripts;
/// - a request that changes anything must come from the editor's own origin (Origin or
///   Sec-Fetch-Site), so no other page can post to it with the person's cookie;
/// - no CORS headers are ever sent, and every answer forbids framing and sniffing.
struct AccessGuard<Context: RequestContext>: RouterMiddleware {
    let settings: ServerSettings
    let address: BoundAddress

    /// The cookie is named after the port: cookies are shared by every port of a host.
    var cookieName: String { "memery-\(address.port ?? settings.port)" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let host = request.head.authority, allowedHosts.contains(host.lowercased()) else {
            throw APIError(.forbidden, "this server answers only to \(allowedHosts.first ?? "its own address") (the Host header named something else)", kind: "wrongHost")
        }
        let fromURL = request.uri.queryParameters["token"].map(String.init)
        let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let cookie = request.cookies[cookieName]?.value
        if let fromURL, Self.same(fromURL, settings.token), request.method == .get {
            // Trade the URL's token for a cookie, and take it out of the address bar and history.
            var headers = HTTPFields()
            headers[.location] = Self.withoutToken(path: request.uri.path, query: request.uri.query)
            headers[.setCookie] = "\(cookieName)=\(settings.token); Path=/; HttpOnly; SameSite=Strict"
            return Self.hardened(Response(status: .seeOther, headers: headers))
        }
        guard let presented = bearer ?? cookie, Self.same(presented, settings.token) else {
            throw APIError(.unauthorized, "this needs the token: open the address `memery serve` printed (it ends in ?token=…), or send Authorization: Bearer TOKEN")
        }
        if Self.changes(request.method) {
            let origin = request.headers[.origin]
            let site = request.headers[values: HTTPField.Name("Sec-Fetch-Site")!].first
            let sameOrigin = origin.map { allowedOrigins.contains($0.lowercased()) }
            let sameSite = site.map { $0 == "same-origin" }
            // A browser names where a request comes from; a script with the bearer token may not.
            let fromBrowserElsewhere = sameOrigin == false || sameSite == false
            let unproven = bearer == nil && sameOrigin != true && sameSite != true
            if fromBrowserElsewhere || unproven {
                throw APIError(.forbidden, "a request that changes something must come from the editor's own page (Origin \(origin ?? "missing"))", kind: "crossOrigin")
            }
        }
        return Self.hardened(try await next(request, context))
    }

    /// The Host values that name this server.
    var allowedHosts: [String] {
        let port = address.port ?? settings.port
        var names = ["127.0.0.1", "localhost", "[::1]"]
        if !ServerSettings.isLoopback(settings.host) {
            names.insert(settings.host.contains(":") ? "[\(settings.host)]" : settings.host, at: 0)
        }
        return names.map { "\($0):\(port)" }
    }

    var allowedOrigins: [String] { allowedHosts.map { "http://\($0)" } }

    static func changes(_ method: HTTPRequest.Method) -> Bool {
        ![.get, .head, .options].contains(method)
    }

    /// Compares in time that does not depend on where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func withoutToken(path: String, query: String?) -> String {
        let kept = (query ?? "").split(separator: "&").filter { !$0.hasPrefix("token=") }
        return path + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }

    /// Headers every answer carries: no framing, no sniffing, no referrer (the token was in a URL).
    static func hardened(_ response: Response) -> Response {
        var response = response
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: mediastream:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        return response
    }
}
