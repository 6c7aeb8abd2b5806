import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the `memery` binary in one of its hidden helper modes, feeding it bytes and collecting
/// what it prints, within a wall-clock limit. Untrusted work — a plugin, a picture from
/// outside — happens there, so a crash, a hang or a blow-up ends the helper, not the caller.
public struct HelperProcess {
    /// The executable that serves the helper modes: MEMERY_HELPER, else `memery-helper`,
    /// else the `memery` beside this executable (`helperBinary(environment:...)`).
    public static let helperBinary = helperBinary(environment: ProcessInfo.processInfo.environment,
                                                  executableDirectory: InstallLayout.executableDirectory(),
                                                  installPrefix: InstallLayout.installPrefix)

    /// `memery-helper` links only MemeryPixels (no drawing, no store), so it starts in a
    /// fraction of the whole `memery`'s time: a one-shot command pays a helper's start for
    /// every picture it imports. It is looked for beside the executable (a build folder), then in
    /// PREFIX/lib/memery (installed, off the PATH); `memery`, which has the same hidden
    /// modes, serves when neither has it. MEMERY_HELPER names another (the tests' broken ones).
    static func helperBinary(environment: [String: String], executableDirectory: String?, installPrefix: URL?,
                             exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> String {
        if let named = environment["MEMERY_HELPER"] { return named }
        let beside = URL(fileURLWithPath: executableDirectory ?? ".")
        let candidates = [beside.appendingPathComponent(helperName).path]
            + [installPrefix?.appendingPathComponent("lib/memery").appendingPathComponent(helperName).path].compactMap { $0 }
        return candidates.first(where: exists) ?? beside.appendingPathComponent("memery").path
    }

    static let helperName = "memery-helper"

    let executable: String
    let timeout: TimeInterval

    enum Outcome {
        case exited(status: Int32, output: Data, errors: String)
        case signalled(Int32, errors: String)
        case timedOut
        /// Its render was cancelled; it was told, and ended if it did not stop in time.
        case cancelled
    }

    var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// `output`: a file to be the helper's standard output (what it writes there is then not
    /// in the outcome); else a pipe collects it.
    func run(_ arguments: [String], input: Data, output file: FileHandle? = nil, cancellation: RenderCancellation? = nil) throws -> Outcome {
        try start(arguments, input: input, output: file).wait(cancellation: cancellation)
    }

    /// Starts the helper and hands it `input` (returning once it has all of it); `wait` for
    /// what it did, doing other work meanwhile.
    func start(_ arguments: [String], input: Data, output file: FileHandle? = nil) throws -> Running {
        let running = try Running(executable: executable, arguments: arguments, output: file, timeout: timeout)
        // A helper that stops reading early (it refused the input) must not fail the writer.
        signal(SIGPIPE, SIG_IGN)
        try? running.stdin.fileHandleForWriting.write(contentsOf: input)
        try? running.stdin.fileHandleForWriting.close()
        return running
    }

    /// A helper at work. `@unchecked Sendable`, earned: Foundation's Process and Pipe are not
    /// marked Sendable but are safe to use from the reader threads here; the mutable fields
    /// (`exited`, `output`, `errors`) are touched only under `lock`.
    final class Running: @unchecked Sendable {
        private let process = Process()
        let stdin = Pipe()
        private let stdout = Pipe(), stderr = Pipe()
        private let finished = DispatchSemaphore(value: 0)
        private let readers = DispatchGroup()
        private let deadline: DispatchTime
        private let lock = NSLock()
        private var exited = false
        private var output = Data(), errors = Data()

        init(executable: String, arguments: [String], output file: FileHandle?, timeout: TimeInterval) throws {
            deadline = .now() + timeout
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            // A helper that crashes must die at once: Swift's backtracer would inherit its
            // pipes and, symbolicating a large binary, outlast the time limit holding them open.
            var environment = ProcessInfo.processInfo.environment
            environment["SWIFT_BACKTRACE"] = "enable=no"
            // The caller has already said what is wrong with the environment: not again.
            environment[EnvironmentWarning.helperMarker] = "1"
            process.environment = environment
            process.standardInput = stdin
            process.standardOutput = file ?? stdout
            process.standardError = stderr
            process.terminationHandler = { [finished, lock] _ in
                lock.withLock { self.exited = true }
                finished.signal()
            }
            do {
                try process.run()
            } catch {
                closePipes()
                throw error
            }
            if file == nil {
                DispatchQueue.global().async(group: readers) { [stdout] in
                    let read = stdout.fileHandleForReading.readDataToEndOfFile()
                    self.lock.withLock { self.output = read }
                }
            }
            DispatchQueue.global().async(group: readers) { [stderr] in
                let read = stderr.fileHandleForReading.readDataToEndOfFile()
                self.lock.withLock { self.errors = read }
            }
        }

        /// Whether the helper has ended (`wait` then returns at once).
        var hasExited: Bool { lock.withLock { exited } }

        /// Waits for the helper to end, within its time limit. When `cancellation` is
        /// cancelled meanwhile, the helper is told (SIGUSR1: its filter's progress() answers
        /// false) and given a second to stop before it is killed.
        func wait(cancellation: RenderCancellation? = nil) -> Outcome {
            defer { closePipes() }
            var ended = finished.wait(timeout: cancellation == nil ? deadline : .now()) == .success, cancelled = false
            while !ended, !cancelled, let cancellation, DispatchTime.now() < deadline {
                if cancellation.isCancelled {
                    cancelled = true
                    kill(process.processIdentifier, SIGUSR1)
                    ended = finished.wait(timeout: min(deadline, .now() + .seconds(1))) == .success
                } else {
                    ended = finished.wait(timeout: min(deadline, .now() + .milliseconds(50))) == .success
                }
            }
            if !ended {
                kill(process.processIdentifier, SIGKILL)
                finished.wait()
            }
            if !ended || cancelled {
                readers.wait()
                _ = PluginLog.relay(String(decoding: lock.withLock { self.errors }, as: UTF8.self))
                return cancelled ? .cancelled : .timedOut
            }
            readers.wait()
            let (output, errors) = lock.withLock { (self.output, self.errors) }
            // A plugin's log lines are the user's to read, not part of why the helper failed.
            let said = PluginLog.relay(String(decoding: errors, as: UTF8.self)).trimmingCharacters(in: .whitespacesAndNewlines)
            if process.terminationReason == .uncaughtSignal { return .signalled(process.terminationStatus, errors: said) }
            return .exited(status: process.terminationStatus, output: output, errors: said)
        }

        /// Foundation leaves the pipes open until the Process is freed, which a long-lived
        /// caller (a server, the fuzzer) may never do: every end is closed here.
        private func closePipes() {
            for handle in [stdin.fileHandleForReading, stdin.fileHandleForWriting, stdout.fileHandleForReading,
                           stdout.fileHandleForWriting, stderr.fileHandleForReading, stderr.fileHandleForWriting] {
                try? handle.close()
            }
        }
    }
}
