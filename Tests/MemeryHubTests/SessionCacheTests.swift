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
        cache.keep(Self.ann, for: Self.annsToken, from: cache.beginLookup())
        #expect(cache.signedIn(Self.annsToken)?.session == Self.ann.session)
        #expect(cache.signedIn(Self.bobsToken) == nil, "another token is not ann's")
    }

    @Test func nothingIsKeptOrTrustedWhileTheHubDoesNotListen() {
        let cache = SessionCache()
        #expect(cache.beginLookup() == nil)
        cache.keep(Self.ann, for: Self.annsToken, from: cache.beginLookup())
        cache.keep(Self.ann, for: Self.annsToken, from: SessionCache.Lookup(generation: 0, started: .now))
        #expect(cache.count == 0)

        cache.listening(true)
        cache.keep(Self.ann, for: Self.annsToken, from: cache.beginLookup())
        #expect(cache.signedIn(Self.annsToken) != nil)
        // Listening lost: a change meanwhile would go unheard, so everything goes.
        cache.listening(false)
        #expect(cache.signedIn(Self.annsToken) == nil)
        cache.listening(true)
        #expect(cache.signedIn(Self.annsToken) == nil, "what was kept before the gap is not trusted after it")
    }

    @Test func aChangeForgetsThatUsersSessionsAndNoOthers() {
        let cache = Self.listeningCache()
        cache.keep(Self.ann, for: Self.annsToken, from: cache.beginLookup())
        cache.keep(Self.bob, for: Self.bobsToken, from: cache.beginLookup())
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
        let before = cache.beginLookup()
        cache.heard("1")
        cache.keep(Self.ann, for: Self.annsToken, from: before)
        #expect(cache.signedIn(Self.annsToken) == nil)
        // A change of anyone's counts: a generation is not per user.
        let again = cache.beginLookup()
        cache.forget(user: 2)
        cache.keep(Self.ann, for: Self.annsToken, from: again)
        #expect(cache.signedIn(Self.annsToken) == nil)
        // With nothing in between, it is kept.
        cache.keep(Self.ann, for: Self.annsToken, from: cache.beginLookup())
        #expect(cache.signedIn(Self.annsToken) != nil)
    }

    /// A kept answer lives `lifetime` from when its lookup began, not from when it was kept:
    /// a slow lookup does not stretch how long a session is trusted without a notice.
    @Test func anAnswerIsTrustedForTheLifetimeFromItsLookupsStart() {
        let cache = Self.listeningCache()
        let generation = cache.beginLookup()!.generation
        cache.keep(Self.ann, for: Self.annsToken, from: SessionCache.Lookup(generation: generation, started: .now - SessionCache.lifetime))
        #expect(cache.signedIn(Self.annsToken) == nil, "read a lifetime ago: not trusted")
        cache.keep(Self.bob, for: Self.bobsToken, from: SessionCache.Lookup(generation: generation, started: .now - .seconds(1)))
        #expect(cache.signedIn(Self.bobsToken) != nil)
        #expect(cache.count == 1, "the stale one is gone")
    }

    @Test func aTokenKeptAgainIsForgottenWithItsNewUser() {
        let cache = Self.listeningCache()
        cache.keep(Self.ann, for: Self.annsToken, from: cache.beginLookup())
        // The same token's hash now names bob's session (a row changed by hand): kept for bob.
        cache.keep(Self.bob, for: Self.annsToken, from: cache.beginLookup())
        cache.forget(user: 1)
        #expect(cache.signedIn(Self.annsToken)?.user == 2, "ann's change does not touch what is bob's now")
        cache.forget(user: 2)
        #expect(cache.signedIn(Self.annsToken) == nil)
    }

    @Test func aFullCacheMakesRoomAndStaysBounded() {
        let cache = Self.listeningCache()
        for number in 0..<(SessionCache.capacity + 5) {
            let who = SignedIn(user: Int64(number), name: "u\(number)", role: "user", session: UUID())
            cache.keep(who, for: Data("token \(number)".utf8), from: cache.beginLookup())
        }
        #expect(cache.count <= SessionCache.capacity)
        #expect(cache.signedIn(Data("token \(SessionCache.capacity + 4)".utf8)) != nil, "the newest is kept")
    }
}
