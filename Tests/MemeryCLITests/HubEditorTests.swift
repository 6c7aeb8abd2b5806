import Foundation
import MemeryTestSupport
import Testing

/// The editor served by `memery hub --cache-dir` (issue 35): a browser signs in with a
/// cookie, edits through the same API as `memery serve`, and every acknowledged edit is in
/// PostgreSQL, on the person's machines, and on another hub; nobody else's page, and no
/// other site's, can reach it.
@Suite(.serialized, .enabled(if: PostgresCluster.shared != nil, "no PostgreSQL cluster could be started (PostgreSQLIsThereForTheHubTests says why)"))
struct HubEditorTests {
    typealias Hub = HubSyncTests

    /// A hub serving the editor, its working copies in `sandbox`'s folder `cache`.
    static func hub(database: String? = nil, in sandbox: Sandbox, cache: String = "cache", extra: [String] = []) throws -> HubProcess {
        try HubProcess(database: try database ?? Hub.cluster.newDatabase(), extra: ["--cache-dir", sandbox.path(cache)] + extra)
    }

    /// Events the hub keeps for everyone.
    static func events(_ hub: HubProcess) throws -> Int {
        Int(try Hub.cluster.sql("SELECT count(*) FROM events", database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The texts on a creation, as a page reads them.
    static func texts(_ browser: HubBrowser, _ name: String) throws -> [String] {
        let answer = try browser.call("GET", "/api/creations/\(name)")
        let layers = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["layers"] as? [[String: Any]] ?? []
        return layers.compactMap { $0["text"] as? String }
    }

    /// Asks until `condition` holds, for up to `seconds` (what crosses hubs arrives by a pull).
    static func eventually(_ seconds: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
        try eventually(until: Date().addingTimeInterval(seconds), condition)
    }

    /// Asks until `condition` holds or `end` has passed, and once at least.
    static func eventually(until end: Date, _ condition: () throws -> Bool) rethrows -> Bool {
        while Date() < end {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }

    @Test func aPageSignedInByCookieEditsAndAMachineSyncsTheSameBytes() throws {
        let sandbox = try Sandbox()
        let hub = try Self.hub(in: sandbox)
        let browser = HubBrowser(hub: hub, sandbox: sandbox)
        // Signed out: the sign-in page, and the API refuses.
        let front = try browser.call("GET", "/")
        #expect(front.status == 200 && front.text.contains("signin-form"), "\(front.text.prefix(200))")
        #expect(try browser.call("GET", "/api/creations").status == 401)

        let signIn = try browser.signUpAndIn("ann")
        #expect(signIn.status == 201, "\(signIn.text)")
        let cookie = signIn.header("set-cookie") ?? ""
        #expect(cookie.contains("memery-session=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && !cookie.contains("Secure"),
                "\(cookie)")
        #expect(!signIn.text.contains("token"), "the token is never in what page script reads: \(signIn.text)")
        #expect(try browser.call("GET", "/").text.contains("id=\"thumbnails\""), "signed in, / is the editor")

        let made = try browser.call("POST", "/api/creations?name=cat&filename=cat.png", file: Paths.example, type: "image/png")
        #expect(made.status == 201, "\(made.text.prefix(300))")
        let captioned = try browser.call("POST", "/api/creations/cat/edits", json: #"{"op":"text","top":"FROM THE PAGE"}"#)
        #expect(captioned.status == 200, "\(captioned.text)")
        // Acknowledged means committed: the hub's database has both edits' events now.
        #expect(try Self.events(hub) >= 3)
        // The working copy pushed them in process: not HTTP requests, counted apart.
        let metrics = try PostgresCluster.command("/usr/bin/curl", ["-s", hub.address + "/metrics"])
        let pushes = metrics.split(separator: "\n").first {
            $0.hasPrefix("memery_hub_working_copy_calls_total{") && $0.contains("call=\"push\"") && $0.contains("status=\"200\"")
        }
        #expect((pushes.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0) >= 2, "\(pushes ?? "no line for the copy's pushes")")
        #expect(metrics.contains("memery_hub_working_copy_call_duration_seconds"), "the calls are timed")
        #expect(metrics.split(separator: "\n").contains {
            $0.hasPrefix("memery_hub_working_copy_calls_total{") && $0.contains("call=\"upload-picture\"") && $0.contains("status=\"201\"")
        }, "the photo was new to the hub: counted 201, as the route answers")

        let machine = try Hub.machine(hub, "ann", signUp: false)
        _ = try Hub.sync(machine)
        #expect(try machine.run(["show", "cat"]).stdout.contains("FROM THE PAGE"))
        let fromPage = try browser.call("GET", "/api/creations/cat/export?format=png")
        #expect(fromPage.status == 200 && fromPage.body.count > 1000)
        #expect(try Hub.exported(machine, "cat") == fromPage.body, "the machine exports the bytes the page exports")
        // The browser is a device of the account, as `memery account` shows.
        #expect(try machine.run(["account"]).stdout.contains("browser: "))

        // An edit on the machine reaches the page: the hub's copy follows the hub.
        #expect(try machine.run(["text", "cat", "--bottom", "FROM THE MACHINE"]).status == 0)
        _ = try Hub.sync(machine)
        #expect(try Self.eventually { try Self.texts(browser, "cat").contains("FROM THE MACHINE") })
    }

    @Test func changesFromAnotherSiteOrWithoutAnOriginAndOtherPeoplesRequestsAreRefused() throws {
        let sandbox = try Sandbox()
        let hub = try Self.hub(in: sandbox)
        let ann = HubBrowser(hub: hub, sandbox: sandbox)
        #expect(try ann.signUpAndIn("ann").status == 201)
        #expect(try ann.call("POST", "/api/creations/", json: #"{"name":"secret","canvas":"60x40"}"#).status == 201)
        let before = try Self.events(hub)

        // CSRF: a page elsewhere posting with ann's cookie, or a request with no origin at all.
        let foreign = try ann.call("POST", "/api/creations/secret/edits", json: #"{"op":"text","top":"EVIL"}"#, origin: "https://evil.example")
        #expect(foreign.status == 403 && foreign.text.contains("cross-origin"), "\(foreign.text)")
        let bare = try ann.call("POST", "/api/creations/secret/edits", json: #"{"op":"text","top":"EVIL"}"#, origin: .some(nil))
        #expect(bare.status == 403, "\(bare.text)")
        // Another site cannot sign a visitor in to an account of its choosing either.
        #expect(try ann.call("POST", "/v1/browser/session", json: #"{"user":"ann","password":"x"}"#, origin: "https://evil.example").status == 403)
        #expect(try Self.events(hub) == before, "nothing of the refused changes was stored")

        // Another person guesses names and streams: 404 and empty answers, never ann's.
        let bob = HubBrowser(hub: hub, sandbox: sandbox)
        #expect(try bob.signUpAndIn("bob").status == 201)
        for path in ["/api/creations/secret", "/api/creations/secret/render", "/api/creations/secret/history", "/api/creations/secret/export"] {
            let answer = try bob.call("GET", path)
            #expect(answer.status == 404, "\(path): \(answer.status) \(answer.text.prefix(200))")
        }
        #expect(try bob.call("POST", "/api/creations/secret/edits", json: #"{"op":"text","top":"BOB"}"#).status == 404)
        let listed = try bob.call("GET", "/api/creations")
        #expect(listed.status == 200 && !listed.text.contains("secret"), "\(listed.text)")
        #expect(try bob.call("GET", "/app/../../cache/copies").status == 404)
        #expect(try Self.texts(ann, "secret").isEmpty, "bob's edit reached nothing of ann's")
    }

    @Test func aRevokedBrowserIsSignedOutOnItsNextRequest() throws {
        let sandbox = try Sandbox()
        let hub = try Self.hub(in: sandbox)
        let browser = HubBrowser(hub: hub, sandbox: sandbox)
        #expect(try browser.signUpAndIn("cy").status == 201)
        #expect(try browser.call("GET", "/api/creations").status == 200)
        let machine = try Hub.machine(hub, "cy", signUp: false)
        let account = try machine.run(["account", "--json"]).stdout
        let devices = (try? JSONSerialization.jsonObject(with: Data(account.utf8)) as? [String: Any])?["devices"] as? [[String: Any]] ?? []
        let session = try #require(devices.first { ($0["device"] as? String ?? "").hasPrefix("browser: ") }?["id"] as? String, "\(account)")
        #expect(try machine.run(["account", "revoke", String(session.prefix(8))]).status == 0)
        let after = try browser.call("GET", "/api/creations")
        #expect(after.status == 401 && after.text.contains("signedOut"), "\(after.text)")
        #expect(try browser.call("GET", "/").text.contains("signin-form"))
    }

    /// Hubs keep the sessions they looked up lately (`SessionCache`): one revoked through
    /// another hub, or deleted from the database by hand, is refused before the 10 s a kept
    /// session lives without a notice.
    @Test func aSessionEndedThroughAnotherHubOrByHandIsRefusedAtOnce() throws {
        let sandbox = try Sandbox()
        let first = try Self.hub(in: sandbox)
        let second = try Self.hub(database: first.database, in: sandbox, cache: "cache-2")
        // Both hubs listen for changes (only then do they keep sessions).
        let database = String(first.database.split(separator: "/").last?.split(separator: "?").first ?? "")
        #expect(try Self.eventually {
            try Hub.cluster.sql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND query ILIKE 'LISTEN%'",
                                database: first.database).trimmingCharacters(in: .whitespacesAndNewlines) == "2"
        }, "both hubs listen")
        let browser = HubBrowser(hub: first, sandbox: sandbox)
        #expect(try browser.signUpAndIn("dot").status == 201)
        let elsewhere = browser.on(second)
        let machine = try Hub.machine(first, "dot", signUp: false)
        let account = try machine.run(["account", "--json"]).stdout
        let devices = (try? JSONSerialization.jsonObject(with: Data(account.utf8)) as? [String: Any])?["devices"] as? [[String: Any]] ?? []
        let session = try #require(devices.first { ($0["device"] as? String ?? "").hasPrefix("browser: ") }?["id"] as? String, "\(account)")

        // The second hub looks the session up and keeps it; the first revokes it. A kept
        // session is trusted for 10 s from its lookup, so a refusal seen before 9.5 s from
        // just before that lookup can only come from the notice: however slow the machine,
        // the wait ends there.
        var kept = Date()
        for _ in 0..<3 { #expect(try elsewhere.call("GET", "/api/creations").status == 200) }
        #expect(try machine.run(["account", "revoke", String(session.prefix(8))]).status == 0)
        let refused = Self.eventually(until: kept + 9.5) { (try? elsewhere.call("GET", "/api/creations").status) == 401 }
        #expect(refused, "the second hub heard of the revoke")

        // Signed in again; the session deleted by hand, as an operator might.
        kept = Date()
        #expect(try elsewhere.signIn("dot").status == 201)
        for _ in 0..<3 { #expect(try browser.call("GET", "/api/creations").status == 200) }
        _ = try Hub.cluster.sql("DELETE FROM sessions WHERE device LIKE 'browser: %'", database: first.database)
        #expect(Self.eventually(until: kept + 9.5) { (try? browser.call("GET", "/api/creations").status) == 401 }, "the first hub heard of the delete")
        #expect(Self.eventually(until: kept + 9.5) { (try? elsewhere.call("GET", "/api/creations").status) == 401 }, "and so did the second")
    }

    @Test func aHubKilledAndItsCacheDeletedLosesNothingAcknowledgedAndASecondHubServesTheSamePerson() throws {
        let sandbox = try Sandbox()
        let first = try Self.hub(in: sandbox, cache: "cache-one")
        let browser = HubBrowser(hub: first, sandbox: sandbox)
        #expect(try browser.signUpAndIn("dee").status == 201)
        #expect(try browser.call("POST", "/api/creations/", json: #"{"name":"plan","canvas":"120x80"}"#).status == 201)
        for n in 1...6 {
            #expect(try browser.call("POST", "/api/creations/plan/edits", json: #"{"op":"text","top":"EDIT \#(n)"}"#).status == 200)
        }
        // A second hub on the same database, with a cache of its own, serves the same person.
        let second = try Self.hub(database: first.database, in: sandbox, cache: "cache-two")
        let elsewhere = HubBrowser(hub: second, sandbox: sandbox)
        #expect(try elsewhere.signIn("dee").status == 201)
        #expect(try Self.texts(elsewhere, "plan") == ["EDIT 6"])
        // An edit on the second shows on the first's page.
        #expect(try elsewhere.call("POST", "/api/creations/plan/edits", json: #"{"op":"text","bottom":"FROM HUB TWO"}"#).status == 200)
        #expect(try Self.eventually { try Self.texts(browser, "plan").contains("FROM HUB TWO") })
        let stored = try Self.events(first)

        // kill -9, and the cache folder deleted: a hub started again has every acknowledged edit.
        first.kill()
        try FileManager.default.removeItem(atPath: sandbox.path("cache-one"))
        let again = try Self.hub(database: first.database, in: sandbox, cache: "cache-one")
        let back = HubBrowser(hub: again, sandbox: sandbox)
        #expect(try back.signIn("dee").status == 201)
        #expect(try Self.texts(back, "plan") == ["EDIT 6", "FROM HUB TWO"])
        #expect(try Self.events(again) == stored)
        // Undo on the page steps back through the edits made before the kill.
        #expect(try back.call("POST", "/api/creations/plan/edits", json: #"{"op":"undo"}"#).status == 200)
        #expect(try Self.texts(back, "plan") == ["EDIT 6"])
    }

    /// The hub's quota holds for a page's upload: the push is refused, the page is told at
    /// once that the change may not be saved, and the copy that held it is let go, so the
    /// picture is nowhere (not in PostgreSQL, not in the next answer).
    @Test func anUploadPastTheQuotaIsRefusedAndLeavesNothing() throws {
        let sandbox = try Sandbox()
        let hub = try Self.hub(in: sandbox, extra: ["--quota-mb", "1"])
        let browser = HubBrowser(hub: hub, sandbox: sandbox)
        #expect(try browser.signUpAndIn("fay").status == 201)
        // 1000x700 pixels of noise as an uncompressed BMP: 2.1 MB, past the 1 MB quota.
        let (width, height) = (1000, 700)
        var bmp = Data("BM".utf8)
        func le(_ value: Int, _ bytes: Int) { for i in 0..<bytes { bmp.append(UInt8((value >> (8 * i)) & 0xff)) } }
        let size = 54 + width * height * 3
        le(size, 4); le(0, 4); le(54, 4); le(40, 4); le(width, 4); le(height, 4); le(1, 2); le(24, 2); le(0, 4); le(width * height * 3, 4)
        le(2835, 4); le(2835, 4); le(0, 4); le(0, 4)
        var generator = SystemRandomNumberGenerator()
        bmp.append(contentsOf: (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let file = sandbox.path("noise.bmp")
        try bmp.write(to: URL(fileURLWithPath: file))
        let started = Date()
        let refused = try browser.call("POST", "/api/creations?name=big&filename=noise.bmp", file: file, type: "image/bmp")
        #expect(refused.status == 413 && refused.text.contains("notSaved") && refused.text.contains("quota"), "\(refused.status) \(refused.text)")
        #expect(Date().timeIntervalSince(started) < 28, "the refusal is said before the copy's requests would time out (30 s)")
        #expect(try Self.events(hub) == 0)
        let listed = try browser.call("GET", "/api/creations")
        #expect(listed.status == 200 && !listed.text.contains("big"), "\(listed.text)")
    }

    @Test func overHttpsTheCookieIsSecureAndHostBound() throws {
        let sandbox = try Sandbox()
        let hub = try Self.hub(in: sandbox, extra: ["--public-url", "https://memes.example.org"])
        let browser = HubBrowser(hub: hub, sandbox: sandbox, origin: "https://memes.example.org")
        let signIn = try browser.signUpAndIn("eve")
        let cookie = signIn.header("set-cookie") ?? ""
        #expect(signIn.status == 201 && cookie.hasPrefix("__Host-memery-session=") && cookie.contains("; Secure"), "\(cookie)")
    }
}

/// A browser on a hub, as curl does it: a cookie jar of its own, and an Origin on changes
/// (the hub's own unless told otherwise).
struct HubBrowser {
    let hub: HubProcess
    let jar: String
    let origin: String

    init(hub: HubProcess, sandbox: Sandbox, origin: String? = nil) {
        self.hub = hub
        jar = sandbox.path("jar-\(UUID().uuidString.prefix(8))")
        self.origin = origin ?? hub.address
    }

    private init(hub: HubProcess, jar: String, origin: String) {
        self.hub = hub
        self.jar = jar
        self.origin = origin
    }

    /// The same browser (its cookie jar: cookies do not tell ports apart) on another hub.
    func on(_ other: HubProcess) -> HubBrowser { HubBrowser(hub: other, jar: jar, origin: other.address) }

    struct Answer {
        var status: Int
        var body: Data
        var headers: String
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? {
            headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// `origin`: nil sends none; by default the hub's own on a change.
    func call(_ method: String, _ path: String, json: String? = nil, file: String? = nil, type: String? = nil,
              origin: String?? = .none) throws -> Answer {
        let id = UUID().uuidString.prefix(8)
        let bodyFile = "\(jar)-\(id).body", headerFile = "\(jar)-\(id).head"
        defer { try? FileManager.default.removeItem(atPath: bodyFile); try? FileManager.default.removeItem(atPath: headerFile) }
        var arguments = ["-s", "-X", method, "-b", jar, "-c", jar, "-o", bodyFile, "-D", headerFile, "-w", "%{http_code}"]
        let sentOrigin: String? = switch origin { case .none: method == "GET" ? nil : self.origin; case .some(let chosen): chosen }
        if let sentOrigin { arguments += ["-H", "Origin: \(sentOrigin)"] }
        if let json { arguments += ["-H", "Content-Type: application/json", "--data-binary", json] }
        if let file { arguments += ["-H", "Content-Type: \(type ?? "application/octet-stream")", "--data-binary", "@" + file] }
        let status = try PostgresCluster.command("/usr/bin/curl", arguments + [hub.address + path])
        return Answer(status: Int(status.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0,
                      body: (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))) ?? Data(),
                      headers: (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? "")
    }

    func signIn(_ user: String) throws -> Answer {
        try call("POST", "/v1/browser/session", json: #"{"user":"\#(user)","password":"\#(HubSyncTests.password)"}"#)
    }

    func signUpAndIn(_ user: String) throws -> Answer {
        let made = try call("POST", "/v1/accounts", json: #"{"user":"\#(user)","password":"\#(HubSyncTests.password)"}"#)
        #expect(made.status == 201, "\(made.text)")
        return try signIn(user)
    }
}
