import Foundation
public import Memery
import NIOHTTP1

/// How far a store's sync got with one hub account: the hub position pulled through, the
/// local sequence pushed through, and the local sequences that came from the hub (not to
/// be pushed back). Saved after every page, so a sync that was killed resumes there; a
/// page done twice is harmless, since every event is stored once under its id.
struct SyncState: Codable, Equatable, Sendable {
    var hub: String
    var user: String
    var cursor: Int64 = 0
    /// The id of the event at `cursor`: the hub checks it is still there.
    var cursorEvent: UUID?
    var pushedThrough: UInt64 = 0
    /// The last event pushed (the push's checkpoint): every push names it, and a hub that
    /// lacks it was restored from an older backup. Optional, as are the fields below, so a
    /// state saved by an earlier memery still loads.
    var pushedEvent: UUID?
    /// True from the moment the hub lacked what this store had sent until everything the
    /// store holds has been sent again.
    var resending: Bool?
    /// Ranges of local sequences stored from pulls, past `pushedThrough`.
    var fromHub: [ClosedRange<UInt64>] = []
    /// Earlier checkpoints, newest first: where a resend starts when the hub lost only the
    /// newest pushes (CouchDB's replication keeps such a history on both sides). Each is the
    /// last event of an acknowledged push page and the local sequence the page went through.
    var checkpoints: [Checkpoint]?

    struct Checkpoint: Codable, Equatable {
        var event: UUID
        var through: UInt64
    }

    static func file(_ workspace: Workspace) -> URL { HubLogin.folder(workspace).appendingPathComponent("sync.json") }

    /// The state for `login`'s account: a new one when the store synced with another before.
    static func load(_ workspace: Workspace, for login: HubLogin) -> SyncState {
        if let data = try? Data(contentsOf: file(workspace)), let state = try? JSONDecoder().decode(SyncState.self, from: data),
           state.hub == login.hub, state.user.lowercased() == login.user.lowercased() {
            return state
        }
        return SyncState(hub: login.hub, user: login.user)
    }

    func save(_ workspace: Workspace) throws {
        try PrivateFile.write(try JSONEncoder().encode(self), to: Self.file(workspace))
    }

    func cameFromHub(_ sequence: UInt64) -> Bool { fromHub.contains { $0.contains(sequence) } }

    /// Whether a local sequence after `pushedThrough`, up to `last`, did not come from the
    /// hub: an edit made here since the push. Ranges only, no event read (a watcher asks
    /// it five times a second). A purged event counts too; the sync it starts pushes nothing
    /// and moves `pushedThrough` past it.
    func hasLocalEvents(through last: UInt64) -> Bool {
        var next = pushedThrough + 1
        for range in fromHub.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.upperBound >= next {
            if range.lowerBound > next { return true }
            next = range.upperBound + 1
        }
        return next <= last
    }

    mutating func noteFromHub(_ sequences: [UInt64]) {
        for sequence in sequences.sorted() {
            if let last = fromHub.indices.last, fromHub[last].upperBound + 1 == sequence {
                fromHub[last] = fromHub[last].lowerBound...sequence
            } else {
                fromHub.append(sequence...sequence)
            }
        }
    }

    /// The hub lacks what this store sent it (restored from an older backup): sent again is
    /// everything after `common`, the newest checkpoint the hub still holds, whoever made it
    /// (events that came from the hub too: the machine that made them may never sync again);
    /// everything when it holds none. What came before `common` is on the hub: this store's
    /// pushes up to it were acknowledged in order, and what it pulled before them was there
    /// before them. Where the pull got stays; the pull checks that on its own.
    mutating func resend(after common: UUID?) {
        var history = checkpoints ?? []
        if let common, common != pushedEvent || resending != true, let index = history.firstIndex(where: { $0.event == common }) {
            history.removeFirst(index)
            pushedThrough = history[0].through
            pushedEvent = common
        } else {
            history = []
            pushedThrough = 0
            pushedEvent = nil
        }
        checkpoints = history
        fromHub = []
        resending = true
    }

    /// The hub no longer has what this store pulled from it: pull everything again, and send
    /// again what came after the newest checkpoint (the push finds out whether the hub holds it).
    mutating func restartPull() {
        cursor = 0
        cursorEvent = nil
        resend(after: checkpoints?.first?.event)
    }

    /// True when a resend is under way and already covers everything.
    var resendingEverything: Bool { resending == true && pushedEvent == nil }

    mutating func pushed(through sequence: UInt64, last event: UUID?) {
        pushedThrough = max(pushedThrough, sequence)
        fromHub.removeAll { $0.upperBound <= pushedThrough }
        guard let event else { return }
        pushedEvent = event
        var history = checkpoints ?? []
        history.insert(Checkpoint(event: event, through: pushedThrough), at: 0)
        // The newest 16 kept, older ones thinned from the middle: a few reach far back.
        if history.count > 32 { history.remove(at: 16 + (history.count - 16) / 2) }
        checkpoints = history
    }
}
