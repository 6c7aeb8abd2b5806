import Foundation
import Testing

/// Third-party plugins run in a helper process: built here with one cc line each, put on
/// MEMERY_PLUGIN_PATH, and made to crash, hang, abort and answer garbage.
@Suite(.serialized) struct PluginIsolationTests {
    static let sources = Paths.root.appendingPathComponent("Tests/MemeryRenderTests/Plugins")
    static let include = Paths.root.appendingPathComponent("Sources/MemeryPluginABI/include").path

    /// A folder of plugins: posterize.so and broken<N>.so for each N.
    func plugins(_ broken: [Int], in s: Sandbox) throws -> String {
        let dir = s.path("plugins")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var builds = [("posterize.c", [String](), "posterize.so")]
        builds += broken.map { ("broken.c", ["-DBROKEN=\($0)"], "broken\($0).so") }
        for (source, defines, output) in builds {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["cc", "-shared", "-fPIC", "-O1", "-I", Self.include] + defines
                + ["-o", dir + "/" + output, Self.sources.appendingPathComponent(source).path, "-lm"]
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
        }
        return dir
    }

    @Test func aUserPluginIsListedAppliedAndExported() throws {
        let s = try Sandbox()
        let env = ["MEMERY_PLUGIN_PATH": try plugins([], in: s)]
        let list = try s.run(["filter", "list"], useStore: false, environment: env)
        #expect(list.stdout.contains("org.example.posterize\tPosterize\tuser\tlevels=4"), "\(list)")
        #expect(try s.run(["new", "m", "--image", Paths.example]).status == 0)
        let apply = try s.run(["filter", "apply", "m", "org.example.posterize", "levels=3"], environment: env)
        #expect(apply.status == 0, "\(apply)")
        #expect(try s.run(["export", "m", "-o", s.path("m.png")], environment: env).status == 0)
        // Without the plugin, the creation still opens and names what is missing.
        #expect(try s.run(["show", "m"]).stdout.contains("org.example.posterize on base  levels=3  (not installed)"))
        let installedElsewhere = ["XDG_DATA_HOME": s.path("xdg")]
        try FileManager.default.createDirectory(atPath: s.path("xdg/memery"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: s.path("plugins"), toPath: s.path("xdg/memery/plugins"))
        #expect(try s.run(["export", "m", "-o", s.path("m2.png")], environment: installedElsewhere).status == 0,
                "plugins are found in $XDG_DATA_HOME/memery/plugins too")
        // A store kept elsewhere: its own plugins folder, whether named by --store or $MEMERY_STORE.
        try FileManager.default.moveItem(atPath: s.path("xdg/memery/plugins"), toPath: s.store + "/plugins")
        let byFlag = try s.run(["export", "m", "-o", s.path("m3.png")])
        #expect(byFlag.status == 0, "plugins are found in the --store folder's plugins: \(byFlag)")
        let byEnvironment = try s.run(["filter", "list"], useStore: false, environment: ["MEMERY_STORE": s.store])
        #expect(byEnvironment.stdout.contains("org.example.posterize\tPosterize\tuser"), "\(byEnvironment)")
    }

    @Test func misbehavingPluginsAreReportedAndTheCreationIsUnchanged() throws {
        let s = try Sandbox()
        // The limit counts the helper's start, and a debug build on two busy cores (make test
        // runs suites side by side) once took over a second to crash on cue: 20 s for the
        // plugins that end by themselves, and a short limit only for the one that never does.
        let env = ["MEMERY_PLUGIN_PATH": try plugins([6, 7, 8, 9, 10], in: s), "MEMERY_FILTER_TIMEOUT": "20"]
        let list = try s.run(["filter", "list"], useStore: false, environment: env)
        #expect(list.status == 0)
        #expect(list.stderr.contains("broken10.so: it crashed while being read (signal 11)"), "\(list.stderr)")
        #expect(!list.stdout.contains("org.example.bad10"))
        try s.ok(["new", "m", "--image", Paths.example])
        let before = try s.counts()
        let cases = [
            ("org.example.bad6", "error: filter org.example.bad6 crashed (signal 11); the creation is unchanged"),
            ("org.example.bad8", "error: filter org.example.bad8 crashed (signal 6); the creation is unchanged"),
            ("org.example.bad9", "error: filter org.example.bad9 failed: it returned an unknown status 99; the creation is unchanged"),
        ]
        try expectRefusals(cases, of: "m", in: s, environment: env)
        var short = env
        short["MEMERY_FILTER_TIMEOUT"] = "5"
        try expectRefusals([("org.example.bad7", "error: filter org.example.bad7 ran past the 5 s limit and was stopped; the creation is unchanged")],
                           of: "m", in: s, environment: short)
        // A filter of a plugin that was skipped is not just "not installed": the reason follows.
        let skipped = try s.run(["filter", "apply", "m", "org.example.bad10"], environment: env)
        #expect(skipped.status == 1)
        #expect(skipped.stderr.contains("""
            no filter "org.example.bad10" is installed
            note: skipped plugin \(env["MEMERY_PLUGIN_PATH"]!)/broken10.so: it crashed while being read (signal 11)
            """), "\(skipped.stderr)")
        #expect(try s.counts() == before, "nothing was stored")
        #expect(try s.ok(["verify"]).hasSuffix("ok"))
        // The caller goes on: a good filter still works in the same store.
        #expect(try s.run(["filter", "apply", "m", "org.example.posterize"], environment: env).status == 0)
    }

    /// `filter apply CREATION ID` of each case fails with exit 1 and exactly that message.
    func expectRefusals(_ cases: [(String, String)], of creation: String, in s: Sandbox, environment env: [String: String]) throws {
        for (id, message) in cases {
            let outcome = try s.run(["filter", "apply", creation, id], environment: env)
            #expect(outcome.status == 1 && !outcome.signaled, "\(id): \(outcome)")
            #expect(outcome.stderr == message + "\n", "\(id): \(outcome.stderr)")
        }
    }

    @Test func aFilterThatRunsPastItsPixelsIsStoppedAndNamedOnEverySize() throws {
        let s = try Sandbox()
        let env = ["MEMERY_PLUGIN_PATH": try plugins([11, 14, 15], in: s)]
        try s.ok(["new", "m", "--image", Paths.example])
        let before = try s.counts()
        let cases = [
            ("org.example.overrun", "error: filter org.example.overrun went past the end of its output, to byte 1 after it (300 rows of 1816 bytes) and was stopped; the creation is unchanged"),
            ("org.example.scribbler", "error: filter org.example.scribbler wrote into its input, which is read-only (row 0) and was stopped; the creation is unchanged"),
            ("org.example.sloppy", "error: filter org.example.sloppy wrote past the end of row 0 of its output, into the stride padding; the creation is unchanged"),
        ]
        try expectRefusals(cases, of: "m", in: s, environment: env)
        #expect(try s.counts() == before, "nothing was stored")
    }

    @Test func anglesAreInDegreesAndAPluginBuiltForABI10StillLoads() throws {
        let s = try Sandbox()
        let info = try s.run(["filter", "info", "org.example.angles"], useStore: false, environment: ["MEMERY_PLUGIN_PATH": try plugins([17], in: s)])
        #expect(info.stdout.contains("  turn=0  number -180…180 degrees\n"), "declared in degrees: \(info.stdout)")
        #expect(info.stdout.contains("  hue=90  number 0…360 degrees\n"), "declared none, degrees by the units extension: \(info.stdout)")
        #expect(info.stdout.contains("  gain=1  number 0…2\n"), "a plain number stays one: \(info.stdout)")
        // A plugin built from ABI 1.0's header (kept in Tests) loads and runs in this host.
        let old = s.path("abi-1.0")
        try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: true)
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-shared", "-fPIC", "-O1", "-I", Self.sources.appendingPathComponent("abi-1.0").path, "-o", old + "/posterize.so",
                        Self.sources.appendingPathComponent("posterize.c").path, "-lm"]
        try cc.run()
        cc.waitUntilExit()
        try #require(cc.terminationStatus == 0)
        let env = ["MEMERY_PLUGIN_PATH": old]
        try s.ok(["new", "m", "--image", Paths.example])
        let apply = try s.run(["filter", "apply", "m", "org.example.posterize", "levels=3"], environment: env)
        #expect(apply.status == 0, "\(apply)")
        #expect(try Sandbox.run(["plugin", "check", old + "/posterize.so"]).status == 0)
    }

    @Test func aPluginRunsOnTheHostsThreadPoolAndTheBuiltInsStartNoThreads() throws {
        let s = try Sandbox()
        let env = ["MEMERY_PLUGIN_PATH": try plugins([18], in: s), "MEMERY_THREADS": "3"]
        try s.ok(["new", "m", "--image", Paths.example])
        let apply = try s.run(["filter", "apply", "m", "org.example.pooled"], environment: env)
        #expect(apply.status == 0, "\(apply)")
        #expect(apply.stderr.contains("org.example.pooled: warning: pool: 3 workers, 300 of 300 rows, highest worker 2"), "\(apply.stderr)")
        // The built-in library imports no way to start a thread: it borrows the host's.
        let library = URL(fileURLWithPath: Paths.memery).deletingLastPathComponent().appendingPathComponent("libmemery-builtins.so").path
        let nm = Process()
        nm.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        nm.arguments = ["nm", "-D", "--undefined-only", library]
        let pipe = Pipe()
        nm.standardOutput = pipe
        try nm.run()
        let symbols = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nm.waitUntilExit()
        #expect(nm.terminationStatus == 0 && symbols.contains("memcpy") || symbols.contains("malloc"), "nm read the library: \(symbols)")
        #expect(!symbols.contains("pthread_create"), "\(symbols)")
    }

    @Test func whatAPluginLogsIsShownNamedByItsFilter() throws {
        let s = try Sandbox()
        let env = ["MEMERY_PLUGIN_PATH": try plugins([13], in: s)]
        try s.ok(["new", "m", "--image", Paths.example])
        // It runs in the helper process: its lines come back through the host.
        let apply = try s.run(["filter", "apply", "m", "org.example.chatty"], environment: env)
        #expect(apply.status == 0, "\(apply)")
        #expect(apply.stderr.contains("org.example.chatty: warning: 3 rows looked odd and were left alone\n"), "\(apply.stderr)")
        #expect(apply.stderr.contains("org.example.chatty: error: not really an error\n"), "\(apply.stderr)")
        #expect(!apply.stderr.contains("debug:") && !apply.stderr.contains("info:"), "warnings and errors only by default: \(apply.stderr)")
        #expect(!apply.stderr.contains("\u{1}"), "the relay's marker is not shown")
        var everything = env
        everything["MEMERY_PLUGIN_LOG"] = "debug"
        let export = try s.run(["export", "m", "-o", s.path("m.png")], environment: everything)
        #expect(export.status == 0, "\(export)")
        #expect(export.stderr.contains("org.example.chatty: debug: starting on "), "\(export.stderr)")
        #expect(export.stderr.contains("org.example.chatty: info: halfway there\n"), "\(export.stderr)")
        var misspelt = env
        misspelt["MEMERY_PLUGIN_LOG"] = "verbose"
        let told = try s.run(["export", "m", "-o", s.path("m3.png")], environment: misspelt)
        let warning = "warning: MEMERY_PLUGIN_LOG=verbose is not one of debug, info, warning, error, off: showing warnings and errors\n"
        #expect(told.status == 0 && told.stderr.components(separatedBy: warning).count == 2, "said once, not by the helper too: \(told.stderr)")
        #expect(told.stderr.contains("org.example.chatty: warning: 3 rows"), "\(told.stderr)")
        var quiet = env
        quiet["MEMERY_PLUGIN_LOG"] = "off"
        #expect(try s.run(["export", "m", "-o", s.path("m2.png")], environment: quiet).stderr.isEmpty)
    }

    @Test func everyPluginCanBeIsolatedAndGivesTheSamePixels() throws {
        let s = try Sandbox()
        try s.ok(["new", "m", "--image", Paths.example])
        try s.ok(["filter", "apply", "m", "org.memery.deep-fry"])
        try s.ok(["export", "m", "-o", s.path("in-process.png")])
        let isolated = try s.run(["export", "m", "-o", s.path("isolated.png")], environment: ["MEMERY_ISOLATE_ALL": "1"])
        #expect(isolated.status == 0, "\(isolated)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.path("isolated.png"))) == Data(contentsOf: URL(fileURLWithPath: s.path("in-process.png"))))
    }
}

@Suite(.serialized) struct PluginCheckTests {
    /// 20 s for a plugin that ends by itself: the limit counts a debug helper's start on two
    /// busy cores. Only the one that never ends (bad7) is given a short limit to run past.
    func check(_ plugin: String, in s: Sandbox, timeout: Int = 20) throws -> Outcome {
        try s.run(["plugin", "check", plugin], useStore: false, environment: ["MEMERY_FILTER_TIMEOUT": String(timeout)])
    }

    @Test func aGoodPluginPassesEveryCheck() throws {
        let s = try Sandbox()
        let dir = try PluginIsolationTests().plugins([], in: s)
        let outcome = try check(dir + "/posterize.so", in: s)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout.contains("pass  org.example.posterize on 1001x667"))
        #expect(outcome.stdout.contains("pass  org.example.posterize cancelled part-way on 1001x667: it calls progress() never"), "\(outcome.stdout)")
        #expect(outcome.stdout.hasSuffix("all 8 checks passed\n"), "\(outcome.stdout)")
    }

    @Test(arguments: [
        (6, "FAIL  org.example.bad6 on 7x3: crashed (signal 11)"),
        (7, "FAIL  org.example.bad7 on 1x1: ran past the 3 s limit"),
        (11, "FAIL  org.example.sloppy on 7x3: it wrote past the end of row 0 of its output, into the stride padding"),
        (14, "FAIL  org.example.overrun on 1x1: it went past the end of its output, to byte 1 after it (1 row of 16 bytes) and was stopped"),
        (14, "FAIL  org.example.overrun on 7x3: it went past the end of its output, to byte 1 after it (3 rows of 40 bytes) and was stopped"),
        (15, "FAIL  org.example.scribbler on 7x3: it wrote into its input, which is read-only (row 0) and was stopped"),
        (12, "FAIL  org.example.sloppy on 7x3: it declares determinism but two runs gave different pixels"),
        (16, "FAIL  org.example.deaf cancelled part-way on 1001x667: progress() answered false at its second call, but it went on and returned status 0"),
        (2, "FAIL  loads in isolation"),
    ])
    func aBrokenPluginFailsTheRightCheck(_ broken: Int, _ line: String) throws {
        let s = try Sandbox()
        let dir = try PluginIsolationTests().plugins([broken], in: s)
        let outcome = try check(dir + "/broken\(broken).so", in: s, timeout: broken == 7 ? 3 : 20)
        #expect(outcome.status == 1 && !outcome.signaled, "\(outcome)")
        #expect(outcome.stdout.contains(line), "\(outcome.stdout)")
    }

    @Test func theBuiltInsPassEveryCheck() throws {
        let builtins = URL(fileURLWithPath: Paths.memery).deletingLastPathComponent().appendingPathComponent("libmemery-builtins.so").path
        let outcome = try Sandbox.run(["plugin", "check", builtins])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout.hasSuffix("all 62 checks passed\n"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("pass  org.memery.gaussian-blur without the host's thread pool on 1001x667: the same pixels as with it"))
        // Each built-in stops when told, part-way through a picture.
        #expect(outcome.stdout.contains("pass  org.memery.sepia cancelled part-way on 1001x667: told to stop at its second progress() call, it returned MEMERY_ERROR_CANCELLED "), "\(outcome.stdout)")
    }
}

@Suite(.serialized) struct ParamMigrationTests {
    func install(version: Int, in dir: String, defines: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-shared", "-fPIC", "-O1", "-I", PluginIsolationTests.include, "-DVERSION=\(version)"] + defines + [
                             "-o", dir + "/versioned.so", PluginIsolationTests.sources.appendingPathComponent("versioned.c").path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }

    @Test func pluginCheckFailsARaisedVersionWithoutAMigration() throws {
        let s = try Sandbox()
        let dir = s.path("plugins")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try install(version: 2, in: dir, defines: ["-DNO_MIGRATE"])
        let outcome = try Sandbox.run(["plugin", "check", dir + "/versioned.so"])
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stdout.contains("""
            FAIL  org.example.tint migration: its parameters are at version 2, but the plugin offers no memery.migrate/1 extension
            """), "\(outcome.stdout)")
        try install(version: 2, in: dir)
        let fixed = try Sandbox.run(["plugin", "check", dir + "/versioned.so"])
        #expect(fixed.status == 0 && !fixed.stdout.contains("migration"), "\(fixed)")
    }

    @Test func pluginCheckSinceAnOlderBuildMigratesWhatItStored() throws {
        let s = try Sandbox()
        let (old, new) = (s.path("old"), s.path("new"))
        for dir in [old, new] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        try install(version: 1, in: old)
        try install(version: 2, in: new)
        let good = try Sandbox.run(["plugin", "check", new + "/versioned.so", "--since", old + "/versioned.so"])
        #expect(good.status == 0, "\(good)")
        #expect(good.stdout.contains("pass  org.example.tint since version 1 to 2: strength=0.5 became amount=50"), "\(good.stdout)")
        try install(version: 2, in: new, defines: ["-DFORGETFUL"])
        let bad = try Sandbox.run(["plugin", "check", new + "/versioned.so", "--since", old + "/versioned.so"])
        #expect(bad.status == 1, "\(bad)")
        #expect(bad.stdout.contains("FAIL  org.example.tint since version 1 to 2: with strength=0.5: "), "\(bad.stdout)")
        #expect(bad.stdout.contains("still hold strength, which version 2 does not declare"), "\(bad.stdout)")
        try install(version: 2, in: new, defines: ["-DDROPPING"])
        let lost = try Sandbox.run(["plugin", "check", new + "/versioned.so", "--since", old + "/versioned.so"])
        #expect(lost.status == 1, "\(lost)")
        #expect(lost.stdout.contains("""
            FAIL  org.example.tint since version 1 to 2: with strength=0.5: after its migrate steps strength is removed and none of amount \
            is set, which would take its default: the stored value is lost
            """), "\(lost.stdout)")
    }

    /// Creation m with org.example.tint strength=0.3 applied by version 1 of the plugin,
    /// installed in the sandbox's plugin folder; the folder and the environment naming it.
    func tintedCreation(in s: Sandbox) throws -> (String, [String: String]) {
        let dir = s.path("plugins")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let env = ["MEMERY_PLUGIN_PATH": dir]
        try install(version: 1, in: dir)
        try s.ok(["new", "m", "--image", Paths.example])
        #expect(try s.run(["filter", "apply", "m", "org.example.tint", "strength=0.3"], environment: env).status == 0)
        return (dir, env)
    }

    @Test(arguments: [
        ("-DFORGETFUL", "after its migrate steps the parameters still hold strength, which version 2 does not declare"),
        ("-DDROPPING", "after its migrate steps strength is removed and none of amount is set, which would take its default: the stored value is lost"),
    ])
    func aMigrationThatLosesTheStoredValueIsRefusedNamingIt(_ bug: String, _ reason: String) throws {
        let s = try Sandbox()
        let (dir, env) = try tintedCreation(in: s)
        try install(version: 2, in: dir, defines: [bug])
        let before = try s.counts()
        let exported = try s.run(["export", "m", "-o", s.path("v2.png")], environment: env)
        #expect(exported.status != 0, "a different picture with exit 0 is what this prevents: \(exported)")
        #expect(exported.stderr.contains("the stored parameters of org.example.tint could not be brought up from version 1: " + reason), "\(exported.stderr)")
        #expect(exported.stderr.components(separatedBy: "could not be brought up").count == 2, "the prefix once: \(exported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.path("v2.png")))
        #expect(try s.counts() == before)
    }

    @Test func storedParametersAreMigratedWhenThePluginIsNewer() throws {
        let s = try Sandbox()
        let (dir, env) = try tintedCreation(in: s)
        #expect(try s.run(["export", "m", "-o", s.path("v1.png")], environment: env).status == 0)

        try install(version: 2, in: dir)
        let shown = try s.run(["show", "m"], environment: env).stdout
        #expect(shown.contains("org.example.tint on base  amount=30"), "as version 2 reads them, the names filter set takes: \(shown)")
        #expect(shown.contains("(stored for version 1, shown as version 2 reads them)"), "\(shown)")
        let migrated = try #require(try JSONSerialization.jsonObject(with: Data(try s.run(["show", "m", "--json"], environment: env).stdout.utf8)) as? [String: Any])
        let shownFilter = try #require((migrated["filters"] as? [[String: Any]])?.first)
        #expect((shownFilter["params"] as? [String: String]) == ["amount": "30"] && shownFilter["paramVersion"] as? Int == 2
                && shownFilter["storedParamVersion"] as? Int == 1, "show --json (and the editor's API) as version 2 reads them: \(shownFilter)")
        let exported = try s.run(["export", "m", "-o", s.path("v2.png")], environment: env)
        #expect(exported.status == 0, "\(exported)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.path("v2.png"))) == Data(contentsOf: URL(fileURLWithPath: s.path("v1.png"))),
                "strength 0.3 became amount 30: the same picture")
        // A change saves the migrated parameters at the new version.
        #expect(try s.run(["filter", "set", "m", "1", "amount=60"], environment: env).status == 0)
        let detail = try #require(try JSONSerialization.jsonObject(with: Data(try s.run(["show", "m", "--json"], environment: env).stdout.utf8)) as? [String: Any])
        let filter = try #require((detail["filters"] as? [[String: Any]])?.first)
        #expect(filter["paramVersion"] as? Int == 2 && (filter["params"] as? [String: String]) == ["amount": "60"])

        // Back to the old plugin: parameters from a newer one are refused with the reason.
        try install(version: 1, in: dir)
        let refused = try s.run(["export", "m", "-o", s.path("old.png")], environment: env)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("org.example.tint's parameters were saved by version 2 of its plugin, but version 1 is installed"))
    }
}
