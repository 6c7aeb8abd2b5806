import ServiceLifecycle
import Synchronization

/// Tells every hub that a user's position moved (the NOTIFY of schema step 10) after a push
/// committed, without the push's answer waiting for it: the notice is a statement of its own
/// (it must not be in the push's transaction, docs/hub.md says why), and a page's edit was
/// waiting one more round trip to PostgreSQL for it. Pushes of one user that commit while
/// their notice is being sent are told by one more, sent after it: the notice reads the
/// position when it runs, so it names the newest, and at least one notice starts after each
/// push committed. At most one task per user sends, so pushes that commit while a notice is
/// sent share the next one instead of costing one each. A hub that stops sends the notices
/// under way first (`NoticesOnStop`, up to 5 s); one left unsent (the hub killed) costs
/// latency only: watchers read the position every 5 s, working copies every 30 s.
final class PositionNotices: Sendable {
    /// For each user being told: whether another push committed since their notice began.
    private let sending = Mutex<[Int64: Bool]>([:])
    private let send: @Sendable (Int64) async -> Void

    init(send: @escaping @Sendable (Int64) async -> Void) { self.send = send }

    /// A push of `user`'s committed.
    func pushed(_ user: Int64) {
        let start = sending.withLock { sending -> Bool in
            if sending[user] != nil {
                sending[user] = true
                return false
            }
            sending[user] = false
            return true
        }
        if start { Task { await tell(user) } }
    }

    private func tell(_ user: Int64) async {
        while true {
            await send(user)
            let again = sending.withLock { sending -> Bool in
                if sending[user] == true {
                    sending[user] = false
                    return true
                }
                sending[user] = nil
                return false
            }
            if !again { return }
        }
    }

    /// Users whose notice is being sent.
    var underWay: Int { sending.withLock { $0.count } }

    /// Returns once no notice is under way, or after `limit`, or when cancelled.
    func drained(within limit: Duration) async {
        let end = ContinuousClock.now + limit
        while underWay > 0, ContinuousClock.now < end, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// Sends the notices of a stopping hub's last pushes before its database client closes:
/// services stop in the reverse of their order, so this one, placed after the client and
/// before the server, stops once the server has answered its last request. (A working
/// copy's follower is no service: a push it makes after this, rare since a copy's edits
/// are pushed by their own request, is found by the other hubs' 5 s reads.)
struct NoticesOnStop: Service {
    let notices: PositionNotices

    func run() async throws {
        try? await gracefulShutdown()
        await notices.drained(within: .seconds(5))
    }
}
