import Foundation
import HTTPTypes
import Logging
import PostgresNIO

/// How many failed logins an account and an address may have in a window, counted in
/// PostgreSQL so that the limit holds however many hubs share it.
struct LoginLimits: Sendable {
    var perUser = 10
    var perAddress = 50
    var window: TimeInterval = 15 * 60
    let client: PostgresClient
    let logger: Logger

    func check(userKey: String, addressKey: String, user: String) async throws {
        let seconds = Int64(window)
        let rows = try await client.query("""
            SELECT count(*) FILTER (WHERE key = \(userKey)), count(*) FILTER (WHERE key = \(addressKey)),
                   coalesce(extract(epoch FROM min(at) + make_interval(secs => \(Double(window))) - now()), 0)::bigint
            FROM login_failures WHERE key IN (\(userKey), \(addressKey)) AND at > now() - make_interval(secs => \(Double(seconds)))
            """, logger: logger)
        for try await (forUser, forAddress, wait) in rows.decode((Int64, Int64, Int64).self) {
            let minutes = max(1, (wait + 59) / 60)
            if forUser >= perUser {
                throw HubError(.tooManyRequests, "too-many-attempts",
                               "too many failed logins for \(user.prefix(40)): try again in \(minutes) minute\(minutes == 1 ? "" : "s")",
                               headers: [.retryAfter: String(max(1, wait))])
            }
            if forAddress >= perAddress {
                throw HubError(.tooManyRequests, "too-many-attempts",
                               "too many failed logins from this address: try again in \(minutes) minute\(minutes == 1 ? "" : "s")",
                               headers: [.retryAfter: String(max(1, wait))])
            }
        }
    }

    func fail(userKey: String, addressKey: String) async throws {
        try await client.query("INSERT INTO login_failures (key) VALUES (\(userKey)), (\(addressKey))", logger: logger)
        try await client.query("DELETE FROM login_failures WHERE at < now() - interval '1 day'", logger: logger)
    }
}
