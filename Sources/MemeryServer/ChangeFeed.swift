import Foundation
import Memery

/// Follows the store's global log for every open page: one poll of the last sequence every
/// `interval` (a read transaction, cheap), however many pages listen, so a change made by
/// this server or by another process (`memery text` in a terminal) reaches the pages
/// within that interval. LMDB has no notifications; a poll is what it offers.
actor ChangeFeed {
    typealias Listener = AsyncStream<[StoreChange]>.Continuation

    private let workspace: Workspace
    private let interval: Duration
    private var listeners: [UUID: Listener] = [:]
    private var seen: UInt64?
    private var polling: Task<Void, Never>?

    init(workspace: Workspace, interval: Duration = .milliseconds(200)) {
        self.workspace = workspace
        self.interval = interval
    }

    /// The changes after `sequence` (what a page missed while away), then every change as it
    /// comes, until the stream is dropped.
    func subscribe(after sequence: UInt64?) async throws -> (start: UInt64, backlog: [StoreChange], stream: AsyncStream<[StoreChange]>) {
        let last = try await workspace.reading { try $0.lastSequence() }
        if seen == nil { seen = last }
        let start = seen ?? last
        var backlog = [StoreChange]()
        if let sequence, sequence < start {
            // Up to where the poller stands: what comes after, it sends to every page.
            backlog = try await workspace.reading { try $0.changes(after: sequence, limit: 10_000) }.filter { $0.sequence <= start }
        }
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: [StoreChange].self, bufferingPolicy: .bufferingNewest(64))
        continuation.onTermination = { [weak self] _ in Task { await self?.drop(id) } }
        listeners[id] = continuation
        if polling == nil { polling = Task { await self.poll() } }
        return (start, backlog, stream)
    }

    /// Stops following the store and ends every page's stream (a hub let the store go).
    func stop() {
        polling?.cancel()
        polling = nil
        for listener in listeners.values { listener.finish() }
        listeners = [:]
    }

    private func drop(_ id: UUID) {
        listeners[id] = nil
    }

    /// A change was just made here (a hub's working copy stored an edit or a pull): the
    /// pages hear of it now, not at the next poll.
    nonisolated func poke() { Task { await self.wakeUp() } }

    /// The poller while it pauses; a poke that came while it polled (the next pause is skipped).
    private var sleeping: CheckedContinuation<Void, Never>?
    private var poked = false

    private func wakeUp() {
        if let sleeping {
            self.sleeping = nil
            sleeping.resume()
        } else {
            poked = true
        }
    }

    /// The poll's interval, or less when poked. (Not a race of a sleep against an AsyncStream:
    /// cancelling the task that waits on an AsyncStream ends the stream, and every pause
    /// after the first would have returned at once.)
    private func pause() async {
        if poked {
            poked = false
            return
        }
        let interval = interval
        let timer = Task { [weak self] in
            // Cancelled (a poke came first): nothing to wake.
            guard (try? await Task.sleep(for: interval)) != nil else { return }
            await self?.wakeUp()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in sleeping = continuation }
        timer.cancel()
    }

    /// How many times the store was looked at (the tests count them).
    private(set) var polls = 0

    private func poll() async {
        while !Task.isCancelled {
            await pause()
            polls += 1
            guard !listeners.isEmpty, let seen else { continue }
            guard let changes = try? await workspace.reading({ workspace -> [StoreChange] in
                try workspace.lastSequence() > seen ? workspace.changes(after: seen, limit: 10_000) : []
            }), let last = changes.last else { continue }
            self.seen = last.sequence
            for listener in listeners.values { listener.yield(changes) }
        }
    }
}
