import Foundation
import Testing
@testable import MemeryHub

/// The bell a hub's watchers wait on: a ring wakes every waiter of that user and no other,
/// a ring before the wait is not missed, and a wait ends at its time limit or when its task
/// is cancelled (a hub stopping).
@Suite(.timeLimit(.minutes(5))) struct PositionBellTests {
    /// How a wait ended, a long time limit raced against what should end it first.
    enum Ended: Equatable { case woken, timedOut }

    static func waiting(_ bell: PositionBell, _ user: Int64, since seen: UInt64, limit: Duration = .seconds(600),
                        meanwhile: @Sendable () async -> Void) async -> Ended {
        await withTaskGroup(of: Ended.self) { group in
            group.addTask { await bell.wait(user, since: seen, atMost: limit); return .woken }
            group.addTask { try? await Task.sleep(for: .seconds(240)); return .timedOut }
            await meanwhile()
            let first = await group.next()!
            group.cancelAll()
            return first
        }
    }

    @Test func aRingWakesTheUsersWaitersAndNoOthers() async throws {
        let bell = PositionBell()
        bell.watch(1)
        bell.watch(2)
        let seen = bell.rings(1)
        async let other: Ended = Self.waiting(bell, 2, since: bell.rings(2)) {}
        while bell.waiters(2) == 0 { await Task.yield() }
        let ended = await Self.waiting(bell, 1, since: seen) {
            try? await Task.sleep(for: .milliseconds(50))  // (either order is a wake: rung before the wait counts)
            bell.ring(1)
        }
        #expect(ended == .woken)
        #expect(bell.rings(1) == seen + 1 && bell.rings(2) == 0)
        #expect(bell.waiters(1) == 0 && bell.waiters(2) == 1, "user 2's watcher still waits")
        bell.ring(2)
        #expect(await other == .woken)
        #expect(bell.waiters(2) == 0)
    }

    @Test func aRingBeforeTheWaitIsNotMissed() async throws {
        let bell = PositionBell()
        bell.watch(7)
        let seen = bell.rings(7)
        bell.ring(7)  // between reading the position and waiting
        #expect(await Self.waiting(bell, 7, since: seen) {} == .woken)
    }

    @Test func aWaitEndsAtItsLimitOrWhenCancelled() async throws {
        let bell = PositionBell()
        bell.watch(3)
        let clock = ContinuousClock(), start = clock.now
        await bell.wait(3, since: bell.rings(3), atMost: .milliseconds(100))
        #expect(clock.now - start >= .milliseconds(100))
        // Cancelled before or while it waits (either may come first), never left to its limit.
        let waiter = Task { await bell.wait(3, since: bell.rings(3), atMost: .seconds(600)); return Ended.woken }
        waiter.cancel()
        let ended = await withTaskGroup(of: Ended.self) { group in
            group.addTask { await waiter.value }
            group.addTask { try? await Task.sleep(for: .seconds(240)); return .timedOut }
            let first = await group.next()!
            group.cancelAll()
            return first
        }
        #expect(ended == .woken, "the cancelled wait returned")
    }

    /// Rings are counted only for users someone watches: the bell does not grow with every push.
    @Test func usersNobodyWatchesAreForgotten() {
        let bell = PositionBell()
        bell.ring(5)
        #expect(bell.rings(5) == 0)
        bell.watch(5)
        bell.watch(5)
        bell.ring(5)
        bell.unwatch(5)
        #expect(bell.rings(5) == 1, "one watcher left")
        bell.unwatch(5)
        #expect(bell.rings(5) == 0, "forgotten")
    }

    /// Listening starting or stopping rings every watched user: a push may have gone unheard.
    @Test func listeningChangedRingsEveryone() async {
        let bell = PositionBell()
        bell.watch(1)
        bell.watch(2)
        bell.listening(true)
        #expect(bell.isListening && bell.rings(1) == 1 && bell.rings(2) == 1)
        bell.listening(false)
        #expect(!bell.isListening && bell.rings(1) == 2)
    }

    /// A notice that names the position keeps the newest one (notices may arrive out of
    /// order); one that names none, from a hub of schema step 9, changes nothing of it.
    @Test func theNewestPositionANoticeNamedIsKept() {
        let bell = PositionBell()
        bell.watch(3)
        #expect(bell.position(3) == nil)
        bell.ring(3, position: 40)
        bell.ring(3, position: 38)
        bell.ring(3)
        #expect(bell.position(3) == 40 && bell.rings(3) == 3)
        bell.ring(4, position: 9)
        #expect(bell.position(4) == nil, "nobody watches 4")
    }
}
