import Foundation
import MemeryTestSupport

/// A `memery hub` process on a free port of 127.0.0.1; killed when dropped.
final class HubProcess: @unchecked Sendable {
    let process = Process()
    private(set) var address = ""
    let database: String

    /// `port`: 0 for any free one; a hub started again after a restore takes its old port,
    /// so that the machines logged in to it find it.
    /// `log`: a file for the hub's log, at level info (else warnings go to the tests' own).
    init(database: String, port: Int = 0, extra: [String] = [], log: String? = nil) throws {
        self.database = database
        process.executableURL = URL(fileURLWithPath: Paths.memery)
        process.arguments = ["hub", "--database", database, "--port", String(port), "--bcrypt-cost", "4", "--log-level", log == nil ? "warning" : "info"] + extra
        let out = Pipe()
        process.standardOutput = out
        if let log {
            FileManager.default.createFile(atPath: log, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: log)
        } else {
            process.standardError = FileHandle.standardError
        }
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The first line says where it listens, once migrations are done and the port is bound.
        var line = Data()
        let handle = out.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { throw ClusterError("memery hub exited before it listened (status \(process.isRunning ? -1 : process.terminationStatus))") }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "http://") else { throw ClusterError("memery hub said \(text)") }
        address = String(text[range.lowerBound...].prefix { !$0.isWhitespace })
    }

    /// The port it listens on.
    var port: Int { Int(address.split(separator: ":").last?.prefix { $0.isNumber } ?? "") ?? 0 }

    /// kill -9: no goodbye.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { kill() }
}

extension PostgresCluster {
    /// Runs a program to its end (as `command` does) and gives its exit status and output
    /// (standard output and error together) instead of throwing on a failure.
    static func commandOutcome(_ argv: [String]) throws -> Outcome {
        let output = URL(fileURLWithPath: "/tmp/memery-cmd-\(UUID().uuidString.prefix(8)).out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        chmod(output.path, 0o666)
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let args = argv.map { strdup($0) } + [nil]
        defer { args.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, args, environ)
        guard spawned == 0 else { throw ClusterError("\(argv[0]) could not start: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return Outcome(status: (status >> 8) & 0xff, signaled: status & 0x7f != 0, stdout: text, stderr: text)
    }
}
