import Foundation
import Testing

/// The hub on a throwaway PostgreSQL, and stores syncing through it as a person does it:
/// with the `memery` command. Two stores stand for two machines.
@Suite(.serialized, .enabled(if: PostgresCluster.shared != nil, "no PostgreSQL cluster could be started (PostgreSQLIsThereForTheHubTests says why)"))
struct HubSyncTests {
    /// The suite runs only when this started (see the trait above).
    static var cluster: PostgresCluster { PostgresCluster.shared! }

    /// A new database and a hub on it.
    static func hub(extra: [String] = []) throws -> HubProcess {
        try HubProcess(database: try cluster.newDatabase(), extra: extra)
    }

    static let password = "correct horse"

    /// A store signed up as (or logged in to) `user` on `hub`.
    static func machine(_ hub: HubProcess, _ user: String, signUp: Bool) throws -> Sandbox {
        let machine = try Sandbox()
        let arguments = signUp ? ["account", "signup", hub.address, "--user", user] : ["login", hub.address, "--user", user]
        let outcome = try machine.run(arguments + ["--password-stdin"], input: password + "\n")
        #expect(outcome.status == 0, "\(outcome)")
        return machine
    }

    static func sync(_ machine: Sandbox) throws -> [String: Any] {
        let outcome = try machine.run(["sync", "--json"])
        #expect(outcome.status == 0, "\(outcome)")
        return (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]) ?? [:]
    }

    static func exported(_ machine: Sandbox, _ name: String) throws -> Data {
        let file = machine.path("\(name)-\(UUID().uuidString.prefix(6)).png")
        let outcome = try machine.run(["export", name, "-o", file])
        #expect(outcome.status == 0, "\(outcome)")
        return (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
    }

    static func history(_ machine: Sandbox, _ name: String) throws -> String {
        let outcome = try machine.run(["history", name, "--json"])
        #expect(outcome.status == 0, "\(outcome)")
        return outcome.stdout
    }

    static func list(_ machine: Sandbox) throws -> [String] {
        try machine.run(["list"]).stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
    }

    @Test func aCreationWithItsPictureTravelsToASecondMachineAndBothConverge() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "alice", signUp: true)
        let b = try Self.machine(hub, "alice", signUp: false)
        #expect(try a.run(["new", "cat", "--image", Paths.example]).status == 0)
        #expect(try a.run(["text", "cat", "--top", "ONE DOES NOT", "--bottom", "SIMPLY SYNC"]).status == 0)
        #expect(try a.run(["garage", "add", Paths.example, "--name", "kitty", "--tag", "cats"]).status == 0)

        let up = try Self.sync(a)
        #expect(up["eventsUp"] as? Int ?? 0 >= 4)
        #expect(up["picturesUp"] as? Int == 1, "one picture, used twice, goes up once: \(up)")
        #expect(up["creationsDown"] as? Int == 0 && up["eventsDown"] as? Int == 0, "its own events coming back are not news: \(up)")
        let down = try Self.sync(b)
        #expect(down["eventsDown"] as? Int == up["eventsUp"] as? Int)
        #expect(down["picturesDown"] as? Int == 1)

        #expect(try Self.list(b) == ["cat"])
        #expect(try b.run(["garage", "list"]).stdout.contains("kitty"))
        #expect(try Self.history(a, "cat") == Self.history(b, "cat"))
        let picture = try Self.exported(b, "cat")
        let original = try Self.exported(a, "cat")
        #expect(picture.count > 1000 && picture == original)
        #expect(try a.run(["verify"]).status == 0)
        #expect(try b.run(["verify"]).status == 0)

        // Again, and again with where it got forgotten: nothing moves twice, nothing doubles.
        let again = try Self.sync(b)
        #expect(again["eventsUp"] as? Int == 0 && again["eventsDown"] as? Int == 0, "\(again)")
        try FileManager.default.removeItem(atPath: a.store + "/hub/sync.json")
        let replay = try Self.sync(a)
        #expect(replay["eventsUp"] as? Int == 0 && replay["eventsDown"] as? Int == 0, "a replayed sync stores nothing: \(replay)")
        #expect(try Self.history(a, "cat") == Self.history(b, "cat"))
        #expect(try HubSyncTests.cluster.sql("SELECT count(*) - count(DISTINCT id) FROM events", database: hub.database)
                    .trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// How many requests the hub answered on `path` (not its sub-paths) with `method`, from
    /// its log (one line per answer).
    static func answered(_ method: String, _ path: String, in log: String) -> Int {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { line in
            line.contains("answered") && line.contains("method=\(method) ")
                && (line.contains("path=\(path) ") || line.hasSuffix("path=\(path)"))
        }.count
    }

    /// A sync that pushes gets what it has not pulled in the push's answer: one request, and a
    /// second only when the page is full. One that has nothing to push pulls once.
    @Test func aSyncThatPushesTakesOneRoundTripAndStillBringsTheOtherMachinesEdits() throws {
        let log = NSTemporaryDirectory() + "hub-\(UUID().uuidString.prefix(8)).log"
        let hub = try HubProcess(database: try Self.cluster.newDatabase(), log: log)
        let a = try Self.machine(hub, "alice", signUp: true)
        let b = try Self.machine(hub, "alice", signUp: false)
        #expect(try a.run(["new", "plain", "--canvas", "64x64"]).status == 0)
        let up = try Self.sync(a)
        #expect(up["eventsUp"] as? Int ?? 0 >= 2 && up["eventsDown"] as? Int == 0, "\(up)")
        #expect(Self.answered("POST", "/v1/events", in: log) == 1)
        #expect(Self.answered("GET", "/v1/events", in: log) == 0, "the push's answer carried the pull")
        // Nothing to push: one pull.
        let down = try Self.sync(b)
        #expect(down["eventsDown"] as? Int == up["eventsUp"] as? Int)
        #expect(Self.answered("POST", "/v1/events", in: log) == 1 && Self.answered("GET", "/v1/events", in: log) == 1)
        // Both edit; b's push brings a's edit back with it.
        #expect(try a.run(["text", "plain", "--top", "FROM A"]).status == 0)
        #expect(try Self.sync(a)["eventsUp"] as? Int == 1)
        #expect(try b.run(["text", "plain", "--bottom", "FROM B"]).status == 0)
        let both = try Self.sync(b)
        #expect(both["eventsUp"] as? Int == 1 && both["eventsDown"] as? Int == 1, "\(both)")
        #expect(Self.answered("POST", "/v1/events", in: log) == 3 && Self.answered("GET", "/v1/events", in: log) == 1)
        #expect(try Self.history(a, "plain") != Self.history(b, "plain"), "a has not pulled b's edit yet")
        _ = try Self.sync(a)
        #expect(try Self.history(a, "plain") == Self.history(b, "plain"))
        #expect(try Self.exported(a, "plain") == Self.exported(b, "plain"))
    }

    @Test func offlineEditsOnTwoMachinesBecomeBranchesAndTheHeadIsTheLatest() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "bob", signUp: true)
        let b = try Self.machine(hub, "bob", signUp: false)
        #expect(try a.run(["new", "meme", "--canvas", "320x200"]).status == 0)
        #expect(try a.run(["text", "meme", "--top", "BEFORE"]).status == 0)
        _ = try Self.sync(a)
        _ = try Self.sync(b)
        // Offline: each machine edits the same creation; b edits last.
        #expect(try a.run(["text", "meme", "--top", "FROM A"]).status == 0)
        #expect(try a.run(["shape", "add", "meme", "--rect", "10,10,50,40"]).status == 0)
        Thread.sleep(forTimeInterval: 0.02)
        #expect(try b.run(["text", "meme", "--top", "FROM B"]).status == 0)

        _ = try Self.sync(a)
        let toB = try b.run(["sync"])
        #expect(toB.stdout.contains("note: \"meme\" was edited here and on another machine: both lines are kept as branches"), "\(toB)")
        let toA = try Self.sync(a)
        #expect(toA["branched"] as? [String] == ["meme"], "\(toA)")
        #expect(try Self.sync(a)["branched"] as? [String] == [], "said once")

        let historyA = try Self.history(a, "meme"), historyB = try Self.history(b, "meme")
        #expect(historyA == historyB)
        let (pictureA, pictureB) = (try Self.exported(a, "meme"), try Self.exported(b, "meme"))
        #expect(pictureA == pictureB)
        // The head is b's edit, made last; a's line is a branch, one checkout away.
        #expect(try a.run(["show", "meme"]).stdout.contains("FROM B"))
        let tree = try JSONSerialization.jsonObject(with: Data(historyA.utf8)) as? [String: Any]
        let nodes = tree?["nodes"] as? [[String: Any]] ?? []
        #expect(nodes.contains { ($0["children"] as? [Any])?.count == 2 }, "the edit both were made on has two children: \(historyA)")
        #expect(try a.run(["checkout", "meme", "--event", "5"]).status == 0)
        #expect(try a.run(["show", "meme"]).stdout.contains("FROM A"))
        #expect(try a.run(["verify"]).status == 0 && b.run(["verify"]).status == 0)
    }

    @Test func syncingNamedCreationsCarriesThoseAloneAndAWholeSyncTheRest() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "nina", signUp: true)
        let b = try Self.machine(hub, "nina", signUp: false)
        #expect(try a.run(["new", "one", "--canvas", "60x60"]).status == 0)
        #expect(try a.run(["new", "two", "--image", Paths.example]).status == 0)
        _ = try Self.sync(a)
        // b asks for "two" alone, which it knows only from the hub.
        let partial = try b.run(["sync", "two", "--json"])
        #expect(partial.status == 0, "\(partial)")
        #expect(try Self.list(b) == ["two"])
        #expect(try Self.exported(b, "two") == Self.exported(a, "two"))

        // a pushes its edit of "one" alone; "two"'s edit waits for a whole sync.
        #expect(try a.run(["text", "one", "--top", "ONE"]).status == 0)
        #expect(try a.run(["text", "two", "--top", "TWO"]).status == 0)
        let up = try a.run(["sync", "one", "--json"])
        let counts = (try? JSONSerialization.jsonObject(with: Data(up.stdout.utf8)) as? [String: Any]) ?? [:]
        #expect(counts["eventsUp"] as? Int == 1 && counts["creationsUp"] as? Int == 1, "\(up)")
        _ = try Self.sync(b)
        #expect(try Self.list(b) == ["one", "two"])
        #expect(try b.run(["show", "one"]).stdout.contains("ONE") && !b.run(["show", "two"]).stdout.contains("TWO"))
        let rest = try Self.sync(a)
        #expect(rest["eventsUp"] as? Int == 1, "the rest goes with the whole sync: \(rest)")
        _ = try Self.sync(b)
        #expect(try Self.history(a, "two") == Self.history(b, "two"))

        let unknown = try a.run(["sync", "nothing-by-this-name"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no creation named \"nothing-by-this-name\""), "\(unknown)")
        #expect(try a.run(["sync", "one", "--watch"]).status == 1)
    }

    @Test func aNameTakenOnBothMachinesGivesTheLaterCreationASuffix() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "carol", signUp: true)
        let b = try Self.machine(hub, "carol", signUp: false)
        #expect(try a.run(["new", "dog", "--canvas", "100x100"]).status == 0)
        Thread.sleep(forTimeInterval: 0.02)
        #expect(try b.run(["new", "dog", "--canvas", "200x100"]).status == 0)
        _ = try Self.sync(a)
        let outcome = try b.run(["sync"])
        #expect(outcome.status == 0 && outcome.stdout.contains("\"dog\"") && outcome.stdout.contains("dog-2"), "\(outcome)")
        _ = try Self.sync(a)
        #expect(try Self.list(a) == ["dog", "dog-2"] && Self.list(b) == ["dog", "dog-2"])
        // The later one, b's 200x100, is the one renamed.
        #expect(try a.run(["show", "dog-2"]).stdout.contains("200x100"))
        #expect(try b.run(["show", "dog"]).stdout.contains("100x100"))
    }

    @Test func anotherUserGuessingIdsHashesAndCursorsGetsNothing() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "dave", signUp: true)
        #expect(try a.run(["new", "secret", "--image", Paths.example]).status == 0)
        _ = try Self.sync(a)
        let mallory = try Self.machine(hub, "mallory", signUp: true)
        let down = try Self.sync(mallory)
        #expect(down["eventsDown"] as? Int == 0)
        #expect(try mallory.run(["list"]).stdout.contains("no creations yet"))

        let token = try Self.token(mallory)
        let hash = String(try Self.cluster.sql("SELECT encode(hash, 'hex') FROM blobs LIMIT 1", database: hub.database)
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        #expect(hash.count == 64)
        #expect(try Self.status(hub.address + "/v1/blobs/" + hash, token: token) == 404)
        #expect(try Self.body(hub.address + "/v1/events?after=0", token: token).contains("\"events\":[]"))
        #expect(try Self.status(hub.address + "/v1/account", token: "not-a-token") == 401)
        #expect(try Self.status(hub.address + "/v1/blobs/" + hash, token: try Self.token(a)) == 200)
        // Uploading the same bytes tells her nothing of who else has them: new to her, 201.
        let upload = try Self.curl(hub.address + "/v1/blobs/" + hash, token: token,
                                   ["-X", "PUT", "--data-binary", "@" + Paths.example, "-o", "/dev/null", "-w", "%{http_code}"])
        #expect(upload == "201")
    }

    @Test func aHubRestoredFromAnOlderBackupGetsTheLostEventsBackFromTheMachines() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "kim", signUp: true)
        let b = try Self.machine(hub, "kim", signUp: false)
        #expect(try a.run(["new", "kept", "--canvas", "40x40"]).status == 0)
        _ = try Self.sync(a)
        #expect(try b.run(["new", "lost", "--canvas", "50x50"]).status == 0)
        _ = try Self.sync(b)
        _ = try Self.sync(a)
        // The hub goes back to a backup made before b's push.
        try Self.cluster.sql("DELETE FROM events WHERE position > 3; UPDATE users SET position = 3", database: hub.database)
        #expect(try b.run(["new", "after", "--canvas", "60x60"]).status == 0)
        _ = try Self.sync(b)
        _ = try Self.sync(a)
        #expect(try Self.list(a) == ["after", "kept", "lost"] && Self.list(b) == ["after", "kept", "lost"])
        #expect(try Self.cluster.sql("SELECT count(*) - count(DISTINCT id) FROM events", database: hub.database)
                    .trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func loginIsLimitedAfterTenFailuresEvenWithTheRightPassword() throws {
        let hub = try Self.hub()
        _ = try Self.machine(hub, "erin", signUp: true)
        // Someone elsewhere guessed 20 times: that locks out their address, not erin.
        try Self.cluster.sql("""
            INSERT INTO login_failures (key) SELECT k FROM unnest(ARRAY['pair:erin@10.9.8.7', 'user:erin', 'address:10.9.8.7']) AS k,
            generate_series(1, 20)
            """, database: hub.database)
        let owner = try Sandbox()
        let allowed = try owner.run(["login", hub.address, "--user", "erin", "--password-stdin"], input: Self.password + "\n")
        #expect(allowed.status == 0, "guesses from another address do not lock the owner out: \(allowed)")
        let other = try Sandbox()
        for _ in 0..<10 {
            let wrong = try other.run(["login", hub.address, "--user", "erin", "--password-stdin"], input: "wrong password\n")
            #expect(wrong.status == 4 && wrong.stderr.contains("wrong user name or password"), "\(wrong)")
        }
        let refused = try other.run(["login", hub.address, "--user", "erin", "--password-stdin"], input: Self.password + "\n")
        #expect(refused.status == 4 && refused.stderr.contains("too many failed logins for erin"), "\(refused)")
        // Refused attempts reach no password: they do not add up against erin's own limit.
        for _ in 0..<3 { _ = try other.run(["login", hub.address, "--user", "erin", "--password-stdin"], input: "wrong password\n") }
        let counted = try Self.cluster.sql("SELECT count(*) FROM login_failures WHERE key = 'user:erin'", database: hub.database)
        #expect(counted.trimmingCharacters(in: .whitespacesAndNewlines) == "30", "20 from elsewhere and 10 wrong passwords: \(counted)")
        #expect(!FileManager.default.fileExists(atPath: other.store + "/hub/login.json"))
    }

    @Test func aDamagedEventOnTheHubIsRefusedWithNothingApplied() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "frank", signUp: true)
        let b = try Self.machine(hub, "frank", signUp: false)
        #expect(try a.run(["new", "x", "--canvas", "50x50"]).status == 0)
        #expect(try a.run(["text", "x", "--top", "HI"]).status == 0)
        _ = try Self.sync(a)
        try Self.cluster.sql("UPDATE events SET payload = replace(payload, 'HI', 'HO') WHERE payload LIKE '%HI%'", database: hub.database)
        let outcome = try b.run(["sync"])
        #expect(outcome.status == 4 && outcome.stderr.contains("does not match its checksum"), "\(outcome)")
        #expect(try b.run(["log"]).stdout.isEmpty, "nothing of the page was stored")
    }

    /// The damaged page came in the answer to b's own push: the pull is refused with nothing
    /// of the page stored, and the push, which the hub stored, is counted and kept.
    @Test func aDamagedPageInAPushsAnswerFailsThePullNotThePush() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "grace", signUp: true)
        let b = try Self.machine(hub, "grace", signUp: false)
        #expect(try a.run(["new", "x", "--canvas", "50x50"]).status == 0)
        #expect(try a.run(["text", "x", "--top", "HI"]).status == 0)
        _ = try Self.sync(a)
        try Self.cluster.sql("UPDATE events SET payload = replace(payload, 'HI', 'HO') WHERE payload LIKE '%HI%'", database: hub.database)
        #expect(try b.run(["new", "mine", "--canvas", "20x20"]).status == 0)
        let before = try b.run(["log"]).stdout
        let outcome = try b.run(["sync"])
        #expect(outcome.status == 4 && outcome.stderr.contains("does not match its checksum"), "\(outcome)")
        #expect(outcome.stderr.contains("had already sent") && !outcome.stderr.contains("had already sent 0 "), "\(outcome)")
        #expect(try b.run(["log"]).stdout == before, "nothing of the damaged page was stored")
        // The push was saved as done: a's machine gets b's creation, and b sends nothing again.
        _ = try Self.sync(a)
        #expect(try Self.list(a) == ["mine", "x"])
        let again = try b.run(["sync"])
        #expect(again.status == 4 && !again.stderr.contains("had already sent"), "nothing left to push: \(again)")
    }

    /// A push's answer begins with the push's own events, which the pull passes over: but
    /// only one exactly as it was sent. One the hub changed as it stored it (a trigger here)
    /// is checked like any other, and refused.
    @Test func anOwnEventTheHubChangedIsCheckedInThePushsAnswer() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "heidi", signUp: true)
        try Self.cluster.sql("""
            CREATE FUNCTION tamper() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN NEW.payload := replace(NEW.payload, 'HI', 'HO'); RETURN NEW; END $$;
            CREATE TRIGGER tamper BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION tamper();
            """, database: hub.database)
        #expect(try a.run(["new", "x", "--canvas", "50x50"]).status == 0)
        #expect(try a.run(["text", "x", "--top", "HI"]).status == 0)
        let before = try a.run(["log"]).stdout
        let outcome = try a.run(["sync"])
        #expect(outcome.status == 4 && outcome.stderr.contains("does not match its checksum"), "\(outcome)")
        #expect(try a.run(["log"]).stdout == before, "nothing of the changed page was stored")
        #expect(try a.run(["layer", "list", "x"]).stdout.contains("HI"), "the store keeps the words as written")
    }

    @Test func withTheHubDownTheStoreIsUntouchedAndTheMessageSaysSo() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "gina", signUp: true)
        #expect(try a.run(["new", "y", "--canvas", "50x50"]).status == 0)
        hub.kill()
        let before = try a.run(["log"]).stdout
        let outcome = try a.run(["sync"])
        #expect(outcome.status == 4 && outcome.stderr.contains("cannot be reached"), "\(outcome)")
        #expect(try a.run(["log"]).stdout == before)
        // A watcher says so and keeps trying, for the hub to come back.
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: Paths.memery)
        watcher.arguments = ["sync", "--watch", "--store", a.store]
        let log = a.path("watch.err")
        FileManager.default.createFile(atPath: log, contents: nil)
        watcher.standardOutput = FileHandle.nullDevice
        watcher.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try watcher.run()
        // Waited for, not slept on: a busy machine may take seconds to start it.
        func told() -> Bool { (try? String(contentsOfFile: log, encoding: .utf8))?.contains("cannot be reached") == true }
        for _ in 0..<300 where !told() { Thread.sleep(forTimeInterval: 0.1) }
        #expect(told())
        // And keeps trying: still there two seconds after saying so (plain sync would have ended).
        Thread.sleep(forTimeInterval: 2)
        #expect(watcher.isRunning)
        kill(watcher.processIdentifier, SIGKILL)
        watcher.waitUntilExit()
        // What is wrong before any request is bad input (1), not the hub's doing (4).
        let short = try Sandbox().run(["account", "signup", "http://127.0.0.1:9", "--user", "gina", "--password-stdin"], input: "short\n")
        #expect(short.status == 1 && short.stderr.contains("8 to 200 characters"), "\(short)")
        let address = try Sandbox().run(["login", "hub.example", "--user", "gina", "--password-stdin"], input: "long enough\n")
        #expect(address.status == 1 && address.stderr.contains("is not a hub address"), "\(address)")
    }

    @Test func accountShowsDevicesLogoutForgetsTheTokenAndManagersAreMadeByTheHubCommand() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "hana", signUp: true)
        let b = try Self.machine(hub, "hana", signUp: false)
        let login = a.store + "/hub/login.json"
        let mode = (try FileManager.default.attributesOfItem(atPath: login)[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o600)
        let token = try Self.token(a)
        let shown = try a.run(["account"])
        #expect(shown.status == 0 && shown.stdout.contains("hana on \(hub.address)") && !shown.stdout.contains(token), "\(shown)")
        #expect(shown.stdout.split(separator: "\n").count == 3, "two devices: \(shown)")

        #expect(try Sandbox.run(["hub", "grant-manager", "hana", "--database", hub.database]).status == 0)
        #expect(try a.run(["account"]).stdout.contains("(manager)"))

        #expect(try b.run(["logout"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: b.store + "/hub/login.json"))
        #expect(try a.run(["account"]).stdout.split(separator: "\n").count == 2, "b's session is gone")
        #expect(try b.run(["sync"]).stderr.contains("not logged in"))
        // A store belongs to one account: logging it in as another is refused until logout.
        let switching = try a.run(["login", hub.address, "--user", "someone-else", "--password-stdin"], input: Self.password + "\n")
        #expect(switching.status == 1 && switching.stderr.contains("logged in as hana") && switching.stderr.contains("memery logout"), "\(switching)")
        let c = try Self.machine(hub, "hana", signUp: false)
        #expect(try a.run(["logout", "--all"]).status == 0)
        #expect(try Self.status(hub.address + "/v1/account", token: token) == 401)
        let revoked = try c.run(["sync"])
        #expect(revoked.status == 4 && revoked.stderr.contains("the hub at \(hub.address) no longer knows this device's session"), "\(revoked)")

        // Without the hub, `account` still says who and where.
        hub.kill()
        let offline = try c.run(["account"])
        #expect(offline.status == 0 && offline.stdout.contains("hana (manager) on \(hub.address)") && offline.stderr.contains("cannot be reached"), "\(offline)")
    }

    @Test func twoHubsOnOneDatabaseServeMachinesThatConverge() throws {
        let first = try Self.hub()
        let second = try HubProcess(database: first.database)
        let a = try Self.machine(first, "ivan", signUp: true)
        let b = try Self.machine(second, "ivan", signUp: false)
        #expect(try a.run(["new", "one", "--canvas", "60x60"]).status == 0)
        #expect(try b.run(["new", "two", "--canvas", "70x70"]).status == 0)
        _ = try Self.sync(a)
        _ = try Self.sync(b)
        _ = try Self.sync(a)
        #expect(try Self.list(a) == ["one", "two"] && Self.list(b) == ["one", "two"])
        #expect(try Self.history(a, "two") == Self.history(b, "two"))
    }

    @Test func killedSyncsResumeWithNothingLostOrDoubled() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "judy", signUp: true)
        let b = try Self.machine(hub, "judy", signUp: false)
        // Enough events for several pages of a push and a pull.
        #expect(try a.run(["new", "long", "--canvas", "200x100"]).status == 0)
        let lines = (0..<1_200).map { #"{"op":"text","top":"LINE \#($0)"}"# }
        let script = a.path("edits.jsonl")
        try lines.joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        #expect(try a.run(["apply", "long", "--file", script]).status == 0)
        var random = SystemRandomNumberGenerator()
        for (machine, rounds) in [(a, 3), (b, 3)] {
            for _ in 0..<rounds {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: Paths.memery)
                process.arguments = ["sync", "--store", machine.store]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.6, using: &random))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            _ = try Self.sync(machine)
        }
        _ = try Self.sync(a)
        #expect(try Self.history(a, "long") == Self.history(b, "long"))
        #expect(try b.run(["show", "long"]).stdout.contains("LINE 1199"))
        #expect(try Self.cluster.sql("SELECT count(*) FROM events", database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines) == "1203")
        #expect(try b.run(["verify"]).status == 0)
    }

    @Test func syncWatchBringsAnotherMachinesEditWithoutBeingAsked() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "lena", signUp: true)
        let b = try Self.machine(hub, "lena", signUp: false)
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: Paths.memery)
        watcher.arguments = ["sync", "--watch", "--store", b.store]
        let log = b.path("watch.log")
        FileManager.default.createFile(atPath: log, contents: nil)
        watcher.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()
        // SIGKILL: the test runner's blocked signals are inherited, so a SIGTERM would wait.
        defer { kill(watcher.processIdentifier, SIGKILL); watcher.waitUntilExit() }
        #expect(try a.run(["new", "news", "--canvas", "30x30"]).status == 0)
        _ = try Self.sync(a)
        // Up to 45 s: still well before the watcher's fallback a minute on, which is what
        // it would take had the hub's news not woken it.
        var arrived = false
        for _ in 0..<450 where !arrived {
            Thread.sleep(forTimeInterval: 0.1)
            arrived = (try? String(contentsOfFile: log, encoding: .utf8))?.contains("down 1 creation") == true
        }
        #expect(arrived, "the watching store synced within 45 s: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        #expect(try Self.list(b) == ["news"])
    }

    /// The hub's connection that listens for pushes is cut (PostgreSQL restarted it, a proxy
    /// dropped it): the hub listens again on a new connection, and a push after that still
    /// reaches the watcher and the hub goes on.
    @Test func aWatcherIsWokenAfterTheHubLostItsListeningConnection() throws {
        let hubLog = FileManager.default.temporaryDirectory.appendingPathComponent("memery-hub-\(UUID().uuidString.prefix(8)).log").path
        let hub = try HubProcess(database: try Self.cluster.newDatabase(), log: hubLog)
        defer { try? FileManager.default.removeItem(atPath: hubLog) }
        let a = try Self.machine(hub, "ines", signUp: true)
        let b = try Self.machine(hub, "ines", signUp: false)
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: Paths.memery)
        watcher.arguments = ["sync", "--watch", "--store", b.store]
        let log = b.path("watch.log")
        FileManager.default.createFile(atPath: log, contents: nil)
        watcher.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()
        defer { kill(watcher.processIdentifier, SIGKILL); watcher.waitUntilExit() }
        func text() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        for _ in 0..<600 where !text().contains("synced:") { Thread.sleep(forTimeInterval: 0.1) }
        let database = String(hub.database.split(separator: "/").last?.split(separator: "?").first ?? "")
        func listening(_ select: String) throws -> String {
            try Self.cluster.sql("SELECT \(select) FROM pg_stat_activity WHERE datname = '\(database)' AND query ILIKE 'LISTEN%'",
                                 database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for _ in 0..<600 {
            if try listening("count(*)") == "1" { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let cutPID = try listening("pid")
        #expect(try listening("count(pg_terminate_backend(pid))") == "1", "the hub's one listening connection, cut")
        // Listening again on another connection (the cut one may be listed a moment longer).
        var again = false
        for _ in 0..<600 where !again {
            Thread.sleep(forTimeInterval: 0.1)
            let pids = try listening("pid").split(separator: "\n").map(String.init)
            again = !pids.isEmpty && !pids.contains(cutPID)
        }
        #expect(again, "the hub listens again")
        #expect(try a.run(["new", "after-the-cut", "--canvas", "30x30"]).status == 0)
        _ = try Self.sync(a)
        // Arriving shows the watcher was woken (or read the position, which it does every 5 s
        // while it waits); that the hub listens again is what the pg_stat_activity check
        // above shows.
        var arrived = false
        for _ in 0..<450 where !arrived {
            Thread.sleep(forTimeInterval: 0.1)
            arrived = text().contains("down 1 creation")
        }
        #expect(arrived, "the watching store synced within 45 s: \(text()); the hub said: \((try? String(contentsOfFile: hubLog, encoding: .utf8)) ?? "")")
        #expect(hub.process.isRunning, "the hub went on")
    }

    /// A watching store sends its own edit at once: not at its next wake by the hub's news
    /// or its fallback a minute on. Another machine has the edit well before that, and the
    /// watcher synced once for it, not over and over.
    @Test func syncWatchSendsThisStoresEditAtOnce() throws {
        let hub = try Self.hub()
        let a = try Self.machine(hub, "rosa", signUp: true)
        let b = try Self.machine(hub, "rosa", signUp: false)
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: Paths.memery)
        watcher.arguments = ["sync", "--watch", "--store", a.store]
        let log = a.path("watch.log")
        FileManager.default.createFile(atPath: log, contents: nil)
        watcher.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()
        defer { kill(watcher.processIdentifier, SIGKILL); watcher.waitUntilExit() }
        func syncs() -> [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init).filter { $0.hasPrefix("synced:") }
        }
        for _ in 0..<600 where syncs().isEmpty { Thread.sleep(forTimeInterval: 0.1) }
        #expect(syncs().count == 1, "the watcher's first sync, before the edit: \(syncs())")
        // The watcher's fallback is a minute after that sync: arriving within 40 s of it is
        // the edit sent at once, however slow each sync of b is on a busy machine.
        let fallbackBefore = Date().addingTimeInterval(40)
        #expect(try a.run(["new", "mine", "--canvas", "20x20"]).status == 0)
        var arrived = false
        while !arrived, Date() < fallbackBefore {
            Thread.sleep(forTimeInterval: 0.5)
            _ = try Self.sync(b)
            arrived = try Self.list(b) == ["mine"]
        }
        #expect(arrived, "the edit reached the other machine within 40 s of the first sync (the fallback is a minute): \(syncs())")
        let lines = syncs()
        #expect(lines.count >= 2 && lines[1].hasPrefix("synced: up 1 creation"), "\(lines)")
        #expect(lines.count <= 3, "one sync for the edit (and perhaps one the hub's news of it woke), not a loop: \(lines)")
    }

    // MARK: Plain HTTP, as another client would send it

    static func token(_ machine: Sandbox) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: machine.store + "/hub/login.json"))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["token"] as? String ?? ""
    }

    static func status(_ url: String, token: String) throws -> Int {
        Int(try curl(url, token: token, ["-o", "/dev/null", "-w", "%{http_code}"])) ?? 0
    }

    static func body(_ url: String, token: String) throws -> String { try curl(url, token: token, []) }

    static func curl(_ url: String, token: String, _ extra: [String]) throws -> String {
        try PostgresCluster.command("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer \(token)"] + extra + [url])
    }
}
