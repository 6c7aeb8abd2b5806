import Crypto
import Foundation
import Testing

enum SHA256Hex {
    static func of(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }
}

/// The hub's public library as people use it with `memery`: a manager's weekly
/// recommendations, published templates, shared links, and search over all three.
@Suite(.serialized, .enabled(if: PostgresCluster.shared != nil, "no PostgreSQL cluster could be started (PostgreSQLIsThereForTheHubTests says why)"))
struct HubLibraryTests {
    typealias Hub = HubSyncTests

    static func json(_ outcome: Outcome) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]) ?? [:]
    }

    static func ids(_ listing: [String: Any]) -> [String] { (listing["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }

    /// curl, to see what a browser or a chat app gets: the headers, and the body in `file`.
    static func fetch(_ url: String, to file: String, method: String = "GET") throws -> String {
        // HEAD with -I: with -X HEAD curl waits for the body the length announces.
        try PostgresCluster.command("/usr/bin/curl", (method == "HEAD" ? ["-s", "-I"] : ["-s", "-X", method, "-D", "-", "-o", file]) + [url]).lowercased()
    }

    @Test func aManagerCuratesTheWeekAndAnyoneBrowsesItAndStartsFromIt() throws {
        let hub = try Hub.hub()
        let boss = try Hub.machine(hub, "boss", signUp: true)
        let una = try Hub.machine(hub, "una", signUp: true)
        let stranger = try Sandbox()

        // A user is not a manager; the hub, not the client, refuses.
        let refused = try una.run(["recommend", "add", Paths.example, "--title", "Mine"])
        #expect(refused.status == 4 && refused.stderr.contains("only a manager"), "\(refused)")
        #expect(try Sandbox.run(["hub", "grant-manager", "boss", "--database", hub.database]).status == 0)
        #expect(try boss.run(["logout"]).status == 0)
        #expect(try boss.run(["login", hub.address, "--user", "boss", "--password-stdin"], input: Hub.password + "\n").status == 0)

        let first = Self.json(try boss.run(["recommend", "add", Paths.example, "--title", "Grumpy cat", "--tag", "cat", "--tag", "grumpy", "--json"]))
        #expect(first["kind"] as? String == "recommendation" && first["position"] as? Int == 1, "\(first)")
        #expect(try boss.run(["new", "wow", "--canvas", "320x200", "--background", "navy"]).status == 0)
        #expect(try boss.run(["text", "wow", "--top", "SUCH WOW"]).status == 0)
        let second = Self.json(try boss.run(["recommend", "add", "wow", "--title", "Such wow", "--tag", "doge", "--json"]))
        #expect(second["width"] as? Int == 320 && second["height"] as? Int == 200 && second["position"] as? Int == 2, "\(second)")
        #expect(try boss.run(["recommend", "add", Paths.example, "--title", "Old times", "--week", "2026-W01"]).status == 0)
        #expect(try boss.run(["recommend", "add", Paths.example, "--title", "x", "--week", "2026-W54"]).status == 1, "no such week")

        // Anyone, without an account, browses this week and past weeks.
        var week = Self.json(try stranger.run(["recommended", "--hub", hub.address, "--json"], useStore: true))
        let firstID = first["id"] as? String ?? "", secondID = second["id"] as? String ?? ""
        #expect(Self.ids(week) == [firstID, secondID], "\(week)")
        #expect((week["weeks"] as? [String] ?? []).contains("2026-W01"))
        let old = Self.json(try stranger.run(["recommended", "--hub", hub.address, "--week", "2026-W01", "--json"]))
        #expect((old["items"] as? [[String: Any]])?.first?["title"] as? String == "Old times")

        // Reordered by the manager, not by a user.
        #expect(try una.run(["recommend", "move", secondID, "1"]).status == 4)
        #expect(try boss.run(["recommend", "move", secondID, "1"]).status == 0)
        week = Self.json(try stranger.run(["recommended", "--hub", hub.address, "--json"]))
        #expect(Self.ids(week) == [secondID, firstID])

        // A picture this memery cannot decode (uploaded past the client) is skipped with a note:
        // a PNG cut short, made here (the test needs nothing from ../shared).
        let brokenPath = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).png").path
        let broken = Data(try Data(contentsOf: URL(fileURLWithPath: Paths.example)).prefix(100))
        try broken.write(to: URL(fileURLWithPath: brokenPath))
        defer { try? FileManager.default.removeItem(atPath: brokenPath) }
        let token = try Self.token(boss)
        let hash = SHA256Hex.of(broken)
        _ = try PostgresCluster.command("/usr/bin/curl", ["-s", "-X", "PUT", "-H", "Authorization: Bearer \(token)", "--data-binary",
                                                          "@" + brokenPath, hub.address + "/v1/blobs/" + hash])
        let body = #"{"title":"Broken","tags":[],"hash":"\#(hash)","contentType":"image/png","width":10,"height":10}"#
        let posted = try PostgresCluster.command("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json",
                                                                   "--data", body, hub.address + "/v1/recommendations"])
        #expect(posted.contains("\"Broken\""), "\(posted)")
        // A title that would drive a terminal is refused by the hub.
        let evil = #"{"title":"Evil\u001b[2J","tags":[],"hash":"\#(hash)","contentType":"image/png","width":10,"height":10}"#
        let refusedTitle = try PostgresCluster.command("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json",
                                                                         "--data", evil, hub.address + "/v1/recommendations"])
        #expect(refusedTitle.contains("control characters"), "\(refusedTitle)")
        let listed = try stranger.run(["recommended", "--hub", hub.address])
        #expect(listed.status == 0 && !listed.stdout.contains("Broken") && listed.stdout.contains("Grumpy cat"), "\(listed)")
        #expect(listed.stderr.contains("note: skipped") && listed.stderr.contains("Broken"), "\(listed)")

        // Starting from one: its picture becomes the new creation's base image.
        let used = try stranger.run(["recommended", "use", firstID, "--hub", hub.address, "--name", "from-the-week"])
        #expect(used.status == 0 && used.stdout.hasPrefix("from-the-week\t"), "\(used)")
        let shown = Self.json(try stranger.run(["show", "from-the-week", "--json"]))
        #expect((shown["baseImage"] as? [String: Any])?["blob"] as? String == SHA256Hex.of(try Data(contentsOf: URL(fileURLWithPath: Paths.example))),
                "\(shown)")

        // Taken down by a manager; a user cannot.
        let notHers = try una.run(["recommend", "remove", firstID]), removed = try boss.run(["recommend", "remove", firstID])
        #expect(notHers.status == 4, "\(notHers)")
        #expect(removed.status == 0, "\(removed)")
        week = Self.json(try stranger.run(["recommended", "--hub", hub.address, "--json"]))
        #expect(!Self.ids(week).contains(firstID))
        let gone = try stranger.run(["recommended", "use", firstID, "--hub", hub.address])
        #expect(gone.status == 4 && gone.stderr.contains("taken down"), "\(gone)")
    }

    @Test func searchFindsRecommendationsTemplatesAndSharesAndStartsFromThem() throws {
        let hub = try Hub.hub()
        let boss = try Hub.machine(hub, "boss", signUp: true)
        #expect(try Sandbox.run(["hub", "grant-manager", "boss", "--database", hub.database]).status == 0)
        #expect(try boss.run(["recommend", "add", Paths.example, "--title", "Grumpy cat", "--tag", "cat"]).status == 0)
        #expect(try boss.run(["new", "frame", "--image", Paths.example]).status == 0)
        #expect(try boss.run(["text", "frame", "--top", "WHEN THE BUILD", "--bottom", "IS GREEN"]).status == 0)
        #expect(try boss.run(["template", "save", "frame", "two-lines"]).status == 0)
        let template = Self.json(try boss.run(["template", "publish", "two-lines", "--title", "Two lines over a photo", "--tag", "classic", "--json"]))
        #expect(template["kind"] as? String == "template" && template["baseHash"] as? String != nil, "\(template)")
        #expect(try boss.run(["share", "frame", "--title", "Green builds", "--tag", "ci"]).status == 0)

        let reader = try Sandbox()
        func search(_ words: [String]) throws -> [[String: Any]] {
            let outcome = try reader.run(["search"] + words + ["--hub", hub.address, "--json"])
            #expect(outcome.status == 0, "\(outcome)")
            return Self.json(outcome)["items"] as? [[String: Any]] ?? []
        }
        #expect(try search(["cats"]).map { $0["title"] as? String } == ["Grumpy cat"], "the English stem finds a tag")
        #expect(try search(["green"]).map { $0["kind"] as? String } == ["share"])
        #expect(try search(["lines", "photo"]).map { $0["id"] as? String } == [template["id"] as? String])
        #expect(try search(["classic", "OR", "cat"]).count == 2)
        #expect(try search(["cat", "-grumpy"]).isEmpty)
        #expect(try search(["zebra"]).isEmpty)
        #expect(try reader.run(["search", "cat", "--kind", "template", "--hub", hub.address]).stdout.contains("nothing in the library matches"))
        #expect(try reader.run(["search", "cat"]).status == 1, "no hub named and none logged in: bad input")
        let misspelt = try reader.run(["search", "cat", "--kidn", "template", "--hub", hub.address])
        #expect(misspelt.status == 1 && misspelt.stderr.contains("unknown option --kidn"), "\(misspelt)")

        // Words full-text search cannot split are found inside titles and tags; accents either way.
        #expect(try boss.run(["share", "frame", "--title", "日本の猫 😺 cafe\u{301}", "--tag", "猫"]).status == 0)
        for words in [["😺"], ["日本"], ["café"], ["cafe\u{301}"]] {
            #expect(try search(words).map { $0["title"] as? String } == ["日本の猫 😺 café"], "\(words)")
        }

        // A command takes down its own kind only; a manager may take down anyone's entry.
        let share = try search(["green"]).first?["id"] as? String ?? ""
        let wrongKind = try boss.run(["template", "unpublish", share])
        #expect(wrongKind.status == 1 && wrongKind.stderr.contains("is a share, not a template"), "\(wrongKind)")
        let ann = try Hub.machine(hub, "ann", signUp: true)
        #expect(try ann.run(["new", "mine", "--canvas", "40x40"]).status == 0)
        let annLink = try ann.run(["share", "mine"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try boss.run(["share", "--revoke", annLink]).status == 0, "a manager moderates the library")

        // A published template starts a creation with its base picture and its text boxes.
        let made = try reader.run(["new", "mine", "--from-hub", template["id"] as? String ?? "", "--hub", hub.address])
        #expect(made.status == 0, "\(made)")
        let shown = Self.json(try reader.run(["show", "mine", "--json"]))
        let texts = (shown["layers"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        #expect(texts.sorted() == ["IS GREEN", "WHEN THE BUILD"], "\(shown)")
        let ours = try Hub.exported(boss, "frame"), theirs = try Hub.exported(reader, "mine")
        #expect(ours.count > 1000 && ours == theirs, "the same template over the same picture renders the same")
        #expect(try reader.run(["verify"]).status == 0)
    }

    @Test func aShareIsAPublicPictureUntilItsLinkIsRevoked() throws {
        let hub = try Hub.hub()
        let alice = try Hub.machine(hub, "alice", signUp: true)
        let mallory = try Hub.machine(hub, "mallory", signUp: true)
        #expect(try alice.run(["new", "cat", "--image", Paths.example]).status == 0)
        #expect(try alice.run(["text", "cat", "--top", "SHARE ME"]).status == 0)
        let shared = try alice.run(["share", "cat", "--format", "jpeg"])
        let link = shared.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(shared.status == 0 && link.hasPrefix(hub.address + "/s/") && link.hasSuffix(".jpg"), "\(shared)")
        let id = String(link.split(separator: "/").last?.split(separator: ".").first ?? "")
        #expect(id.count == 22, "128 random bits")
        // Shared again unchanged, it is the same link; once changed, a new one (the first stays).
        let again = try alice.run(["share", "cat", "--format", "jpeg"])
        #expect(again.status == 0 && again.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == link, "\(again)")
        #expect(try alice.run(["text", "cat", "--bottom", "AND AGAIN"]).status == 0)
        let changed = try alice.run(["share", "cat", "--format", "jpeg"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(changed.hasPrefix(hub.address + "/s/") && changed != link, "\(changed)")
        #expect(try alice.run(["undo", "cat"]).status == 0)

        // Anyone with the link gets the picture, as exported, with a type and cache headers.
        let file = alice.path("shared.jpg")
        let headers = try Self.fetch(link, to: file)
        #expect(headers.contains("200 ok") && headers.contains("content-type: image/jpeg") && headers.contains("cache-control: public"), "\(headers)")
        #expect(headers.contains("x-content-type-options: nosniff") && headers.contains("etag: \""), "\(headers)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(contentsOf: URL(fileURLWithPath: try Self.export(alice, "cat", "jpg"))))
        #expect(try Self.fetch(link, to: "/dev/null", method: "HEAD").contains("content-length: \(try Data(contentsOf: URL(fileURLWithPath: file)).count)"))
        // A link with another extension is sent to the right one (issue 30's small defects: /s/ID.png served a JPEG).
        let wrong = try Self.fetch(hub.address + "/s/\(id).png", to: "/dev/null")
        #expect(wrong.contains("308") && wrong.contains("location: /s/\(id.lowercased()).jpg"), "\(wrong)")

        // Only the sharer takes it down; then the link is gone.
        let stolen = try mallory.run(["share", "--revoke", link])
        #expect(stolen.status == 4 && stolen.stderr.contains("only who published"), "\(stolen)")
        #expect(try alice.run(["share", "--revoke", link]).status == 0)
        #expect(try Self.fetch(link, to: "/dev/null").contains("404 not found"))
        #expect(try alice.run(["share"]).status == 2, "a name or --revoke: a usage error")
        #expect(try alice.run(["share", "nothing-by-this-name"]).status != 0)
    }

    @Test func aSearchThatRunsTooLongIsStoppedWithAMessage() throws {
        let hub = try Hub.hub(extra: ["--search-timeout", "1"]), cluster = Hub.cluster
        let reader = try Sandbox()
        #expect(try reader.run(["search", "cat", "--hub", hub.address]).status == 0)
        // Another session holds the library locked: the search waits, and is stopped.
        let name = String(hub.database.split(separator: "/").last?.split(separator: "?").first ?? "")
        let locker = Process()
        locker.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        locker.arguments = ["-h", "127.0.0.1", "-p", String(cluster.port), "-U", "memery", "-d", name, "-q", "-c",
                            "BEGIN; LOCK TABLE library IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(600); COMMIT;"]
        locker.standardOutput = FileHandle.nullDevice
        locker.standardError = FileHandle.nullDevice
        try locker.run()
        defer {
            _ = try? cluster.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600)%' AND pid <> pg_backend_pid()",
                                 database: hub.database)
            if locker.isRunning { kill(locker.processIdentifier, SIGKILL) }
            locker.waitUntilExit()
        }
        var locked = false
        for _ in 0..<600 where !locked {
            locked = (try? cluster.sql("SELECT count(*) FROM pg_locks WHERE relation = 'library'::regclass AND mode = 'AccessExclusiveLock'",
                                       database: hub.database))?.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
            if !locked { usleep(100_000) }
        }
        #expect(locked)
        let stopped = try reader.run(["search", "cat", "--hub", hub.address])
        #expect(stopped.status == 4 && stopped.stderr.contains("took longer than 1 s and was stopped"), "\(stopped)")
    }

    static func token(_ machine: Sandbox) throws -> String {
        let login = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: machine.store + "/hub/login.json"))) as? [String: Any]
        return login?["token"] as? String ?? ""
    }

    static func export(_ machine: Sandbox, _ name: String, _ ext: String) throws -> String {
        let file = machine.path("\(name)-\(UUID().uuidString.prefix(6)).\(ext)")
        #expect(try machine.run(["export", name, "-o", file]).status == 0)
        return file
    }
}
