import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MemeryHubProtocol
import MemeryTestSupport
import NIOCore
import Testing
@testable import MemeryHub

/// The hub's account and picture routes answered in process over records kept in memory
/// (`InMemoryHubRecords`): no socket and no PostgreSQL, so these run everywhere. The same
/// routes over PostgreSQL are `HubRouterTests`.
@Suite struct HubInMemoryRouterTests {
    let records = InMemoryHubRecords()

    func hub(quotaBytes: Int64? = nil, publicURL: URL? = nil) throws -> some ApplicationProtocol {
        // The address is never dialled: nothing here reaches a database.
        let settings = HubSettings(database: try DatabaseAddress("postgres://nobody@127.0.0.1:1/none"), bcryptCost: 4, logLevel: .warning,
                                   quotaBytes: quotaBytes, publicURL: publicURL)
        var logger = Logger(label: "memery.hub.test")
        logger.logLevel = .warning
        return Application(router: HubServer.inMemoryRouter(records, settings: settings, logger: logger), logger: logger)
    }

    static let password = "correct horse battery staple"

    static func logIn(_ name: String, _ password: String = password, device: String = "test",
                      via client: some TestClientProtocol) async throws -> TestResponse {
        try await client.execute(uri: HubPaths.sessions, method: .post, headers: [.contentType: "application/json"],
                                 body: HubRouterTests.json(LoginRequest(user: name, password: password, device: device)))
    }

    /// Signs a person up and logs them in; their bearer header.
    static func member(_ name: String, device: String = "test", _ client: some TestClientProtocol) async throws -> HTTPFields {
        let made = try await client.execute(uri: HubPaths.accounts, method: .post, headers: [.contentType: "application/json"],
                                            body: HubRouterTests.json(SignUpRequest(user: name, password: password)))
        if made.status != .conflict { #expect(made.status == .created, "\(String(buffer: made.body))") }
        return try await bearer(logIn(name, device: device, via: client))
    }

    static func bearer(_ login: TestResponse) throws -> HTTPFields {
        #expect(login.status == .created, "\(String(buffer: login.body))")
        let token = try HubRouterTests.decode(LoginAnswer.self, login.body).token
        return [.authorization: "Bearer \(token)", .contentType: "application/json"]
    }

    static func problem(_ answer: TestResponse) throws -> HubProblem { try HubRouterTests.decode(HubProblem.self, answer.body) }

    @Test func everyAccountAndPictureRouteBehindALoginAnswers401WithoutOne() async throws {
        try await hub().test(.router) { client in
            let alice = try await Self.member("alice", client)
            let hash = String(repeating: "0", count: 64)
            let behindLogin: [(HTTPRequest.Method, String)] = [
                (.get, HubPaths.account), (.delete, HubPaths.account), (.put, HubPaths.password), (.delete, HubPaths.sessions),
                (.delete, HubPaths.sessions + "/current"), (.delete, HubPaths.sessions + "/\(UUID())"),
                (.post, HubPaths.blobs + "/missing"), (.put, HubPaths.blobs + "/\(hash)"), (.get, HubPaths.blobs + "/\(hash)"),
            ]
            for (method, path) in behindLogin {
                for headers: HTTPFields in [[:], [.authorization: "Bearer not-a-session"], [.authorization: "Basic YWxpY2U6eA=="]] {
                    let answer = try await client.execute(uri: path, method: method, headers: headers)
                    #expect(answer.status == .unauthorized, "\(method) \(path)")
                    #expect(try Self.problem(answer).error == "unauthorized", "\(method) \(path)")
                }
            }
            let account = try await client.execute(uri: HubPaths.account, method: .get, headers: alice)
            let answer = try HubRouterTests.decode(AccountAnswer.self, account.body)
            #expect(account.status == .ok && answer.user == "alice" && answer.role == "member" && answer.devices.map(\.device) == ["test"])
            #expect(try await client.execute(uri: HubPaths.sessions + "/current", method: .delete, headers: alice).status == .noContent)
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: alice).status == .unauthorized)
        }
    }

    /// A browser signs in with a cookie the page's script never reads; with it, every change
    /// must come from the hub's own origin; signing out ends the session and the cookie.
    @Test func aBrowserSessionIsAnHttpOnlyCookieWhoseChangesMustComeFromTheHubsOrigin() async throws {
        let site = "https://memes.example.org"
        try await hub(publicURL: URL(string: site)).test(.router) { client in
            _ = try await Self.member("alice", client)
            let signIn = try await client.execute(uri: HubPaths.browserSession, method: .post,
                                                  headers: [.contentType: "application/json", .origin: site,
                                                            .userAgent: "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36"],
                                                  body: HubRouterTests.json(BrowserLogin(user: "alice", password: Self.password)))
            #expect(signIn.status == .created, "\(String(buffer: signIn.body))")
            let setCookie = try #require(signIn.headers[.setCookie])
            #expect(setCookie.hasPrefix("__Host-memery-session=") && setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict")
                    && setCookie.contains("Secure"), "\(setCookie)")
            #expect(!String(buffer: signIn.body).contains("token"))
            let token = String(setCookie.dropFirst("__Host-memery-session=".count).prefix { $0 != ";" })
            var cookie: HTTPFields = [.cookie: "__Host-memery-session=\(token)"]

            // Reading with the cookie alone works; the device is named after the browser.
            let account = try await client.execute(uri: HubPaths.account, method: .get, headers: cookie)
            #expect(account.status == .ok)
            #expect(try HubRouterTests.decode(AccountAnswer.self, account.body).devices.map(\.device).contains("browser: Chrome on Android"))
            // Optional white space around the cookie's pairs (spaces, tabs) is not part of them;
            // other characters are.
            for spaced: HTTPFields in [[.cookie: "theme=dark; \t __Host-memery-session=\(token) \t"], [.cookie: "a=1;__Host-memery-session=\(token)"]] {
                #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: spaced).status == .ok, "\(spaced)")
            }
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: [.cookie: "__Host-memery-session=\(token)\u{A0}"]).status == .unauthorized)
            // Over https only the __Host- cookie counts: a plain one (which a sibling host could
            // set) is not this hub's, and two that differ are nobody's.
            for other: HTTPFields in [[.cookie: "memery-session=\(token)"], [.cookie: "__Host-memery-session=\(token); __Host-memery-session=forged"]] {
                #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: other).status == .unauthorized)
            }
            // Signing in again from this browser ends its earlier session: each browser is listed once.
            var again = cookie
            again[.origin] = site
            again[.contentType] = "application/json"
            let second = try await client.execute(uri: HubPaths.browserSession, method: .post, headers: again,
                                                  body: HubRouterTests.json(BrowserLogin(user: "alice", password: Self.password)))
            #expect(second.status == .created)
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: cookie).status == .unauthorized)
            let newToken = String((second.headers[.setCookie] ?? "").dropFirst("__Host-memery-session=".count).prefix { $0 != ";" })
            let renewed: HTTPFields = [.cookie: "__Host-memery-session=\(newToken)"]
            let devices = try HubRouterTests.decode(AccountAnswer.self, try await client.execute(uri: HubPaths.account, method: .get, headers: renewed).body)
            #expect(devices.devices.filter { $0.device.hasPrefix("browser: ") }.count == 1, "\(devices.devices)")
            cookie = renewed
            // A change with the cookie: refused from another origin and with none, done from the hub's.
            var foreign = cookie, bare = cookie, own = cookie
            foreign[.origin] = "https://evil.example"
            own[.origin] = site
            for headers in [foreign, bare] {
                let refused = try await client.execute(uri: HubPaths.sessions, method: .delete, headers: headers)
                #expect(try refused.status == .forbidden && Self.problem(refused).error == "cross-origin")
            }
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: cookie).status == .ok, "the refused sign-out did nothing")
            // A program's bearer token sends no Origin and needs none.
            let device = try await Self.bearer(Self.logIn("alice", via: client))
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: device).status == .ok)
            let spacedBearer = "bearer \t " + String((device[.authorization] ?? "").dropFirst("Bearer ".count))
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: [.authorization: spacedBearer]).status == .ok, "the scheme in any case, spaces after it")
            // Signing out: the session ends, the cookie is cleared.
            let out = try await client.execute(uri: HubPaths.browserSession, method: .delete, headers: own)
            #expect(out.status == .noContent && (out.headers[.setCookie] ?? "").contains("Max-Age=0"))
            #expect(try await client.execute(uri: HubPaths.browserSession, method: .get, headers: cookie).status == .unauthorized)
            bare[.origin] = nil
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: bare).status == .unauthorized)
        }
    }

    struct BrowserLogin: Codable { var user: String; var password: String }

    @Test func aNameIsTakenWhateverItsCaseAndAWrongPasswordIsTheSameAnswerAsAnUnknownName() async throws {
        try await hub().test(.router) { client in
            _ = try await Self.member("Alice", client)
            let again = try await client.execute(uri: HubPaths.accounts, method: .post, headers: [.contentType: "application/json"],
                                                 body: HubRouterTests.json(SignUpRequest(user: "alice", password: "another good password")))
            #expect(try again.status == .conflict && Self.problem(again).message.contains("taken"))
            let wrong = try await Self.logIn("alice", "not the password", via: client)
            let unknown = try await Self.logIn("nobody", "not the password", via: client)
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(try Self.problem(wrong).message == Self.problem(unknown).message)
            // The name logs in whatever its case, as the name it was given.
            let login = try await Self.logIn("ALICE", via: client)
            #expect(try login.status == .created && HubRouterTests.decode(LoginAnswer.self, login.body).user == "Alice")
        }
    }

    /// Past ten failures for one account from one address, even the right password is
    /// refused there (429, with when to come back) until the failures age out of the window.
    @Test func guessingOnePasswordIsRefusedUntilTheWindowPasses() async throws {
        try await hub().test(.router) { client in
            _ = try await Self.member("alice", client)
            for _ in 1...10 { #expect(try await Self.logIn("alice", "a wrong guess", via: client).status == .unauthorized) }
            let refused = try await Self.logIn("alice", via: client)
            #expect(refused.status == .tooManyRequests)
            #expect(try Self.problem(refused).error == "too-many-attempts")
            let retryAfter = try #require(refused.headers[.retryAfter].flatMap(Int.init))
            #expect((1...900).contains(retryAfter))
            // Another account from the same address is not held by it.
            _ = try await Self.member("bob", client)
            await records.advanceClock(by: 15 * 60 + 1)
            #expect(try await Self.logIn("alice", via: client).status == .created)
        }
    }

    @Test func aNewPasswordLogsOutEveryOtherDeviceAndTheOldOneNoLongerWorks() async throws {
        try await hub().test(.router) { client in
            let laptop = try await Self.member("alice", device: "laptop", client)
            let phone = try await Self.bearer(Self.logIn("alice", device: "phone", via: client))
            let devices = try HubRouterTests.decode(AccountAnswer.self, try await client.execute(uri: HubPaths.account, method: .get, headers: laptop).body)
            #expect(devices.devices.map(\.device) == ["laptop", "phone"])
            let mistaken = try await client.execute(uri: HubPaths.password, method: .put, headers: laptop,
                                                    body: HubRouterTests.json(PasswordChange(old: "not it", new: "a brand new password")))
            #expect(mistaken.status == .forbidden)
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: phone).status == .ok)
            let changed = try await client.execute(uri: HubPaths.password, method: .put, headers: laptop,
                                                   body: HubRouterTests.json(PasswordChange(old: Self.password, new: "a brand new password")))
            #expect(changed.status == .noContent)
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: laptop).status == .ok)
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: phone).status == .unauthorized)
            #expect(try await Self.logIn("alice", via: client).status == .unauthorized)
            #expect(try await Self.logIn("alice", "a brand new password", via: client).status == .created)
        }
    }

    @Test func aDevicesNameIsKeptWithoutControlsAndCut() async throws {
        try await hub().test(.router) { client in
            let hostile = "lap\u{1B}]0;owned\u{07}top\u{0}\u{202E}x"
            let alice = try await Self.member("alice", device: hostile, client)
            _ = try await Self.bearer(Self.logIn("alice", device: String(repeating: "é", count: 150), via: client))
            _ = try await Self.bearer(Self.logIn("alice", device: "", via: client))
            let answer = try await client.execute(uri: HubPaths.account, method: .get, headers: alice)
            let names = try HubRouterTests.decode(AccountAnswer.self, answer.body).devices.map(\.device)
            // In the order of login when the clock moved between them; sorted, so it need not.
            #expect(names.sorted() == ["lap\u{FFFD}]0;owned\u{FFFD}top\u{FFFD}\u{FFFD}x", String(repeating: "é", count: 100), "unnamed device"].sorted())
        }
    }

    @Test func aDeletedAccountTakesItsSessionsAndThePicturesOnlyItHad() async throws {
        try await hub().test(.router) { client in
            let alice = try await Self.member("alice", client), bob = try await Self.member("bob", client)
            let picture = pngDeclaring(width: 2, height: 2) + Data("alice's".utf8)
            let key = SHA256Digest.of(picture), path = HubPaths.blobs + "/" + hex(key)
            let put = try await client.execute(uri: path, method: .put, headers: [.authorization: alice[.authorization]!], body: ByteBuffer(data: picture))
            #expect(put.status == .created)
            let wrong = try await client.execute(uri: HubPaths.account, method: .delete, headers: alice,
                                                 body: HubRouterTests.json(AccountDeletion(password: "not it")))
            #expect(wrong.status == .forbidden)
            let deleted = try await client.execute(uri: HubPaths.account, method: .delete, headers: alice,
                                                   body: HubRouterTests.json(AccountDeletion(password: Self.password)))
            #expect(deleted.status == .noContent)
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: alice).status == .unauthorized)
            #expect(try await Self.logIn("alice", via: client).status == .unauthorized)
            #expect(await records.bytes(Data(key), for: 1) == nil)
            #expect(try await client.execute(uri: HubPaths.account, method: .get, headers: bob).status == .ok)
        }
    }

    @Test func picturesAreEachPersonsOwnCheckedByTheirBytesAndCountedAgainstTheQuota() async throws {
        try await hub(quotaBytes: 1_000).test(.router) { client in
            let alice = try await Self.member("alice", client), bob = try await Self.member("bob", client)
            func upload(_ bytes: Data, as who: HTTPFields, under hash: String? = nil) async throws -> TestResponse {
                try await client.execute(uri: HubPaths.blobs + "/" + (hash ?? hex(SHA256Digest.of(bytes))), method: .put,
                                         headers: [.authorization: who[.authorization]!], body: ByteBuffer(data: bytes))
            }
            let picture = pngDeclaring(width: 3, height: 2) + Data("only alice has it".utf8)
            let hash = hex(SHA256Digest.of(picture))
            #expect(try await upload(picture, as: alice).status == .created)
            #expect(try await upload(picture, as: alice).status == .ok)
            let theirs = try await client.execute(uri: HubPaths.blobs + "/" + hash, method: .get, headers: alice)
            #expect(theirs.status == .ok && Data(theirs.body.readableBytesView) == picture)
            #expect(theirs.headers[.cacheControl]?.contains("immutable") == true)
            let guessed = try await client.execute(uri: HubPaths.blobs + "/" + hash, method: .get, headers: bob)
            #expect(guessed.status == .notFound && !String(buffer: guessed.body).contains("only alice"))
            let missing = try await client.execute(uri: HubPaths.blobs + "/missing", method: .post, headers: bob,
                                                   body: HubRouterTests.json(BlobList(hashes: [hash])))
            #expect(try HubRouterTests.decode(BlobList.self, missing.body).hashes == [hash])
            let bad = try await client.execute(uri: HubPaths.blobs + "/missing", method: .post, headers: bob,
                                               body: HubRouterTests.json(BlobList(hashes: ["not-a-hash"])))
            #expect(bad.status == .badRequest)
            // Bytes that are not what their hash says, or not a picture, are refused.
            #expect(try await upload(picture + Data([0]), as: bob, under: hash).status == .badRequest)
            let text = try await upload(Data("just some text, no picture".utf8), as: bob)
            #expect(try text.status == .unsupportedMediaType && Self.problem(text).error == "not-a-picture")
            // Past the quota nothing is kept.
            let large = pngDeclaring(width: 9, height: 9) + Data(count: 1_200)
            let over = try await upload(large, as: bob)
            #expect(try over.status == .contentTooLarge && Self.problem(over).error == "over-quota")
            #expect(try await client.execute(uri: HubPaths.blobs + "/" + hex(SHA256Digest.of(large)), method: .get, headers: bob).status == .notFound)
            // Bob uploading the same bytes is granted them: he had them.
            #expect(try await upload(picture, as: bob).status == .created)
            #expect(try await client.execute(uri: HubPaths.blobs + "/" + hash, method: .get, headers: bob).status == .ok)
        }
    }
}
