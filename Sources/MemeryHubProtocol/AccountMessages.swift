import Foundation

public struct SignUpRequest: Codable, Sendable {
    public var user: String
    public var password: String
    public init(user: String, password: String) { self.user = user; self.password = password }
}

public struct LoginRequest: Codable, Sendable {
    public var user: String
    public var password: String
    /// What the person calls this machine (its host name by default), shown in `memery account`.
    public var device: String
    public init(user: String, password: String, device: String) { self.user = user; self.password = password; self.device = device }
}

/// A device's session: the token is in the answer to its login only, never again.
public struct LoginAnswer: Codable, Sendable {
    public var user: String
    public var role: String
    public var session: UUID
    public var token: String
    public init(user: String, role: String, session: UUID, token: String) {
        self.user = user; self.role = role; self.session = session; self.token = token
    }
}

public struct DeviceSession: Codable, Sendable, Equatable {
    public var id: UUID
    public var device: String
    /// Milliseconds since the Unix epoch.
    public var created: Int64
    public var lastSeen: Int64
    /// True for the session that asked.
    public var current: Bool
    public init(id: UUID, device: String, created: Int64, lastSeen: Int64, current: Bool) {
        self.id = id; self.device = device; self.created = created; self.lastSeen = lastSeen; self.current = current
    }
}

public struct AccountAnswer: Codable, Sendable {
    public var user: String
    public var role: String
    public var devices: [DeviceSession]
    /// The user's newest hub position.
    public var position: Int64
    public init(user: String, role: String, devices: [DeviceSession], position: Int64) {
        self.user = user; self.role = role; self.devices = devices; self.position = position
    }
}

public struct PasswordChange: Codable, Sendable {
    public var old: String
    public var new: String
    public init(old: String, new: String) { self.old = old; self.new = new }
}

public struct AccountDeletion: Codable, Sendable {
    /// The password again: deleting is for good.
    public var password: String
    public init(password: String) { self.password = password }
}

/// Names and passwords the hub accepts, checked alike by the hub and the client.
public enum AccountRules {
    public static let passwordLength = 8...200
    /// Letters, digits, dot, dash and underscore, 2 to 40 of them, starting with a letter or digit.
    public static func problem(withUser name: String) -> String? {
        guard (2...40).contains(name.count) else { return "a user name has 2 to 40 characters, this one \(name.count)" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard name.allSatisfy(allowed.contains) else {
            // Named, since "letters" alone reads as if ë were one of them.
            let first = name.first { !allowed.contains($0) }.map { " (not \"\($0)\")" } ?? ""
            return "a user name has only the letters a to z and A to Z without accents, digits, '.', '-' and '_'\(first)"
        }
        guard let first = name.first, first.isLetter || first.isNumber else { return "a user name starts with a letter or digit" }
        return nil
    }

    public static func problem(withPassword password: String) -> String? {
        passwordLength.contains(password.count) ? nil : "a password has 8 to 200 characters"
    }
}

/// A browser's session (`/v1/browser/session`): its token is in an HttpOnly cookie the page's
/// script never reads, so the answer names only who and which session.
public struct BrowserSessionAnswer: Codable, Sendable, Equatable {
    public var user: String
    public var role: String
    public var session: UUID
    public init(user: String, role: String, session: UUID) { self.user = user; self.role = role; self.session = session }
}
