import Foundation
import Testing

/// Nobody locked out, nobody let in (issue 30 §5): limits that cannot be turned against
/// others, every password check counted, every byte of a password, bodies bounded before
/// they are read, slow senders cut off.
@Suite(.serialized, .enabled(if: PostgresCluster.shared != nil, "no PostgreSQL cluster could be started (PostgreSQLIsThereForTheHubTests says why)"))
struct HubAccessTests {
    typealias Hub = HubSyncTests

    /// POST of a JSON body with curl: (status, body).
    static func post(_ url: String, _ json: String, method: String = "POST", headers: [String] = []) throws -> (Int, String) {
        let out = try PostgresCluster.command("/usr/bin/curl", ["-s", "-X", method, "-H", "Content-Type: application/json", "--data-binary", json,
                                                               "-w", "\n%{http_code}"] + headers.flatMap { ["-H", $0] } + [url])
        return (Int(out.split(separator: "\n").last ?? "") ?? 0, String(out.split(separator: "\n").dropLast().joined(separator: "\n")))
    }

    static func login(_ hub: HubProcess, _ user: String, _ password: String, headers: [String] = []) throws -> (Int, String) {
        try post(hub.address + "/v1/sessions", #"{"user":"\#(user)","password":"\#(password)","device":"test"}"#, headers: headers)
    }

    static func count(_ hub: HubProcess, _ key: String) throws -> Int {
        Int(try Hub.cluster.sql("SELECT count(*) FROM login_failures WHERE key = '\(key)'", database: hub.database)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test func failuresForMadeUpNamesFromOneAddressLockNobodyThereOut() throws {
        let hub = try Hub.hub()
        _ = try Hub.machine(hub, "gina", signUp: true)
        // Names no account can have still cost a check, and count against the address.
        for _ in 0..<3 { #expect(try Self.login(hub, "no such name!", "guess").0 == 401) }
        #expect(try Self.count(hub, "address:127.0.0.1") == 3)
        // As after 60 guesses at made-up names from this address: past its limit it is slowed, never refused.
        try Hub.cluster.sql("INSERT INTO login_failures (key) SELECT 'address:127.0.0.1' FROM generate_series(1, 60)", database: hub.database)
        let (status, body) = try Self.login(hub, "gina", Hub.password)
        #expect(status == 201, "the right password gets in from a busy address: \(body)")
    }

    @Test func aProxysClientsAreToldApartOnlyWhenTheProxyIsTrusted() throws {
        let hub = try Hub.hub(extra: ["--trusted-proxy", "127.0.0.0/8"])
        _ = try Hub.machine(hub, "hal", signUp: true)
        let guesser = ["X-Forwarded-For: 198.51.100.7, 203.0.113.5"]
        for _ in 0..<10 { #expect(try Self.login(hub, "hal", "wrong", headers: guesser).0 == 401) }
        let blocked = try Self.login(hub, "hal", Hub.password, headers: guesser)
        #expect(blocked.0 == 429 && blocked.1.contains("too many failed logins for hal from this address"), "\(blocked)")
        #expect(try Self.count(hub, "address:203.0.113.5") >= 11, "the client the proxy names is counted, not what it claimed before")
        // Guessing on past twice the limit adds no rows: the table cannot be grown without end.
        for _ in 0..<15 { #expect(try Self.login(hub, "hal", "wrong", headers: guesser).0 == 429) }
        let rows = try Self.count(hub, "pair:hal@203.0.113.5")
        #expect(rows == 20, "\(rows) rows: twice the limit, however long the guessing")
        // The owner, behind the same proxy, is another client.
        #expect(try Self.login(hub, "hal", Hub.password, headers: ["X-Forwarded-For: 203.0.113.9"]).0 == 201)
        // A hub not told to trust the proxy counts the proxy, whatever the header says.
        let plain = try Hub.hub()
        _ = try Hub.machine(plain, "ivy", signUp: true)
        #expect(try Self.login(plain, "ivy", "wrong", headers: guesser).0 == 401)
        #expect(try Self.count(plain, "address:127.0.0.1") == 1 && Self.count(plain, "address:203.0.113.5") == 0)
    }

    @Test func aStolenTokenCannotGuessThePasswordPastTheLimits() throws {
        let hub = try Hub.hub()
        let machine = try Hub.machine(hub, "jo", signUp: true)
        let bearer = ["Authorization: Bearer \(try Hub.token(machine))"]
        for _ in 0..<10 {
            let (status, _) = try Self.post(hub.address + "/v1/account/password", #"{"old":"guess","new":"something else entirely"}"#,
                                            method: "PUT", headers: bearer)
            #expect(status == 403)
        }
        let change = try Self.post(hub.address + "/v1/account/password", #"{"old":"\#(Hub.password)","new":"something else entirely"}"#,
                                   method: "PUT", headers: bearer)
        #expect(change.0 == 429, "\(change)")
        let deletion = try Self.post(hub.address + "/v1/account", #"{"password":"\#(Hub.password)"}"#, method: "DELETE", headers: bearer)
        #expect(deletion.0 == 429, "\(deletion)")
        #expect(try Hub.cluster.sql("SELECT count(*) FROM users", database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    @Test func aNewPasswordThatIsTheOldOneIsRefusedAndSignsNobodyOut() throws {
        let hub = try Hub.hub()
        let machine = try Hub.machine(hub, "lou", signUp: true)
        let bearer = ["Authorization: Bearer \(try Hub.token(machine))"]
        let other = try Hub.machine(hub, "lou", signUp: false)
        let same = try Self.post(hub.address + "/v1/account/password", #"{"old":"\#(Hub.password)","new":"\#(Hub.password)"}"#,
                                 method: "PUT", headers: bearer)
        #expect(same.0 == 400 && same.1.contains("the new password is the one the account has now"), "\(same)")
        #expect(try Self.count(hub, "user:lou") == 0, "no password attempt counted")
        #expect(try other.run(["account"]).status == 0, "the other device is still signed in")
    }

    @Test func everyByteOfAPasswordCountsAndOldHashesStillVerify() throws {
        let hub = try Hub.hub()
        let long = String(repeating: "a", count: 72)
        #expect(try Self.post(hub.address + "/v1/accounts", #"{"user":"kai","password":"\#(long)x"}"#).0 == 201)
        #expect(try Self.login(hub, "kai", long + "y").0 == 401, "the 73rd byte counts")
        #expect(try Self.login(hub, "kai", long + "x").0 == 201)
        // A hash stored by an earlier hub: bcrypt over the password itself.
        try Hub.cluster.sql("CREATE EXTENSION IF NOT EXISTS pgcrypto", database: hub.database)
        try Hub.cluster.sql("UPDATE users SET password_hash = crypt('an older password', gen_salt('bf', 4)) WHERE name_key = 'kai'",
                            database: hub.database)
        #expect(try Self.login(hub, "kai", "an older password").0 == 201)
        #expect(try Self.login(hub, "kai", long + "x").0 == 401)
    }

    @Test func largeBodiesAreRefusedBeforeTheyAreReadAndOnlyTakenAfterALogin() throws {
        let hub = try Hub.hub()
        let port = hub.port
        // Announced: refused at once, nothing read.
        let announced = try RawHTTP(port: port)
        announced.send("POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 98566144\r\n\r\n")
        #expect(announced.receiveHead(within: 30).hasPrefix("HTTP/1.1 413"))
        // A large push without a session: 401 before its body.
        let push = try RawHTTP(port: port)
        push.send("POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer made-up\r\nContent-Length: 98566144\r\n\r\n")
        #expect(push.receiveHead(within: 30).hasPrefix("HTTP/1.1 401"))
        // Four unannounced anonymous bodies of 94 MB at once: each cut off at its route's limit.
        let before = residentMegabytes(of: hub.process.processIdentifier)
        let chunk = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            guard let connection = try? RawHTTP(port: port) else { return }
            connection.send("POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in 0..<94 {
                guard connection.send(String(chunk.count, radix: 16) + "\r\n"), connection.send(chunk), connection.send("\r\n") else { break }
            }
        }
        let after = residentMegabytes(of: hub.process.processIdentifier)
        #expect(after < before + 100, "the hub grew from \(before) MB to \(after) MB")
        // And it still answers.
        #expect(try Self.post(hub.address + "/v1/accounts", #"{"user":"lee","password":"a good long password"}"#).0 == 201)
    }

    @Test func connectionsThatTrickleAreClosed() throws {
        let hub = try Hub.hub(extra: ["--read-timeout", "1"])
        let port = hub.port
        var connections = [RawHTTP]()
        for index in 0..<20 {
            let connection = try RawHTTP(port: port)
            if index % 2 == 0 {
                connection.send("POST /v1/sessions HTTP/1.1\r\nHost: x\r\n")  // a head that never ends
            } else {
                connection.send("POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")  // a body that never comes
            }
            connections.append(connection)
        }
        // A byte now and then keeps an idle timeout from ever firing; not this one.
        for _ in 0..<4 {
            Thread.sleep(forTimeInterval: 0.5)
            for connection in connections { connection.send(" ") }
        }
        let open = connections.filter { !$0.isClosed(within: 10) }.count
        #expect(open == 0, "\(open) of 20 trickling connections are still open")
        #expect(try Self.login(hub, "nobody", "x").0 == 401, "and the hub still answers")
    }

    /// Issue 30's smaller defects: `bearer` in lower case is the same scheme; a revoked
    /// device's `memery account` says who, where and what to do; the hub's log says how
    /// each request was answered.
    @Test func smallThingsAreAnsweredRight() throws {
        let log = "/tmp/memery-hub-log-\(UUID().uuidString.prefix(8)).txt"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let hub = try HubProcess(database: try Hub.cluster.newDatabase(), log: log)
        let machine = try Hub.machine(hub, "quin", signUp: true)
        let token = try Hub.token(machine)
        let lower = try PostgresCluster.command("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "authorization: bearer \(token)",
                                                                 hub.address + "/v1/account"])
        #expect(lower == "200")
        _ = try PostgresCluster.command("/usr/bin/curl", ["-s", "-X", "DELETE", "-H", "Authorization: Bearer \(token)", hub.address + "/v1/sessions"])
        let account = try machine.run(["account"])
        #expect(account.status == 4, "\(account)")
        #expect(account.stdout.contains("quin") && account.stdout.contains(hub.address), "who and where: \(account)")
        #expect(account.stderr.contains("memery login \(hub.address) --user quin"), "what to do: \(account)")
        let lines = try String(contentsOfFile: log, encoding: .utf8)
        #expect(lines.contains("path=/v1/account") && lines.contains("status=200") && lines.contains("status=401"), "\(lines.suffix(2_000))")
    }

    /// With PostgreSQL stopped, a sync is told so once the hub sees nothing listens there
    /// (it waited out the whole 30 s deadline before, on every sync). A cluster of its own:
    /// the shared one serves the other suites meanwhile.
    @Test func aHubWhoseDatabaseIsDownSaysSoWithoutWaitingItsDeadline() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let hub = try HubProcess(database: try cluster.newDatabase())
        let machine = try Hub.machine(hub, "ria", signUp: true)
        #expect(try machine.run(["new", "x", "--canvas", "20x20"]).status == 0)
        cluster.stop()
        let outcome = try machine.run(["sync"])
        #expect(outcome.status == 4 && outcome.stderr.contains("the hub's database cannot be reached"), "\(outcome)")
    }

    /// Issue 30's defect 10: no quota, and any bytes were kept. A hub with --quota-mb keeps
    /// no more than that per user (a sync past it is refused whole, saying so); an upload
    /// that is not a picture is refused; a purge gives the room back.
    @Test func aQuotaBoundsWhatAUserKeepsAndOnlyPicturesAreKept() throws {
        let hub = try HubProcess(database: try Hub.cluster.newDatabase(), extra: ["--quota-mb", "1"])
        let machine = try Hub.machine(hub, "sol", signUp: true)
        let token = try Hub.token(machine)
        // Random bytes named by their own hash: refused as not a picture.
        let junk = Data((0..<4_096).map { _ in UInt8.random(in: 0...255) })
        let file = machine.path("junk.bin")
        try junk.write(to: URL(fileURLWithPath: file))
        let hash = SHA256Hex.of(junk)
        let put = try PostgresCluster.command("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "-H", "Authorization: Bearer \(token)",
                                                               "--data-binary", "@" + file, hub.address + "/v1/blobs/" + hash])
        #expect(put == "415")
        // Pictures of about 240 kB each, all different: three fit in 1 MB, five do not.
        func make(_ n: Int) throws {
            #expect(try machine.run(["new", "p\(n)", "--image", Paths.example]).status == 0)
            #expect(try machine.run(["text", "p\(n)", "--top", "picture \(n)"]).status == 0)
            try machine.ok(["export", "p\(n)", "-o", machine.path("p\(n).png")])
            #expect(try machine.run(["new", "q\(n)", "--image", machine.path("p\(n).png")]).status == 0)
            #expect(try machine.run(["purge", "p\(n)", "--yes"]).status == 0)
        }
        for n in 0..<3 { try make(n) }
        _ = try Hub.sync(machine)
        for n in 3..<5 { try make(n) }
        let refused = try machine.run(["sync"])
        #expect(refused.status == 4 && refused.stderr.contains("past the hub's quota of 1.0 MB"), "\(refused)")
        func used() throws -> Int {
            Int(try Hub.cluster.sql("SELECT stored_bytes FROM users WHERE name_key = 'sol'", database: hub.database)
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let full = try used()
        #expect(full > 700_000 && full <= 1 << 20, "\(full) bytes kept")
        // Purging what is on the hub gives the room back, and the purges go up ahead of what
        // did not fit (they come after it in the log): nobody is stuck past the quota.
        for n in [0, 1] { #expect(try machine.run(["purge", "q\(n)", "--yes"]).status == 0) }
        _ = try Hub.sync(machine)
        let after = try used()
        #expect(after <= 1 << 20, "\(after) bytes kept after purging q0 and q1")
        let other = try Hub.machine(hub, "sol", signUp: false)
        _ = try Hub.sync(other)
        let names = try other.ok(["list"])
        #expect(["q2", "q3", "q4"].allSatisfy(names.contains) && !names.contains("q0") && !names.contains("q1"), "\(names)")
        #expect(try other.run(["export", "q4", "-o", other.path("q4.png")]).status == 0)
    }

    /// Issue 30 §5: a picture uploaded and used by no event is taken away after a grace
    /// period (and off the hub when nobody else has it); a picture an event uses stays; the
    /// same picture used later is simply uploaded again by the sync that needs it.
    @Test func aPictureNoEventUsesIsTakenAwayAfterItsGracePeriod() throws {
        let hub = try HubProcess(database: try Hub.cluster.newDatabase(), extra: ["--unused-picture-hours", "0.003"])  // 10.8 s: the grant is read back (psql) well within it on a busy machine
        let machine = try Hub.machine(hub, "uma", signUp: true)
        let token = try Hub.token(machine)
        #expect(try machine.run(["new", "kept", "--image", Paths.example]).status == 0)
        _ = try Hub.sync(machine)
        func sql(_ query: String) throws -> String {
            try Hub.cluster.sql(query, database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func grants() throws -> [String] {
            try sql("SELECT encode(g.hash, 'hex') FROM blob_grants g JOIN users u ON u.id = g.user_id WHERE u.name_key = 'uma' ORDER BY 1")
                .split(separator: "\n").map(String.init)
        }
        let keptHashes = try grants()
        let usedBefore = try sql("SELECT stored_bytes FROM users WHERE name_key = 'uma'")
        #expect(keptHashes.count == 1, "\(keptHashes)")
        // A picture of its own (the creation exported), uploaded by hand and used by nothing.
        let file = machine.path("unused.png")
        try machine.ok(["export", "kept", "-o", file])
        let unusedHash = SHA256Hex.of(try Data(contentsOf: URL(fileURLWithPath: file)))
        func curl(_ arguments: [String]) throws -> String {
            try PostgresCluster.command("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)"] + arguments)
        }
        #expect(try curl(["-X", "PUT", "--data-binary", "@" + file, hub.address + "/v1/blobs/" + unusedHash]) == "201")
        #expect(try grants().contains(unusedHash))
        // The hub sweeps a few times per grace period; the bound below is for a loaded machine.
        let deadline = Date().addingTimeInterval(90)
        while try grants().contains(unusedHash), Date() < deadline { Thread.sleep(forTimeInterval: 0.25) }
        #expect(try grants() == keptHashes, "the unused picture is taken away, the used one stays")
        #expect(try sql("SELECT in_use FROM blob_grants WHERE encode(hash, 'hex') = '\(keptHashes.first ?? "")'") == "t")
        #expect(try sql("SELECT count(*) FROM blobs WHERE encode(hash, 'hex') = '\(unusedHash)'") == "0", "nobody else has it: off the hub")
        #expect(try sql("SELECT stored_bytes FROM users WHERE name_key = 'uma'") == usedBefore, "its room is given back")
        #expect(try curl([hub.address + "/v1/blobs/" + unusedHash]) == "404")
        #expect(try curl([hub.address + "/v1/blobs/" + (keptHashes.first ?? "")]) == "200")
        // Used after all: the sync that needs it uploads it again, and another machine gets it.
        #expect(try machine.run(["new", "later", "--image", file]).status == 0)
        _ = try Hub.sync(machine)
        #expect(try grants().contains(unusedHash))
        let other = try Hub.machine(hub, "uma", signUp: false)
        _ = try Hub.sync(other)
        #expect(try other.run(["export", "later", "-o", other.path("later.png")]).status == 0)
    }
}
