import Foundation
import Testing
@testable import MemeryHub

/// The sessions a hub keeps between a page's requests: trusted only while the hub listens
/// for changes, dropped for the user a change names, and never kept from a lookup that a
/// change overtook.
@Suite struct SessionCacheTests {
    static let ann = SignedIn(user: 1, name: "ann", role: "user", session: UUID())
    static let bob = SignedIn(user: 2, name: "bob", role: "user", session: UUID())
    static let annsToken = Data("ann's token".utf8), bobsToken = Data("bob's token".utf8)

    static func listeningCache() -> SessionCache {
        let cache = SessionCache()
        cache.listening(true)
        return cache
    }

    @Test func aLookupIsKeptAndAnsweredWhileTheHubListens() {
        let cache = Self.listeningCache()
        #expect(cache.signedIn(Self.annsToken) == nil)
        cache.keep(Self.ann, for: Self.annsToken, lookedUpAt: cache.generation)
        #expect(cache.signedIn(Self.annsToken)?.session == Self.ann.session)
        #expect(cache.signedIn(Self.bobsToken) == nil, "another token is not ann's")
    }

    @Test func nothingIsKeptOrTrustedWhileTheHubDoesNotListen() {
        let cache = SessionCache()
        #expect(cache.generation == nil)
        cache.keep(Self.ann, for: Self.annsToken, lookedUpAt: cache.generation)
        cache.keep(Self.ann, for: Self.annsToken, lookedUpAt: 0)
        #expect(cache.count == 0)

        cache.listening(true)
        cache.keep(Self.ann, for: Self.annsToken, lookedUpAt: cache.generation)
        #expect(cache.signedIn(Self.annsToken) != nil)
        // Listening lost: a change meanwhile would go unheard, so everything goes.
        cache.listening(false)
        #expect(cache.signedIn(Self.annsToken) == nil)
        cache.listening(true)
        #expect(cache.signedIn(Self.annsToken) == nil, "what was kept before the gap is not trusted after it")
    }

    @Test func aChangeForgetsThatUsersSessionsAndNoOthers() {
        let cache = Self.listeningCache()
        cache.keep(Self.ann, for: Self.annsToken, lookedUpAt: cache.generation)
        cache.keep(Self.bob, for: Self.bobsToken, lookedUpAt: cache.generation)
        cache.heard("1")
        #expect(cache.signedIn(Self.annsToken) == nil)
        #expect(cache.signedIn(Self.bobsToken)?.user == 2)
        cache.heard("not a user id")
        #expect(cache.signedIn(Self.bobsToken) == nil, "a notice that cannot be read forgets everyone")
    }

    @Test func aLookupOvertakenByAChangeIsNotKept() {
        let cache = Self.listeningCache()
        // The lookup reads the generation, asks the database (which still has the session),
        // and meanwhile the session is revoked and the notice arrives.
        let before = cache.generation
        cache.heard("1")
        cache.keep(Self.ann, for: Self.annsToken, lookedUpAt: before)
        #expect(cache.signedIn(Self.annsToken) == nil)
        // A change of anyone's counts: a generation is not per user.
        let again = cache.generation
        cache.forget(user: 2)
        cache.keep(Self.ann, for: Self.annsToken, lookedUpAt: again)
        #expect(cache.signedIn(Self.annsToken) == nil)
        // With nothing in between, it is kept.
        cache.keep(Self.ann, for: Self.annsToken, lookedUpAt: cache.generation)
        #expect(cache.signedIn(Self.annsToken) != nil)
    }

    @Test func aFullCacheMakesRoomAndStaysBounded() {
        let cache = Self.listeningCache()
        for number in 0..<(SessionCache.capacity + 5) {
            let who = SignedIn(user: Int64(number), name: "u\(number)", role: "user", session: UUID())
            cache.keep(who, for: Data("token \(number)".utf8), lookedUpAt: cache.generation)
        }
        #expect(cache.count <= SessionCache.capacity)
        #expect(cache.signedIn(Data("token \(SessionCache.capacity + 4)".utf8)) != nil, "the newest is kept")
    }
}
