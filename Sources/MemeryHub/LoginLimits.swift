import Foundation
import HTTPTypes
import Logging
import PostgresNIO

/// How many failed logins an account and an address may have in a window, counted in
/// PostgreSQL so that the limit holds however many hubs share it.
struct LoginLimits: Sendable {
    /// Failures for one account from one address: a person mistyping, or one guesser.
    var perUserFromAddress = 10
    /// For one account from anywhere: high enough that guessing from one address cannot
    /// lock the owner out, low enough to stop guessing spread over many.
    var perUser = 100
    var perAddress = 50
    var window: TimeInterval = 15 * 60
    let client: PostgresClient
    let logger: Logger

    /// An attempt under way: its rows, deleted when it succeeds.
    struct Attempt { var ids: [Int64] }

    /// Records the attempt, then counts it with the others in the window: one over the
    /// limit is refused (and stays counted). Recording first means guesses sent at the same
    /// moment cannot all slip under the limit.
    func begin(user: String, address: String) async throws -> Attempt {
        let name = user.lowercased()
        let pairKey = "pair:\(name)@\(address)", userKey = "user:" + name, addressKey = "address:" + address
        var ids = [Int64](), accountRow: Int64?
        for try await (id, key) in try await client.query("""
            INSERT INTO login_failures (key) VALUES (\(pairKey)), (\(userKey)), (\(addressKey)) RETURNING id, key
            """, logger: logger).decode((Int64, String).self) {
            ids.append(id)
            if key == userKey { accountRow = id }
        }
        let rows = try await client.query("""
            SELECT count(*) FILTER (WHERE key = \(pairKey)), count(*) FILTER (WHERE key = \(userKey)), count(*) FILTER (WHERE key = \(addressKey)),
                   coalesce(extract(epoch FROM min(at) + make_interval(secs => \(window)) - now()), 0)::bigint
            FROM login_failures WHERE key IN (\(pairKey), \(userKey), \(addressKey)) AND at > now() - make_interval(secs => \(window))
            """, logger: logger)
        for try await (fromHere, forUser, forAddress, wait) in rows.decode((Int64, Int64, Int64, Int64).self) {
            let minutes = max(1, (wait + 59) / 60)
            let retry = "try again in \(minutes) minute\(minutes == 1 ? "" : "s")"
            let refusal: String? = forAddress > perAddress ? "too many failed logins from this address: \(retry)"
                : fromHere > perUserFromAddress || forUser > perUser ? "too many failed logins for \(user.prefix(40)): \(retry)" : nil
            if let refusal {
                // A refused attempt never reached a password, so it counts against the
                // address (which goes on hammering) but not against the account: guesses
                // from one address cannot add up to the account's own limit.
                if let accountRow {
                    try await client.query("DELETE FROM login_failures WHERE id = \(accountRow)", logger: logger)
                }
                throw HubError(.tooManyRequests, "too-many-attempts", refusal, headers: [.retryAfter: String(max(1, wait))])
            }
        }
        try await client.query("DELETE FROM login_failures WHERE at < now() - interval '1 day'", logger: logger)
        return Attempt(ids: ids)
    }

    /// The password was right: the attempt does not count against anyone.
    func succeeded(_ attempt: Attempt) async throws {
        try await client.query("DELETE FROM login_failures WHERE id = ANY(\(attempt.ids)::bigint[])", logger: logger)
    }
}
