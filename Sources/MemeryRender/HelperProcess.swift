import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the `memery` binary in one of its hidden helper modes, feeding it bytes and collecting
/// what it prints, within a wall-clock limit. Untrusted work — a plugin, a picture from
/// outside — happens there, so a crash, a hang or a blow-up ends the helper, not the caller.
public struct HelperProcess {
    /// The `memery` binary that serves the helper modes: MEMERY_HELPER, else the one beside
    /// this executable.
    public static let memeryBinary = ProcessInfo.processInfo.environment["MEMERY_HELPER"]
        ?? URL(fileURLWithPath: FilterHost.executableDirectory() ?? ".").appendingPathComponent("memery").path

    let executable: String
    let timeout: TimeInterval

    enum Outcome {
        case exited(status: Int32, output: Data, errors: String)
        case signalled(Int32, errors: String)
        case timedOut
    }

    var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// `output`: a file to be the helper's standard output (what it writes there is then not
    /// in the outcome); else a pipe collects it.
    func run(_ arguments: [String], input: Data, output file: FileHandle? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = file ?? stdout
        process.standardError = stderr
        // Foundation leaves the pipes open until the Process is freed, which a long-lived
        // caller (a server, the fuzzer) may never do: close every end here.
        defer {
            for handle in [stdin.fileHandleForReading, stdin.fileHandleForWriting, stdout.fileHandleForReading,
                           stdout.fileHandleForWriting, stderr.fileHandleForReading, stderr.fileHandleForWriting] {
                try? handle.close()
            }
        }
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        nonisolated(unsafe) var output = Data()
        nonisolated(unsafe) var errors = Data()
        let readers = DispatchGroup()
        if file == nil {
            DispatchQueue.global().async(group: readers) { output = stdout.fileHandleForReading.readDataToEndOfFile() }
        }
        DispatchQueue.global().async(group: readers) { errors = stderr.fileHandleForReading.readDataToEndOfFile() }
        // A helper that stops reading early (it refused the input) must not fail the writer.
        signal(SIGPIPE, SIG_IGN)
        try? stdin.fileHandleForWriting.write(contentsOf: input)
        try? stdin.fileHandleForWriting.close()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            readers.wait()
            return .timedOut
        }
        readers.wait()
        let said = String(decoding: errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if process.terminationReason == .uncaughtSignal { return .signalled(process.terminationStatus, errors: said) }
        return .exited(status: process.terminationStatus, output: output, errors: said)
    }
}
