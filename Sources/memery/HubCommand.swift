import ArgumentParser
import Foundation
import Logging
import MemeryHub
import MemeryHubEditor

struct HubCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hub",
        abstract: "Run the hub that stores sync through: accounts, sync, recommendations (on PostgreSQL).",
        discussion: """
        Everything the hub knows is in PostgreSQL, so several hubs may serve one database (behind a proxy). The \
        schema is migrated at start. It serves plain HTTP: put it behind a TLS proxy before other machines use it. \
        docs/hub.md says how to run it.
        """,
        subcommands: [HubServeCommand.self, GrantManagerCommand.self],
        defaultSubcommand: HubServeCommand.self)
}

/// The options every hub command takes.
struct DatabaseOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The PostgreSQL database: postgres://USER:PASSWORD@HOST:PORT/DATABASE (?sslmode=disable for a loopback one).",
                               valueName: "url"))
    var database: String?

    func address() throws -> DatabaseAddress {
        // The environment is read here, not as the option's default, which --help would print.
        guard let database = database ?? ProcessInfo.processInfo.environment["MEMERY_HUB_DATABASE"], !database.isEmpty else { throw ValidationError("--database is missing: give postgres://USER:PASSWORD@HOST:PORT/DATABASE (or set MEMERY_HUB_DATABASE)") }
        do { return try DatabaseAddress(database) } catch let error as HubStartError { throw ValidationError(error.description) }
    }
}

struct HubServeCommand: AsyncParsableCommand, ArgumentChecks {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the hub until Ctrl-C (the default).")

    @OptionGroup var databaseOptions: DatabaseOptions

    @Option(parsing: .unconditional, help: "The port to listen on (0 picks a free one).")
    var port: Int = 8470

    @Option(name: .customLong("listen"), help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: ArgumentHelp("bcrypt's cost for passwords, from 4 to 16 (each step doubles the time; 12 takes about 0.25 s).", visibility: .hidden))
    var bcryptCost = 12

    @Option(help: "What to log: trace, debug, info, notice, warning, error.")
    var logLevel = "info"

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds a library search may run before it is stopped.", visibility: .hidden))
    var searchTimeout = 20.0

    @Option(name: .customLong("trusted-proxy"),
            help: ArgumentHelp("A proxy in front of the hub (an address or a range: 127.0.0.1, 10.0.0.0/8), whose X-Forwarded-For names the client; repeat for several. Without it the login limits count the proxy as the client.",
                               valueName: "cidr"))
    var trustedProxies: [String] = []

    @Option(name: .customLong("quota-mb"), parsing: .unconditional, help: ArgumentHelp("What each user may keep on the hub, in MB (events and pictures together); none by default.",
                                                               valueName: "mb"))
    var quotaMB: Int?

    @Option(name: .customLong("unused-picture-hours"), parsing: .unconditional,
            help: ArgumentHelp("Hours an uploaded picture may stay unused by any event before the hub takes it away.", valueName: "hours"))
    var unusedPictureHours = 24.0

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds a request's head may take to arrive (its body gets as long again, then must average 16 kB/s); slower connections are closed.",
                               visibility: .hidden))
    var readTimeout = 10.0

    @Option(name: .customLong("cache-dir"),
            help: ArgumentHelp("Serve the editor to signed-in people, keeping each one's working copy in this folder (a cache: deleting it loses nothing). Without it, the hub serves its API alone.",
                               valueName: "folder"))
    var cacheDirectory: String?

    @Option(name: .customLong("cache-gb"), parsing: .unconditional,
            help: ArgumentHelp("How much the working copies may take on disk, in GB; the least recently used are let go past it.", valueName: "gb"))
    var cacheGB = 4.0

    @Option(name: .customLong("replica-database"),
            help: ArgumentHelp("A PostgreSQL streaming replica of --database: pulls and picture downloads are read there when it has replayed far enough (the primary answers otherwise).",
                               valueName: "postgres-url"))
    var replicaDatabase: String?

    @Option(name: .customLong("public-url"),
            help: ArgumentHelp("The address people open (https://memes.example.org behind a proxy): an https one makes the sign-in cookie Secure.",
                               valueName: "url"))
    var publicURL: String?

    func checkArguments() throws {
        if let publicURL {
            guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("--public-url \(publicURL) is not an http or https address such as https://memes.example.org")
            }
        }
        guard cacheGB > 0 && cacheGB <= 1_000_000 else { throw ValidationError("--cache-gb must be more than 0, got \(cacheGB)") }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, got \(port)") }
        guard searchTimeout >= 0.001 else { throw ValidationError("--search-timeout must be at least 0.001 seconds") }
        guard (4...16).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be from 4 to 16, got \(bcryptCost)") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error") }
        for proxy in trustedProxies where AddressRange(proxy) == nil {
            throw ValidationError("--trusted-proxy \(proxy) is not an address or a range such as 10.0.0.0/8 or ::1/128")
        }
        guard readTimeout >= 0.1 else { throw ValidationError("--read-timeout must be at least 0.1 seconds") }
        guard unusedPictureHours >= 0.0001 && unusedPictureHours <= 100_000 else {
            throw ValidationError("--unused-picture-hours must be from 0.0001 to 100000, got \(unusedPictureHours)")
        }
        if let quotaMB, !(1...10_000_000).contains(quotaMB) { throw ValidationError("--quota-mb must be from 1 to 10000000, got \(quotaMB)") }
        _ = try databaseOptions.address()
        _ = try replicaAddress()
    }

    func replicaAddress() throws -> DatabaseAddress? {
        guard let replicaDatabase else { return nil }
        do { return try DatabaseAddress(replicaDatabase, option: "--replica-database") } catch let error as HubStartError { throw ValidationError(error.description) }
    }

    func run() async throws {
        var settings = HubSettings(database: try databaseOptions.address(), host: host, port: port, bcryptCost: UInt8(bcryptCost),
                                   logLevel: Logger.Level(rawValue: logLevel) ?? .info,
                                   searchTimeout: .milliseconds(Int64(searchTimeout * 1000)),
                                   trustedProxies: trustedProxies.compactMap(AddressRange.init), readTimeout: .milliseconds(Int64(readTimeout * 1000)),
                                   quotaBytes: quotaMB.map { Int64($0) << 20 },
                                   unusedPictureGrace: .milliseconds(Int64(unusedPictureHours * 3_600_000)),
                                   publicURL: publicURL.flatMap(URL.init(string:)))
        settings.replicaDatabase = try replicaAddress()
        let pages = try cacheDirectory.map { folder -> HubEditorPages in
            do {
                return try HubEditorPages(cacheDirectory: URL(fileURLWithPath: folder), cacheBytes: Int64(cacheGB * 1_073_741_824))
            } catch let error as HubEditorError {
                throw ValidationError(error.description)
            }
        }
        try await HubServer.run(settings, pages: pages) { address in
            FileHandle.standardOutput.write(Data("Memery hub: \(address)\n".utf8))
        }
    }
}

struct GrantManagerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant-manager",
        abstract: "Make a user a manager, who publishes the weekly recommendations (never possible through the API).")

    @Argument(help: "The user's name.")
    var user: String

    @OptionGroup var databaseOptions: DatabaseOptions

    func run() async throws {
        let database = try databaseOptions.address()
        let user = user
        try await HubServer.grantManager(user, database: database)
        print("\(user) is a manager")
    }
}
