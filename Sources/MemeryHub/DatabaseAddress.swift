import Foundation
import PostgresNIO

/// Where the hub's PostgreSQL is: a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`
/// address, or the same with `host=/path/to/socket/dir` for a Unix socket.
public struct DatabaseAddress: Sendable {
    var configuration: PostgresClient.Configuration
    /// Where it listens, to see whether anything does (DatabaseReachability).
    enum Endpoint: Sendable { case tcp(host: String, port: Int), socket(path: String) }
    let endpoint: Endpoint
    /// The address without its password, for messages and logs.
    public let shown: String

    /// `option`: the option that named it, for messages.
    public init(_ text: String, option: String = "--database") throws {
        guard let parts = URLComponents(string: text), ["postgres", "postgresql"].contains(parts.scheme ?? "") else {
            throw HubStartError("\(option) is not a postgres:// address: give postgres://USER:PASSWORD@HOST:PORT/DATABASE (with characters such as # ? / @ in the password percent-encoded)")
        }
        let user = parts.percentEncodedUser?.removingPercentEncoding ?? NSUserName()
        let password = parts.percentEncodedPassword?.removingPercentEncoding
        var database = String(parts.path.drop { $0 == "/" })
        if database.isEmpty { database = user }
        let query = Dictionary((parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let tls: PostgresClient.Configuration.TLS
        switch query["sslmode"] ?? "prefer" {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-full", "verify-ca": tls = .require(.makeClientConfiguration())
        case let other: throw HubStartError("\(option): sslmode=\(other) is not one of disable, prefer, require")
        }
        if let socketDirectory = query["host"], socketDirectory.hasPrefix("/") {
            let port = parts.port ?? 5432
            configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user, password: password, database: database)
            endpoint = .socket(path: "\(socketDirectory)/.s.PGSQL.\(port)")
        } else {
            guard let host = parts.host, !host.isEmpty else { throw HubStartError("\(option) names no host: give postgres://USER:PASSWORD@HOST:PORT/DATABASE") }
            configuration = .init(host: host, port: parts.port ?? 5432, username: user, password: password, database: database, tls: tls)
            endpoint = .tcp(host: host, port: parts.port ?? 5432)
        }
        // No statement of the hub's runs longer than 25 s, nor waits over 20 s for a lock:
        // PostgreSQL stops it, and the request answers 503 within its 30 s (RequestDeadline).
        // A search sets its own, shorter limit.
        configuration.options.additionalStartupParameters = [("statement_timeout", "25s"), ("lock_timeout", "20s")]
        var withoutPassword = parts
        if withoutPassword.password != nil { withoutPassword.password = "***" }
        shown = withoutPassword.string ?? "postgres://…"
    }

    /// The same address for a replica's reads: a statement stops after 10 s, and a wait for a
    /// lock (replay holds some) after 2 s. The hub stops waiting sooner (`ReplicaReads`), but
    /// postgres-nio cannot cancel a statement once sent: this is what ends one left behind.
    func forReplica() -> DatabaseAddress {
        var replica = self
        replica.configuration.options.additionalStartupParameters = [("statement_timeout", "10s"), ("lock_timeout", "2s")]
        return replica
    }
}

/// Why the hub could not start: a bad option, or a database it cannot use.
public struct HubStartError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
