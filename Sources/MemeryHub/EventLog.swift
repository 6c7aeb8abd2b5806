import Foundation
import HTTPTypes
import Logging
import MemeryCore
import MemeryHubProtocol
import PostgresNIO

/// Each user's events in the hub's order: pushes that are harmless to repeat, pulls by cursor.
/// Each checks its own session: a push is one statement (a call of `hub_push_checked`), a pull
/// one (three when its page is full), because every round trip to the database cost the
/// hub about as much as the work done there (make bench-hub, docs/hub.md).
struct EventLog: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// Where pull pages are read when it has replayed far enough (`--replica-database`).
    var replica: ReplicaReads?
    /// The notices of pushes, sent after their answers.
    let notices: PositionNotices

    init(client: PostgresClient, logger: Logger, replica: ReplicaReads? = nil) {
        self.client = client
        self.logger = logger
        self.replica = replica
        // A notice that hangs (a statement handed a connection just lost) would hold back the
        // user's next ones: given up after 5 s; the watchers' keep-alive reads find the push.
        notices = PositionNotices { user in
            try? await Deadline.abandoning(after: .seconds(5), failing: CancellationError()) {
                await Self.notifyWatchers(user, client: client, logger: logger)
            }
        }
    }
    /// The most events one pull answers (an append is never split, so a page may hold a few more).
    static let pageLimit = 2_000
    static let pushLimit = 10_000
    /// How far ahead of the hub's clock an event's time may be before the machine is told (ms).
    static let clockTolerance: Int64 = 5 * 60 * 1000

    /// A push by the holder of the session `tokenHash` names.
    func push(_ request: PushRequest, session tokenHash: Data) async throws -> PushAnswer {
        guard request.events.count <= Self.pushLimit else {
            throw HubError.badRequest("a push holds at most \(Self.pushLimit) events, this one \(request.events.count): send them in parts")
        }
        guard !request.key.isEmpty, request.key.count <= 100, !request.key.contains("\u{0}") else {
            throw HubError.badRequest("a push's key has 1 to 100 characters, none of them NUL")
        }
        guard (request.history?.count ?? 0) <= PushRequest.historyLimit else {
            throw HubError.badRequest("a push names at most \(PushRequest.historyLimit) earlier checkpoints, this one \(request.history?.count ?? 0)")
        }
        try Self.check(request.events)
        // A memery from before checkpoints sends no `resending` and would not understand
        // `lacking`: its parents are not asked for (as before), so it loses nothing.
        // The session, the pictures' grants, what the push builds on, and the push: one call
        // of `hub_push_checked`, one transaction (schema step 5).
        let statement = PushEvents(tokenHash: tokenHash, key: request.key, checkpoint: request.checkpoint, resending: request.resending ?? true,
                                   events: request.events)
        if let ask = request.pull {
            guard ask.after >= 0, (1...Self.pageLimit).contains(ask.limit) else {
                throw HubError.badRequest("a push's pull asks after a position of 0 or more, for 1 to \(Self.pageLimit) events")
            }
        }
        do {
            var answer = try await push(statement, request)
            // The page the machine would ask for next, read after the push committed: one
            // round trip for a sync that pushes. Not with `lacking`: the machine sends again first.
            if let ask = request.pull, answer.lacking == nil {
                // The push is stored: a pull that fails now must not turn its answer into an
                // error. Without `pulled` the machine pulls on its own.
                do {
                    answer.pulled = try await pull(after: ask.after, at: ask.at, limit: ask.limit, session: tokenHash, mayUseReplica: false)
                } catch {
                    logger.notice("the pull a push asked for failed; answered without it", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
            return answer
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "MQ001" {
            // hub_push's quota check: the detail is "used adding quota".
            let numbers = (error.serverInfo?[.detail] ?? "").split(separator: " ").compactMap { Int64($0) }
            throw HubError.overQuota(used: numbers.first ?? 0, adding: numbers.dropFirst().first ?? 0, quota: numbers.last ?? 0)
        }
    }

    /// Purges sent ahead of the push that carries their notes, so that a machine past its
    /// quota frees room first (the notes, when they come, find the work done). Under the
    /// user's row lock, as a push carries out a purge.
    func purge(_ creations: [UUID], of who: SignedIn) async throws -> Int {
        guard creations.count <= 1000 else { throw HubError.badRequest("purge at most 1000 creations at once, not \(creations.count)") }
        return try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT 1 FROM users WHERE id = \(who.user) FOR UPDATE", logger: logger)
            var emptied = 0
            for creation in Set(creations) {
                for try await count in try await connection.query("SELECT hub_purge(\(who.user), \(creation))", logger: logger).decode(Int32.self) {
                    emptied += Int(count)
                }
            }
            return emptied
        }
    }

    private func push(_ statement: PushEvents, _ request: PushRequest) async throws -> PushAnswer {
        for try await row in try await client.execute(statement, logger: logger) {
            if let missing = row.missing {
                throw HubError(.conflict, "missing-pictures",
                               "\(missing.count) picture\(missing.count == 1 ? "" : "s") the events use must be uploaded first (PUT /v1/blobs/HASH)",
                               missing: missing)
            }
            if let lacking = row.lacking {
                let common = try await newestHeld(request.history ?? [], user: row.user)
                logger.notice("a push builds on events the hub lacks: the machine will send again what came after the last point both hold",
                              metadata: ["lacking": "\(lacking)", "common": "\(common?.uuidString.lowercased() ?? "none")"])
                return PushAnswer(accepted: 0, duplicates: 0, position: row.position, behind: true, lacking: lacking, common: common)
            }
            if row.accepted > 0 { notices.pushed(row.user) }
            // Receipts are for retries within days; old ones go now and then, not on every push.
            if !row.replayed, Int.random(in: 0..<100) == 0 {
                try await client.query("DELETE FROM push_receipts WHERE user_id = \(row.user) AND created_at < now() - interval '7 days'", logger: logger)
            }
            // Times come from the machines' clocks: one far ahead is kept (it is what the
            // machine saw) and the machine is told.
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let ahead = (request.events.map(\.time).max() ?? now) - now
            return PushAnswer(accepted: row.accepted, duplicates: row.duplicates, position: row.position, behind: row.before > request.seen,
                              replayed: row.replayed, clockAhead: ahead > Self.clockTolerance ? ahead : nil)
        }
        throw HubError.unauthorized
    }

    /// Tells every hub's watchers of `user` that their position moved (schema step 9). The
    /// push is stored whatever happens here: a failure is logged, and the watchers find the
    /// push at their next keep-alive.
    private static func notifyWatchers(_ user: Int64, client: PostgresClient, logger: Logger) async {
        do {
            try await client.query("SELECT hub_notify_position(\(user))", logger: logger)
        } catch {
            logger.notice("the watchers were not told of a push", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    /// The first of `history` (a machine's checkpoints, newest first) the hub holds. A row
    /// emptied by a purge counts: the event was there.
    private func newestHeld(_ history: [UUID], user: Int64) async throws -> UUID? {
        let candidates = Array(history.prefix(PushRequest.historyLimit))
        guard !candidates.isEmpty else { return nil }
        var held = Set<UUID>()
        for try await id in try await client.query("""
            SELECT id FROM events WHERE user_id = \(user) AND id = ANY (\(candidates)::uuid[])
            """, logger: logger).decode(UUID.self) {
            held.insert(id)
        }
        return candidates.first(where: held.contains)
    }

    /// Refuses a push that is not whole, intact appends: each event as its writer hashed it,
    /// the events of one append side by side.
    static func check(_ events: [HubEvent]) throws {
        var finished = Set<UUID>(), ids = Set<UUID>()
        var current: UUID?
        for event in events {
            guard ids.insert(event.id).inserted else {
                throw HubError.badRequest("event \(event.id.uuidString.lowercased()) is in the push twice")
            }
            guard (1...1_000_000).contains(event.schemaVersion), !event.type.isEmpty,
                  !event.type.contains("\u{0}"), !event.payload.contains("\u{0}") else {
                throw HubError.badRequest("event \(event.id.uuidString.lowercased()) has a type, version or payload no store writes")
            }
            guard event.isIntact else {
                throw HubError.badRequest("event \(event.id.uuidString.lowercased()) does not match its checksum: it changed on the way; nothing was stored")
            }
            guard event.payload.utf8.count <= 16 << 20, event.type.count <= 100, event.blobs.count <= 1_000 else {
                throw HubError.badRequest("event \(event.id.uuidString.lowercased()) is larger than the hub takes")
            }
            guard event.blobs.allSatisfy(isPictureHash) else {
                throw HubError.badRequest("event \(event.id.uuidString.lowercased()) names a picture that is not a SHA-256 in hex")
            }
            try admit(event)
            if event.batch != current {
                if let current { finished.insert(current) }
                guard !finished.contains(event.batch) else {
                    throw HubError.badRequest("the events of append \(event.batch.uuidString.lowercased()) are not side by side")
                }
                current = event.batch
            }
        }
    }


    /// Refuses (422) an event the engine could not read: another machine of the user would
    /// have to store it, and one it cannot read would stop that machine's syncs. The
    /// pictures its payload uses must travel with it.
    static func admit(_ event: HubEvent) throws {
        let payload = Data(event.payload.utf8)
        let id = event.id.uuidString.lowercased()
        switch EventAdmission.judge(type: event.type, schemaVersion: event.schemaVersion, payload: payload, time: event.time) {
        case .readable: break
        case .newer(let why):
            throw HubError(.unprocessableContent, "unreadable-event",
                           "event \(id) (\(event.type.prefix(100))): \(why): this hub runs an older memery than the machine; update the hub. Nothing of this push was stored")
        case .unreadable(let why):
            throw HubError(.unprocessableContent, "unreadable-event",
                           "event \(id) (\(event.type.prefix(100))) cannot be read: \(why). Nothing of this push was stored")
        }
        if EventAdmission.namesPicturesItUses(event.type) {
            let listed = Set(event.blobs)
            if let unlisted = EventAdmission.pictures(in: payload).first(where: { !listed.contains($0) }) {
                throw HubError(.unprocessableContent, "unreadable-event",
                               "event \(id) uses picture \(unlisted.prefix(12))… without naming it in its blobs. Nothing of this push was stored")
            }
        }
    }

    /// A page of the events of the holder of the session `tokenHash` names, after `cursor`;
    /// `expected` is the event the machine last pulled, at the cursor. `mayUseReplica`: false
    /// for the page a push's answer carries (no replica has that push yet).
    func pull(after cursor: Int64, at expected: UUID?, limit: Int, session tokenHash: Data, mayUseReplica: Bool = true) async throws -> PullAnswer {
        guard cursor >= 0, (1...Self.pageLimit).contains(limit) else {
            throw HubError.badRequest("a pull asks after a position of 0 or more, for 1 to \(Self.pageLimit) events")
        }
        if mayUseReplica, let replica, replica.isAvailable {
            // The primary says who asks, and how far (to which event, and past how many
            // purges) a replica must have replayed for them: the same event there, so a
            // replica of another history (a restored primary's former standby) is never read
            // as this one, and every purge, which empties events without moving the position.
            var asker: SessionPosition.Row?
            for try await row in try await client.execute(SessionPosition(tokenHash: tokenHash), logger: logger) { asker = row }
            guard let asker else { throw HubError.unauthorized }
            let logger = logger
            if asker.position > cursor, let answer = await replica.answer("pull", patience: .seconds(3), { replica in
                try await Self.userPage(asker.user, after: cursor, at: expected, limit: limit, reaching: (asker.position, asker.newest, asker.purges),
                                        on: replica, logger: logger)
            }) {
                return answer
            }
            // The session is checked: the primary answers by the user.
            guard let answer = try await Self.userPage(asker.user, after: cursor, at: expected, limit: limit, reaching: nil, on: client, logger: logger) else {
                throw HubError.unauthorized
            }
            return answer
        }
        var user: Int64?, atCursor: UUID?
        var events = [HubEvent]()
        for try await row in try await client.execute(PullPage(tokenHash: tokenHash, cursor: cursor, limit: Int64(limit)), logger: logger) {
            user = row.user
            atCursor = row.atCursor
            if let event = row.event { events.append(event) }
        }
        guard let user else { throw HubError.unauthorized }
        return try await Self.finish(events, of: user, after: cursor, at: expected, found: atCursor, limit: limit, newest: nil, on: client, logger: logger)
    }

    /// A page by the user's id on `client`; nil when `reaching` is given and `client` has not
    /// replayed that far, to that same event, and that many purges (a replica behind, or of
    /// another history).
    private static func userPage(_ user: Int64, after cursor: Int64, at expected: UUID?, limit: Int,
                                 reaching: (position: Int64, event: UUID?, purges: Int64)?,
                                 on client: PostgresClient, logger: Logger) async throws -> PullAnswer? {
        var newest: Int64?, atCursor: UUID?, atReach: UUID?
        var events = [HubEvent]()
        let page = UserPullPage(user: user, cursor: cursor, limit: Int64(limit), reach: reaching?.position ?? 0, purges: reaching?.purges ?? 0)
        for try await row in try await client.execute(page, logger: logger) {
            newest = row.newest
            atCursor = row.atCursor
            atReach = row.atReach
            if let event = row.event { events.append(event) }
        }
        guard let newest else { return nil }
        if let reaching, atReach != reaching.event { return nil }
        return try await finish(events, of: user, after: cursor, at: expected, found: atCursor, limit: limit, newest: newest, on: client, logger: logger)
    }

    /// A page's answer from its first rows (`found`: the event at the cursor there): a
    /// restart when the machine's last event is not at its cursor, else the page with the
    /// rest of an append it ended inside, read from the same database. `newest`: the user's
    /// newest position read with the page (else it is read after).
    private static func finish(_ first: [HubEvent], of user: Int64, after cursor: Int64, at expected: UUID?, found atCursor: UUID?, limit: Int,
                               newest known: Int64?, on client: PostgresClient, logger: Logger) async throws -> PullAnswer {
        var events = first
        if let expected, cursor > 0, atCursor != expected { return PullAnswer(events: [], cursor: cursor, more: false, restart: true) }
        // A short page is everything there was (an append becomes visible whole): no more to ask.
        guard events.count == limit else { return PullAnswer(events: events, cursor: events.last?.position ?? cursor, more: false) }
        if let last = events.last, let end = last.position {
            // An append is never split between pages: the rest of it follows at once.
            var next = end + 1
            for try await event in try await client.execute(
                RestOfAppend(user: user, batch: last.batch, after: end, through: end + Int64(Self.pushLimit)), logger: logger) {
                guard event.position == next else { break }
                events.append(event)
                next += 1
            }
        }
        let end = events.last?.position ?? cursor
        var newest: Int64 = known ?? 0
        if known == nil {
            for try await value in try await client.execute(NewestPosition(user: user), logger: logger) { newest = value }
        }
        return PullAnswer(events: events, cursor: end, more: newest > end)
    }
}
