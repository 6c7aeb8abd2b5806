import Foundation
import Memery
import MemeryTestSupport
import Testing
@testable import MemeryServer

/// The pages' live updates (`/api/events`): one poll of the store per interval, however it
/// is woken; and a poke (a hub's working copy stored something) reaches the pages at once.
@Suite(.timeLimit(.minutes(5))) struct ChangeFeedTests {
    /// A pause that once returned at once forever after (a sleep raced against an
    /// AsyncStream, which a cancelled wait ends) made `memery serve` spin a core.
    @Test func itLooksAtTheStoreOncePerIntervalAfterPokesAndTimeouts() async throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let feed = ChangeFeed(workspace: try Workspace(directory: dir.url), interval: .milliseconds(50))
        let (_, _, stream) = try await feed.subscribe(after: nil)
        for _ in 0..<3 {
            feed.poke()
            try await Task.sleep(for: .milliseconds(120))
        }
        try await Task.sleep(for: .milliseconds(400))
        // About 14 in 0.76 s (a poll every 50 ms, 3 pokes); a spinning feed makes thousands.
        let polls = await feed.polls
        #expect((1...40).contains(polls), "\(polls) polls in 0.76 s")
        _ = stream
        await feed.stop()
    }

    @Test func aPokeTellsThePagesBeforeTheNextPoll() async throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        // An interval far longer than the test waits: only the poke can bring the change.
        let feed = ChangeFeed(workspace: workspace, interval: .seconds(3_600))
        let (_, _, stream) = try await feed.subscribe(after: nil)
        _ = try await workspace.perform(EditBody.edit(from: ["op": "new", "canvas": "20x20"]), on: "poked")
        feed.poke()
        let arrived = try await withThrowingTaskGroup(of: [StoreChange]?.self) { group in
            group.addTask { for await changes in stream { return changes }; return nil }
            // Long, so that a test process whose threads other suites hold for a while still
            // sees the poke first (a 30 s race of this kind failed CI once).
            group.addTask { try await Task.sleep(for: .seconds(240)); return nil }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        #expect(arrived?.contains { $0.creation == "poked" } == true, "\(String(describing: arrived))")
        await feed.stop()
    }
}
