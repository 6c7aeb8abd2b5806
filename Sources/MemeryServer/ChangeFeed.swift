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
    nonisolated func poke() { pokes.continuation.yield() }

    private let pokes = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

    /// The poll's interval, or less when poked.
    private func pause() async {
        let (interval, pokes) = (interval, pokes.stream)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: interval) }
            group.addTask { for await _ in pokes { return } }
            await group.next()
            group.cancelAll()
        }
    }

    private func poll() async {
        while !Task.isCancelled {
            await pause()
            guard !listeners.isEmpty, let seen else { continue }
            guard let changes = try? await workspace.reading({ workspace -> [StoreChange] in
                try workspace.lastSequence() > seen ? workspace.changes(after: seen, limit: 10_000) : []
            }), let last = changes.last else { continue }
            self.seen = last.sequence
            for listener in listeners.values { listener.yield(changes) }
        }
    }
}
