import Foundation
import HTTPTypes

/// A browser's session token, carried in a cookie: the same session rows a device's bearer
/// token names (listed by `memery account`, revoked the same way), but HttpOnly, so no script
/// on a page ever reads it, and `SameSite=Strict`, so no other site's page sends it. Over
/// https (`--public-url https://…`) it is `Secure` and named `__Host-…`, which browsers bind
/// to this host alone.
struct SessionCookie: Sendable {
    static let secureName = "__Host-memery-session"
    static let plainName = "memery-session"
    /// 400 days, the longest a browser keeps a cookie: the session row decides how long it lasts.
    static let maxAge = 400 * 86_400
    let secure: Bool

    var name: String { secure ? Self.secureName : Self.plainName }

    func setting(_ token: String) -> String {
        "\(name)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Self.maxAge)\(secure ? "; Secure" : "")"
    }

    var clearing: String { "\(name)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0\(secure ? "; Secure" : "")" }

    /// The token a request's cookies carry, under either name; nil without one.
    static func token(in headers: HTTPFields) -> String? {
        for line in headers[values: .cookie] {
            for pair in line.split(separator: ";") {
                let field = pair.trimmingCharacters(in: .whitespaces)
                guard let equals = field.firstIndex(of: "=") else { continue }
                let key = field[..<equals]
                if key == secureName || key == plainName { return String(field[field.index(after: equals)...]) }
            }
        }
        return nil
    }
}
