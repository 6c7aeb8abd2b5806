import Foundation
@_exported import MemeryTestSupport
import Testing

enum Paths {
    static let root = TestData.root
    static let shared = TestData.shared
    static let sharedAvailable = TestData.sharedAvailable
    static let example = TestData.example().path

    static func edge(_ name: String) -> String { TestData.edge(name).path }

    /// The `memery` binary built beside this test bundle (or `$MEMERY_BIN`).
    static let memery: String = {
        if let explicit = ProcessInfo.processInfo.environment["MEMERY_BIN"] { return explicit }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("memery")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside.path }
        return root.appendingPathComponent(".build/debug/memery").path
    }()
}

/// What one run of `memery` did.
struct Outcome: CustomStringConvertible {
    var status: Int32
    /// True when the process died from a signal (never acceptable).
    var signaled: Bool
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\(signaled ? " (signal)" : ""), stdout: \(stdout.debugDescription), stderr: \(stderr.debugDescription)" }
}

/// A scratch folder with its own store; runs `memery` against it.
final class Sandbox {
    let dir: URL
    var store: String { dir.appendingPathComponent("store").path }

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("memery-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Runs `memery ARGS --store STORE` (unless `useStore` is false).
    @discardableResult
    func run(_ arguments: [String], useStore: Bool = true, environment: [String: String] = [:], input: String? = nil) throws -> Outcome {
        try Self.run(arguments + (useStore ? ["--store", store] : []), environment: environment, input: input)
    }

    static func run(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.memery)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "MEMERY_STORE")
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inPipe = input == nil ? nil : Pipe()
        process.standardInput = inPipe ?? FileHandle.nullDevice
        try process.run()
        // Our copies of the child's ends, closed here as well: a write end left open in this
        // process (tests spawn side by side) means the reads below never see end-of-file —
        // it hung `make test` once, both readers waiting on a child long gone.
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        if let input, let inPipe {
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try? inPipe.fileHandleForWriting.close()
        }
        // Read both pipes before waiting, so a chatty process cannot block on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                       stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs and expects success; returns stdout without the final newline.
    @discardableResult
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let outcome = try run(arguments)
        #expect(outcome.status == 0 && !outcome.signaled, "memery \(arguments.joined(separator: " ")): \(outcome)", sourceLocation: sourceLocation)
        return outcome.stdout.hasSuffix("\n") ? String(outcome.stdout.dropLast()) : outcome.stdout
    }

    /// Runs and expects exit `status` with an `error:` line containing `message`.
    func fails(_ arguments: [String], status: Int32 = 1, containing message: String, environment: [String: String] = [:],
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let outcome = try run(arguments, environment: environment)
        #expect(outcome.status == status && !outcome.signaled, "memery \(arguments.joined(separator: " ")): \(outcome)", sourceLocation: sourceLocation)
        #expect(outcome.stderr.contains(message), "stderr was \(outcome.stderr.debugDescription)", sourceLocation: sourceLocation)
        if status == 1 || status == 3 {
            #expect(outcome.stderr.hasPrefix("error: "), "stderr was \(outcome.stderr.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    func json(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try ok(arguments, sourceLocation: sourceLocation).utf8))
    }

    /// `memery verify`'s first line: the counts, which change when anything is stored.
    func counts() throws -> String {
        guard FileManager.default.fileExists(atPath: store) else { return "no store" }
        return String(try ok(["verify"]).split(separator: "\n").first ?? "")
    }
}

/// The first bytes of a file, to tell formats apart.
func magic(_ path: String, _ count: Int = 4) -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
    defer { try? handle.close() }
    return Array(handle.readData(ofLength: count))
}
