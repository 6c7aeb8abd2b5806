import Foundation
import HTTPTypes
import Hummingbird
import MemeryHubProtocol

/// `/v1/browser/session`: signing in and out from the editor's pages. A sign-in is a login
/// like a device's (the same limits, the same session rows, shown in `memery account` as
/// "browser: …"), but its token goes into the HttpOnly cookie and never into the answer.
struct BrowserSessionRoutes: Sendable {
    let accounts: Accounts
    let cookie: SessionCookie

    struct SignIn: Decodable {
        var user: String
        var password: String
    }

    func add(to router: Router<HubContext>) {
        let path = RouterPath(HubPaths.browserSession)
        router.post(path) { request, context -> Response in
            let body = try await JSONBody.decode(SignIn.self, from: request, context: context)
            let device = "browser: " + Self.browserName(request.headers[.userAgent])
            let login = try await accounts.logIn(LoginRequest(user: body.user, password: body.password, device: device),
                                                 from: accounts.address(request, context))
            // Signed in again from a browser already signed in: its earlier session ends, so
            // the devices list shows each browser once.
            if request.headers[.authorization] == nil, let earlier = try? await accounts.signedIn(request.headers) {
                try? await accounts.revoke(earlier.session, of: earlier)
            }
            var response = JSONBody.response(BrowserSessionAnswer(user: login.user, role: login.role, session: login.session), status: .created)
            response.headers[.setCookie] = cookie.setting(login.token)
            return response
        }
        router.get(path) { request, _ -> Response in
            let who = try await accounts.signedIn(request.headers)
            return JSONBody.response(BrowserSessionAnswer(user: who.name, role: who.role, session: who.session))
        }
        // Signing out ends this browser's session on the hub and forgets the cookie; signed
        // out already, it only forgets the cookie.
        router.delete(path) { request, _ -> Response in
            if let who = try? await accounts.signedIn(request.headers) { try await accounts.revoke(who.session, of: who) }
            var response = Response(status: .noContent)
            response.headers[.setCookie] = cookie.clearing
            return response
        }
    }

    /// What `memery account` lists for a browser: its name and system from the User-Agent,
    /// as a person would say them ("Chrome on Android"), or "a browser".
    static func browserName(_ agent: String?) -> String {
        guard let agent else { return "a browser" }
        let browsers = [("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari")]
        let systems = [("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"), ("Mac OS X", "macOS"),
                       ("CrOS", "ChromeOS"), ("Linux", "Linux")]
        let browser = browsers.first { agent.contains($0.0) }?.1 ?? "a browser"
        guard let system = systems.first(where: { agent.contains($0.0) })?.1 else { return browser }
        return "\(browser) on \(system)"
    }
}
