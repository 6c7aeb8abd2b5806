import Foundation
import Synchronization

/// A throwaway PostgreSQL: `initdb` in a temporary folder, started with `pg_ctl` on a free
/// port of 127.0.0.1, as the unprivileged `postgres` user when the tests run as root
/// (PostgreSQL refuses root), and removed when it stops. Debian's `postgresql` package,
/// which scripts/bootstrap installs, provides it.
public final class PostgresCluster: @unchecked Sendable {
    public let folder: URL
    public let port: Int
    private let bin: URL

    /// Why no cluster can be started here, or nil when one can.
    public static let unavailable: String? = binaries == nil ? "PostgreSQL's initdb is not installed (scripts/bootstrap installs Debian's postgresql)" : nil

    /// The cluster the hub suites share, started on first use; nil when it could not be
    /// (the suites then skip by name, and `PostgreSQLIsThereForTheHubTests` fails saying why).
    public static let shared: PostgresCluster? = try? startShared.get()
    public static let startShared: Result<PostgresCluster, any Error> = Result { try PostgresCluster() }

    private static let binaries: URL? = {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let bin = root.appendingPathComponent(version).appendingPathComponent("bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return bin }
        }
        return nil
    }()

    public init() throws {
        guard let bin = Self.binaries else { throw ClusterError(Self.unavailable ?? "") }
        self.bin = bin
        (folder, port) = try Self.newPlace()
        try run("initdb", ["-D", folder.appendingPathComponent("data").path, "-A", "trust", "-U", "memery", "--no-sync", "-E", "UTF8"])
        try startServer()
        Self.stopAtExit(self)
    }

    /// A hot standby streaming from `primary` (pg_basebackup -R), on a port of its own.
    private init(replicaOf primary: PostgresCluster) throws {
        bin = primary.bin
        (folder, port) = try Self.newPlace()
        try run("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primary.port), "-U", "memery", "-D", folder.appendingPathComponent("data").path,
                                  "-R", "-X", "stream", "--no-sync", "--checkpoint=fast"])
        try startServer()
        Self.stopAtExit(self)
    }

    /// A streaming replica of this cluster: reads only, replaying what the primary writes.
    public func replica() throws -> PostgresCluster { try PostgresCluster(replicaOf: self) }

    /// A replica stops replaying (it keeps answering, further and further behind) until `resumeReplay`.
    public func pauseReplay() throws { try sql("SELECT pg_wal_replay_pause()", database: "postgres") }
    public func resumeReplay() throws { try sql("SELECT pg_wal_replay_resume()", database: "postgres") }

    /// The server stopped (its folder kept, to start again).
    public func stopServer() throws {
        try run("pg_ctl", ["-D", folder.appendingPathComponent("data").path, "-m", "fast", "-w", "stop"])
    }

    public func startServer() throws {
        try run("pg_ctl", ["-D", folder.appendingPathComponent("data").path, "-w", "-l", folder.appendingPathComponent("log").path,
                           "-o", "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", "start"])
    }

    private static func newPlace() throws -> (URL, Int) {
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("memery-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if getuid() == 0 { try Self.command("/bin/chown", ["postgres:postgres", folder.path]) }
        return (folder, try Self.freePort())
    }

    /// A cluster kept in a static lives until the process ends: stop it then.
    private static func stopAtExit(_ cluster: PostgresCluster) {
        running.withLock { $0.append(cluster) }
        if running.withLock({ $0.count }) == 1 { atexit { PostgresCluster.running.withLock { $0 }.forEach { $0.stop() } } }
    }

    public static let running = Mutex<[PostgresCluster]>([])

    /// A new empty database; its postgres:// address.
    public func newDatabase() throws -> String {
        // Suites run in parallel: a counter would hand two of them one name.
        let name = "hub_" + UUID().uuidString.prefix(8).lowercased()
        try Self.command("/usr/bin/psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "memery", "-d", "postgres", "-q", "-c", "CREATE DATABASE \(name)"])
        return "postgres://memery@127.0.0.1:\(port)/\(name)?sslmode=disable"
    }

    /// Runs SQL in a database (by its address's name); returns psql's unaligned output.
    @discardableResult
    public func sql(_ statement: String, database address: String) throws -> String {
        let name = String(address.split(separator: "/").last?.split(separator: "?").first ?? "postgres")
        return try Self.command("/usr/bin/psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "memery", "-d", name, "-q", "-A", "-t", "-c", statement])
    }

    /// `pg_dump -Fc` of a database (by its address): the file it wrote.
    public func dump(_ address: String) throws -> URL {
        let file = URL(fileURLWithPath: "/tmp/memery-dump-\(UUID().uuidString.prefix(8)).pgdump")
        try Self.command(bin.appendingPathComponent("pg_dump").path,
                         ["-h", "127.0.0.1", "-p", String(port), "-U", "memery", "-Fc", "-f", file.path, Self.name(address)])
        return file
    }

    /// The database made anew from a dump, as an operator restores a backup: every
    /// connection to it is ended first (stop its hubs before).
    public func restore(_ address: String, from dump: URL) throws {
        let name = Self.name(address)
        try sql("DROP DATABASE \(name) WITH (FORCE)", database: "postgres")
        try sql("CREATE DATABASE \(name)", database: "postgres")
        try Self.command(bin.appendingPathComponent("pg_restore").path,
                         ["-h", "127.0.0.1", "-p", String(port), "-U", "memery", "-d", name, "--exit-on-error", dump.path])
    }

    public static func name(_ address: String) -> String {
        String(address.split(separator: "/").last?.split(separator: "?").first ?? "postgres")
    }

    public func stop() {
        guard FileManager.default.fileExists(atPath: folder.path) else { return }
        _ = try? run("pg_ctl", ["-D", folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    private func run(_ tool: String, _ arguments: [String]) throws {
        let path = bin.appendingPathComponent(tool).path
        // Output to a file, not a pipe: the server pg_ctl starts would hold a pipe open for ever.
        if getuid() == 0 {
            try Self.command("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments, outputFile: folder.appendingPathComponent("\(tool).out"))
        } else {
            try Self.command(path, arguments, outputFile: folder.appendingPathComponent("\(tool).out"))
        }
    }

    /// Runs a program to its end with posix_spawn and waitpid (Foundation's Process can miss
    /// the exit of a program that leaves a daemon behind, as pg_ctl does); its output goes
    /// to a file, never a pipe the daemon would hold open.
    @discardableResult
    public static func command(_ path: String, _ arguments: [String], outputFile: URL? = nil) throws -> String {
        let output = outputFile ?? URL(fileURLWithPath: "/tmp/memery-cmd-\(UUID().uuidString.prefix(8)).out")
        defer { if outputFile == nil { try? FileManager.default.removeItem(at: output) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw ClusterError("\(path) could not start: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard status == 0 else { throw ClusterError("\(path) \(arguments.joined(separator: " ")) failed: \(text)") }
        return text
    }

    /// A port nobody listens on now, for a server started seconds later (initdb comes first).
    /// Drawn from below the range the kernel hands out for port 0 and for outgoing
    /// connections (32768 up, `ip_local_port_range`), and checked by binding it: a port
    /// bound to 0 and let go could be handed to another suite's server meanwhile.
    public static func freePort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_768)
            if canBind(port) { return port }
        }
        throw ClusterError("no free port between 20000 and 32767 on 127.0.0.1")
    }

    static func canBind(_ port: Int) -> Bool {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

public struct ClusterError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

