import Crypto
import Foundation
public import Memery
public import MemeryHubProtocol

/// One sync of a store with its hub account: push what the hub lacks (pictures first, by
/// hash, once), then pull the rest page by page. Each page is stored whole or not at all,
/// and where the sync got is saved after each page, so a sync killed at any moment resumes;
/// a page sent or stored twice changes nothing, since every event is kept once under its id.
public final class Syncer {
    let workspace: Workspace
    let login: HubLogin
    /// HTTP to the hub for a machine; in process for a hub's own working copy.
    let transport: any SyncTransport
    var state: SyncState
    var setAside: SetAsideEvents
    public private(set) var report = SyncReport()
    var creationsUp = Set<UUID>(), creationsDown = Set<UUID>()
    /// Events per page, each way.
    var pageSize = 500
    /// Called after every page with the counts so far.
    public var progress: ((SyncReport) -> Void)?
    /// The page a push's answer carried (`PushRequest.pull`), not yet checked, the cursor it
    /// was asked after, and the events that push sent: the pull starts with it instead of
    /// asking the hub again.
    var pulledWithPush: (after: Int64, page: PullAnswer, sent: [UUID: HubEvent])?

    /// Where the state lives between syncs when not in the store's file (`KeptSyncState`).
    let kept: KeptSyncState?

    /// `keptIn`: the state is kept there between syncs instead of in the store's file.
    /// `through`: how to reach the hub, when not over HTTP as `login` says.
    public init(workspace: Workspace, login: HubLogin, keptIn kept: KeptSyncState? = nil, through transport: (any SyncTransport)? = nil) throws {
        self.workspace = workspace
        self.login = login
        self.kept = kept
        self.transport = try transport ?? HTTPSyncTransport(connection: login.connection())
        state = kept?.state(for: login) ?? SyncState.load(workspace, for: login)
        setAside = SetAsideEvents.load(workspace)
    }

    /// Where this sync got, saved after every page.
    func saveState() throws {
        if let kept { kept.keep(state) } else { try state.save(workspace) }
    }

    /// Pushes, pulls, and pushes again what settling the pull made (a name's suffix).
    public func run() async throws -> SyncReport {
        do {
            try await takeSetAside()
            // The last push asks for the first pull page in its answer: one round trip.
            try await push(askingPull: true)
            if try await pull() { try await push() }
        } catch var error as HubClientError where report.eventsUp + report.eventsDown > 0 {
            // What the pages before the failure did is kept: say so, not "nothing changed".
            error.description += " (this sync had already sent \(report.eventsUp) and stored \(report.eventsDown) events, which are kept: sync again to go on)"
            throw error
        }
        countTraffic()
        report.position = state.cursor
        report.setAside = setAside.lines(in: workspace)
        return report
    }

    /// Asks whether the store has edits this sync did not push (made here since, or while
    /// it ran): what `sync --watch` polls to send a local edit at once.
    public func editsToPush() -> @Sendable () throws -> Bool {
        let (state, workspace) = (state, workspace)
        return { state.hasLocalEvents(through: try workspace.lastSequence()) }
    }

    /// Appends set aside before that this memery can read now (it was updated) are stored.
    func takeSetAside() async throws {
        guard !setAside.entries.isEmpty else { return }
        let sorted = SetAsideEvents.sort(setAside.entries.map(\.event), in: workspace)
        guard !sorted.readable.isEmpty else { return }
        _ = try await store(sorted.readable)
        setAside.entries = sorted.setAside
        try setAside.save(workspace)
    }

    /// Stores a pulled page's readable appends; the others are set aside, and the pull goes on.
    func storeChecked(_ events: [HubEvent]) async throws -> Bool {
        let sorted = SetAsideEvents.sort(events, in: workspace)
        if !sorted.setAside.isEmpty {
            let held = Set(setAside.entries.map(\.event.id))
            setAside.entries += sorted.setAside.filter { !held.contains($0.event.id) }
            try setAside.save(workspace)
        }
        return try await store(sorted.readable)
    }

    /// `askingPull`: the last page's push asks for the first pull page in its answer.
    func push(askingPull: Bool = false) async throws {
        var purgedAhead = false
        while true {
            let (known, limit) = (state, pageSize)
            let (page, events) = try await outgoing(after: known.pushedThrough, limit: limit, skip: known.cameFromHub)
            let lacking: (what: String, common: UUID?)?
            do {
                lacking = try await send(page, events, pull: askingPull && !page.more
                                            ? PullAsk(after: state.cursor, at: state.cursorEvent, limit: pageSize) : nil)
            } catch let error as HubClientError where error.problem?.error == "over-quota" && !purgedAhead {
                // Purges made to free room travel behind what did not fit: send them ahead, once.
                purgedAhead = true
                let creations = try workspace.sync.purgesNotPushed(after: state.pushedThrough, skip: state.cameFromHub)
                guard !creations.isEmpty, (try? await hub { try await transport.purge(creations) }) != nil else { throw error }
                continue
            }
            if let lacking {
                // The hub lacks what this store sent it before (restored from an older
                // backup): send again what came after the last point both hold. Each time
                // this starts further back; a resend of everything is never told this.
                guard !state.resendingEverything else {
                    throw HubClientError("the hub still lacks \(lacking.what) after this store sent everything again: report this with `memery verify`'s output")
                }
                report.resent = true
                state.resend(after: lacking.common)
                try saveState()
                continue
            }
            state.pushed(through: page.through, last: page.events.last?.id)
            if !page.more { state.resending = nil }
            try saveState()
            FailPoints.afterPushPage()
            if !page.events.isEmpty { progress?(report) }
            if !page.more { return }
        }
    }

    /// A page of the log to push, and its events as they travel. Both are made on the
    /// workspace's reading queue: the events' checksums are hashing, which must not hold one
    /// of Swift's cooperative threads.
    func outgoing(after: UInt64, limit: Int, skip: @escaping @Sendable (UInt64) -> Bool,
                  only: Set<UUID>? = nil) async throws -> (OutgoingPage, [HubEvent]) {
        try await workspace.reading {
            let page = try $0.sync.outgoing(after: after, limit: limit, skip: skip, only: only)
            return (page, page.events.map(HubEvent.init))
        }
    }

    /// Pictures first, then the page's events (`events`, the page's as they travel); what the
    /// hub lacks, when it lacks what the push builds on (nothing was stored then). With
    /// `pull`, the page the answer carries is kept for the pull (`pulledWithPush`).
    func send(_ page: OutgoingPage, _ events: [HubEvent], checkpoint: Bool = true,
              pull: PullAsk? = nil) async throws -> (what: String, common: UUID?)? {
        // A resend that has nothing (more) to send still asks whether the hub holds its
        // checkpoint: after a pull's restart, that is where the resend starts.
        let probe = page.events.isEmpty && !page.more && checkpoint && state.resending == true && state.pushedEvent != nil
        guard !page.events.isEmpty || probe else { return nil }
        try await uploadPictures(Set(page.events.flatMap(\.blobs)).sorted())
        let request = PushRequest(key: probe ? "probe-" + UUID().uuidString.lowercased() : Self.key(events), seen: state.cursor, events: events,
                                  checkpoint: checkpoint ? state.pushedEvent : nil, resending: state.resending ?? false,
                                  history: checkpoint ? state.checkpoints.map { $0.prefix(PushRequest.historyLimit).map(\.event) } : nil,
                                  pull: pull)
        let answer: PushAnswer
        do {
            answer = try await hub { try await transport.push(request) }
        } catch let error as HubClientError where error.problem?.error == "missing-pictures" {
            // A picture uploaded long before this push was taken away as unused meanwhile
            // (the hub's grace period): upload it again, once.
            try await uploadPictures(error.problem?.missing ?? [])
            answer = try await hub { try await transport.push(request) }
        }
        if let lacking = answer.lacking { return (lacking, answer.common) }
        if let pull, let pulled = answer.pulled {
            // Checked when the pull takes it: a damaged page must fail the pull, not this
            // push, which the hub has stored and which is counted and saved below.
            pulledWithPush = (pull.after, pulled, Dictionary(events.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
        }
        if state.resending == true && !answer.replayed { report.eventsResent += page.events.count }
        if let ahead = answer.clockAhead { report.clockAheadMinutes = max(report.clockAheadMinutes ?? 0, Int(ahead / 60_000)) }
        report.eventsUp += answer.replayed ? 0 : answer.accepted
        countTraffic()
        // A creation counts as sent when the hub took some of its events (a resend of what it has counts none).
        if answer.accepted > 0 && !answer.replayed { creationsUp.formUnion(page.creations) }
        report.creationsUp = creationsUp.count
        return nil
    }

    /// `memery sync NAME...`: these creations alone, both ways. Where the store's sync got
    /// stays where it was, so the next whole sync still covers everything else (what this one
    /// moved is then skipped on either side).
    public func run(only names: [String]) async throws -> SyncReport {
        var streams = try workspace.sync.streams(named: names).streams
        var through = state.pushedThrough
        while true {
            let (known, limit, after, only) = (state, pageSize, through, streams)
            let (page, events) = try await outgoing(after: after, limit: limit, skip: known.cameFromHub, only: only)
            if try await send(page, events) != nil {
                throw HubClientError("the hub lacks what this store sent it before (restored from a backup?): run `memery sync` without names first")
            }
            if !page.events.isEmpty { progress?(report) }
            through = page.through
            if !page.more { break }
        }
        var cursor = state.cursor, cursorEvent = state.cursorEvent
        while true {
            let answer = try await pullPage(after: cursor, at: cursorEvent)
            if answer.restart {
                throw HubClientError("the hub does not have what this store last pulled from it (restored from a backup?): run `memery sync` without names first")
            }
            streams.formUnion(try workspace.sync.streams(named: names, seenIn: answer.events.map(\.syncEvent)).streams)
            // Whole appends that touch the named creations.
            let wanted = Set(answer.events.filter { streams.contains($0.stream) }.map(\.batch))
            _ = try await storeChecked(answer.events.filter { wanted.contains($0.batch) })
            try saveState()
            cursor = answer.cursor
            if let last = answer.events.last { cursorEvent = last.id }
            if !answer.more { break }
        }
        let unknown = try workspace.sync.streams(named: names).unknown
        if !unknown.isEmpty {
            throw HubClientError("no creation named \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")) here or on the hub: `memery list` shows this store's",
                                 isBadInput: true)
        }
        countTraffic()
        report.position = state.cursor
        report.setAside = setAside.lines(in: workspace)
        return report
    }

    /// The same events give the same key: a push retried after a lost answer is answered as the first was.
    static func key(_ events: [HubEvent]) -> String {
        var hasher = SHA256()
        for event in events { hasher.update(data: Data(event.id.uuidString.utf8)) }
        return "push-" + hex(hasher.finalize())
    }

    func uploadPictures(_ hashes: [String]) async throws {
        guard !hashes.isEmpty else { return }
        let missing = try await hub { try await transport.missingPictures(hashes) }
        for hash in missing {
            guard let bytes = try workspace.sync.picture(hash) else {
                throw HubClientError("picture \(hash.prefix(12))… is used by an event but missing from this store: run `memery verify`")
            }
            try await hub { try await transport.upload(picture: hash, bytes) }
            report.picturesUp += 1
            countTraffic()
        }
    }

    /// Pulls every page after the cursor; true when storing them made new local events.
    func pull() async throws -> Bool {
        var madeEvents = false
        while true {
            let page: PullAnswer
            // What is new to this store on the page: a push's page begins with the push's own
            // events, which came from here and are stored here, so they are neither checked
            // nor stored again (each would be judged, hashed and looked up for nothing). Only
            // an event exactly as it was sent is passed over; one the hub changed is checked.
            var fresh: [HubEvent]
            if let carried = pulledWithPush, carried.after == state.cursor {
                pulledWithPush = nil
                page = carried.page
                fresh = page.events.filter { pulled in
                    // The same event, as sent, but for the position the hub gave it; its payload
                    // byte for byte (String's == would take another Unicode normalisation as equal).
                    guard var sent = carried.sent[pulled.id] else { return true }
                    sent.position = pulled.position
                    return sent != pulled || !sent.payload.utf8.elementsEqual(pulled.payload.utf8)
                }
                fresh = try Self.checked(PullAnswer(events: fresh, cursor: page.cursor, more: page.more)).events
            } else {
                page = try await pullPage(after: state.cursor, at: state.cursorEvent)
                fresh = page.events
            }
            pulledWithPush = nil
            if page.restart {
                // The hub does not have what this store pulled from it: one restored from a
                // backup. Everything is pulled again, and what came after the last point
                // both hold pushed again; events either side has already are stored once.
                state.restartPull()
                report.resent = true
                try saveState()
                try await push()
                continue
            }
            if try await storeChecked(fresh) { madeEvents = true }
            state.cursor = page.cursor
            if let last = page.events.last { state.cursorEvent = last.id }
            try saveState()
            if !page.events.isEmpty { progress?(report) }
            if !page.more { return madeEvents }
        }
    }

    /// One page after `cursor`, every event checked against its checksum.
    func pullPage(after cursor: Int64, at event: UUID?) async throws -> PullAnswer {
        let page = try await hub { [pageSize] in try await transport.pull(after: cursor, at: event, limit: pageSize) }
        countTraffic()
        return try Self.checked(page)
    }

    /// A call to the hub; a refusal made in process (`HubRefusal`) is thrown as one over HTTP is.
    func hub<Answer>(_ call: () async throws -> Answer) async throws -> Answer {
        do {
            return try await call()
        } catch let refusal as HubRefusal {
            throw HubClientError(refusal.problem.message, problem: refusal.problem, status: refusal.status)
        }
    }

    /// The report's bytes: what the transport moved so far.
    func countTraffic() {
        report.bytesUp = transport.traffic.up
        report.bytesDown = transport.traffic.down
    }

    /// A pulled page whose every event matches its checksum.
    static func checked(_ page: PullAnswer) throws -> PullAnswer {
        if let damaged = page.events.first(where: { !$0.isIntact }) {
            throw HubClientError("event \(damaged.id.uuidString.lowercased()) from the hub does not match its checksum (damaged on the hub or on the way): nothing from this page was applied")
        }
        return page
    }

    /// Stores pulled events with the pictures they need, in one transaction; true when
    /// settling them made events of this store's own (a name's suffix), which go up next.
    func store(_ events: [HubEvent]) async throws -> Bool {
        guard !events.isEmpty else { return false }
        var pictures = [String: Data]()
        for hash in Set(events.flatMap(\.blobs)).sorted() where try !workspace.sync.hasPicture(hash) {
            let bytes = try await hub { try await transport.picture(hash) }
            guard hex(SHA256.hash(data: bytes)) == hash else {
                throw HubClientError("picture \(hash.prefix(12))… from the hub does not match its hash: nothing from this page was applied")
            }
            pictures[hash] = bytes
            report.picturesDown += 1
            countTraffic()
        }
        let before = try workspace.lastSequence()
        let (known, fetched) = (state, pictures)
        // Stored on the workspace's writer thread: a synced commit must not hold a thread of
        // Swift's cooperative pool.
        let result = try await workspace.editing { workspace in
            try workspace.sync.incoming(events.map(\.syncEvent), fromHub: { known.cameFromHub($0) }) { hash in
                guard let bytes = fetched[hash] else { throw HubClientError("picture \(hash.prefix(12))… went missing during the sync: sync again") }
                return bytes
            }
        }
        state.noteFromHub(result.sequences)
        report.eventsDown += result.stored
        creationsDown.formUnion(result.creations)
        report.creationsDown = creationsDown.count
        report.renamed += result.renamed.map { SyncReport.Renamed(from: $0.from, to: $0.to) }
        report.branched += result.branched.filter { !report.branched.contains($0) }
        report.purged += result.purged.count
        report.purgedCreations += result.purged.map { SyncReport.Purged(name: $0.name, edits: $0.edits) }
        report.dropped += result.dropped
        report.lostRenames += result.lostRenames.map { SyncReport.Renamed(from: $0.mine, to: $0.kept) }
        return try workspace.lastSequence() > before + UInt64(result.stored)
    }
}
