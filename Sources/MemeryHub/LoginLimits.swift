import Foundation
import HTTPTypes

/// Every password check is counted, in `LoginRecords` (PostgreSQL in service, so that the
/// limits hold however many hubs share it), and no limit can be turned against someone else:
/// - one account from one address (a person mistyping, or one guesser): past
///   `perUserFromAddress` failures the attempts are refused until the failures age out of
///   the window (refused ones count too, up to twice the limit: no more rows than that);
/// - one account from anywhere, and one address at any accounts: past their limits every
///   attempt is slowed (`slowDown`, growing to `slowest`), never refused, so a guesser
///   cannot lock the owner out, nor one client everyone behind a shared address;
/// - sign-ups, per address.
/// bcrypt itself is bounded per address and overall by `PasswordQueue`.
struct LoginLimits: Sendable {
    var perUserFromAddress = 10
    var perUser = 100
    var perAddress = 50
    var signUpsPerAddress = 20
    var window: TimeInterval = 15 * 60
    var slowDown: Duration = .milliseconds(500)
    var slowest: Duration = .seconds(5)
    let records: any LoginRecords

    /// An attempt under way: its rows, deleted when it succeeds, and how long to slow it.
    struct Attempt: Sendable {
        var ids: [Int64]
        var wait: Duration = .zero
    }

    /// Records the attempt, then counts it with the others in the window. Recording first
    /// means guesses sent at the same moment cannot all slip under the limit. `user` is nil
    /// for a name no account can have: the attempt still counts against the address.
    func begin(user: String?, address: String) async throws -> Attempt {
        let name = user?.lowercased()
        let pairKey = name.map { "pair:\($0)@\(address)" } ?? "", userKey = name.map { "user:" + $0 } ?? "", addressKey = "address:" + address
        let keys = [pairKey, userKey, addressKey].filter { !$0.isEmpty }
        let rows = try await records.record(keys)
        let ids = rows.map(\.id), accountRow = rows.first { $0.key == userKey }?.id
        var attempt = Attempt(ids: ids)
        let counts = try await records.counts(keys, within: window)
        let fromHere = counts[pairKey]?.count ?? 0, forUser = counts[userKey]?.count ?? 0, forAddress = counts[addressKey]?.count ?? 0
        if let user, fromHere > perUserFromAddress {
            // A refused attempt never reaches a password: it counts against this pair
            // (which goes on guessing) but not against the account; past twice the limit
            // it leaves no row at all (the refusal holds on the rows there), so a guesser
            // cannot grow the table without end.
            let drop = fromHere > 2 * perUserFromAddress ? ids : accountRow.map { [$0] } ?? []
            if !drop.isEmpty { try await records.forget(drop) }
            let wait = counts[pairKey]?.wait ?? 0
            let minutes = max(1, (wait + 59) / 60)
            throw HubError(.tooManyRequests, "too-many-attempts",
                           "too many failed logins for \(user.prefix(40)) from this address: try again in \(minutes) minute\(minutes == 1 ? "" : "s")",
                           headers: [.retryAfter: String(max(1, wait))])
        }
        let over = max(forUser - Int64(perUser), forAddress - Int64(perAddress))
        if over > 0 { attempt.wait = min(slowest, slowDown * Int(min(over, 1_000))) }
        if Int.random(in: 0..<50) == 0 { try await records.forgetOld() }
        return attempt
    }

    /// The password was right: the attempt does not count against anyone.
    func succeeded(_ attempt: Attempt) async throws {
        try await records.forget(attempt.ids)
    }

    /// Counts a sign-up from `address`; refused past `signUpsPerAddress` in the window.
    func signUp(from address: String) async throws {
        let key = "signup:" + address
        _ = try await records.record([key])
        if let count = try await records.counts([key], within: window)[key]?.count, count > signUpsPerAddress {
            throw HubError(.tooManyRequests, "too-many-attempts", "too many sign-ups from this address: try again later",
                           headers: [.retryAfter: String(Int(window))])
        }
    }
}
