import Foundation
import MemeryHTTP
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

    /// The token the request's cookies carry under this cookie's name (the other name is not
    /// this hub's: over https a plain `memery-session`, which a sibling host or a network
    /// attacker could have set, is ignored); nil without one, or with two that differ.
    func token(in headers: HTTPFields) -> String? {
        let values = Self.values(named: name, in: headers)
        guard let first = values.first, values.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    /// Whether the request carries a session cookie of either name (a browser's request).
    static func present(in headers: HTTPFields) -> Bool {
        !values(named: secureName, in: headers).isEmpty || !values(named: plainName, in: headers).isEmpty
    }

    /// Read as bytes: a cookie's name, `=` and `;` are ASCII, and walking its characters cost
    /// a hub some 60,000 instructions a request (callgrind, 2026-12-03).
    private static func values(named wanted: String, in headers: HTTPFields) -> [String] {
        var found = [String]()
        let name = Array(wanted.utf8)
        for line in headers[values: .cookie] {
            for pair in line.utf8.split(separator: UInt8(ascii: ";")) {
                let field = pair.trimmingOptionalWhitespace
                guard let equals = field.firstIndex(of: UInt8(ascii: "=")), field[..<equals].elementsEqual(name) else { continue }
                found.append(String(decoding: field[field.index(after: equals)...], as: UTF8.self))
            }
        }
        return found
    }
}
