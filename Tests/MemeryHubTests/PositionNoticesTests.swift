import Foundation
import Synchronization
import Testing
@testable import MemeryHub

/// A push's notice is sent after its answer, one at a time per user: pushes that commit while
/// a notice is under way get one more notice after it, never none and never one each.
@Suite(.timeLimit(.minutes(5))) struct PositionNoticesTests {
    /// A stand-in for the NOTIFY statement: records each user told, and holds each send until let go.
    final class Statement: Sendable {
        let told = Mutex<[Int64]>([])
        let (started, startedFeed) = AsyncStream<Int64>.makeStream()
        let held = Mutex<[CheckedContinuation<Void, Never>]>([])

        func send(_ user: Int64) async {
            await withCheckedContinuation { continuation in
                held.withLock { $0.append(continuation) }
                told.withLock { $0.append(user) }
                startedFeed.yield(user)
            }
        }

        /// Lets the sends held so far finish.
        func release() { for continuation in held.withLock({ held in defer { held.removeAll() }; return held }) { continuation.resume() } }
    }

    @Test func pushesDuringANoticeGetOneMoreAfterItAndOtherUsersTheirOwn() async {
        let statement = Statement()
        let notices = PositionNotices { await statement.send($0) }
        var started = statement.started.makeAsyncIterator()

        notices.pushed(1)
        #expect(await started.next() == 1, "the first push's notice starts")
        // Three more pushes of user 1 while it is held; user 2's is not held back by them.
        notices.pushed(1)
        notices.pushed(1)
        notices.pushed(1)
        notices.pushed(2)
        #expect(await started.next() == 2)
        #expect(statement.told.withLock { $0 } == [1, 2], "no second notice of user 1's while the first is under way")

        statement.release()
        #expect(await started.next() == 1, "one more notice for the three pushes that came meanwhile")
        statement.release()
        while notices.underWay > 0 { await Task.yield() }
        #expect(statement.told.withLock { $0 }.sorted() == [1, 1, 2])

        // Nothing under way: the next push has a notice of its own at once.
        notices.pushed(1)
        #expect(await started.next() == 1)
        statement.release()
        while notices.underWay > 0 { await Task.yield() }
        #expect(statement.told.withLock { $0 }.filter { $0 == 1 }.count == 3)
    }

    /// What a stopping hub waits for (`NoticesOnStop`): the notices under way, but not past its limit.
    @Test func aStoppingHubWaitsForTheNoticesUnderWayUpToALimit() async {
        let statement = Statement()
        let notices = PositionNotices { await statement.send($0) }
        var started = statement.started.makeAsyncIterator()
        await notices.drained(within: .seconds(5))  // nothing under way: at once
        notices.pushed(7)
        #expect(await started.next() == 7)
        await notices.drained(within: .milliseconds(100))
        #expect(notices.underWay == 1, "a notice held past the limit is left behind")
        let drain = Task { await notices.drained(within: .seconds(240)) }
        statement.release()
        await drain.value
        #expect(notices.underWay == 0 && statement.told.withLock { $0 } == [7], "sent before the wait ended")
    }
}
