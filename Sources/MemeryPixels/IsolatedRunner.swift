import MemeryHelperIPC
import Foundation
import MemeryCore
import MemeryPluginABI
#if canImport(Glibc)
import Glibc
#endif

/// Runs plugins that are not ours in a helper process — the `memery` binary in its hidden
/// worker mode — exchanging pixels through shared memory. A plugin that crashes, aborts,
/// hangs past the time limit or answers with garbage becomes an error here; this process
/// and the creation are untouched.
struct IsolatedRunner {
    let helper: String
    let timeout: TimeInterval
    /// Helpers kept running between filter runs (a long-lived process's); nil: each run
    /// starts a helper of its own.
    var warm: WarmHelpers? = nil

    struct Described: Codable {
        var descriptor: FilterDescriptor
        var pixelFormats: UInt32
    }

    struct DescribeReply: Codable {
        var filters: [Described]
        var warnings: [String]
        /// Whether the plugin offers MEMERY_EXT_MIGRATE (`plugin check` asks).
        var migrates: Bool? = nil
    }

    struct RunRequest: Codable {
        var origin: FilterDescriptor.Origin
        var library: String
        var filter: String
        var params: [String: FilterValue]
        var width: Int
        var height: Int
        var straight: Bool
        var sharedMemory: String
        /// Seconds after which the filter's progress() answers false, a little before the
        /// helper is killed at the limit.
        var stopAfter: Double? = nil
    }

    struct MigrateRequest: Codable {
        var library: String
        var filter: String
        var params: [String: FilterValue]
        var from: Int
    }

    struct MigrateReply: Codable {
        var params: [String: FilterValue]?
        /// Why a step failed (the plugin's words), and from which version.
        var error: String?
        var failedFrom: Int?
    }

    /// Migrates stored parameters in the helper.
    func migrate(descriptor: FilterDescriptor, params: [String: FilterValue], from: Int) throws -> [String: FilterValue] {
        let request = MigrateRequest(library: descriptor.library, filter: descriptor.id, params: params, from: from)
        let data = try spawn(["migrate"], input: try JSONEncoder().encode(request), subject: descriptor.id)
        guard let reply = try? JSONDecoder().decode(MigrateReply.self, from: data) else {
            throw FilterError.garbled(filter: descriptor.id, detail: "its reply was not understood")
        }
        guard let migrated = reply.params else {
            throw FilterError.migrationFailed(filter: descriptor.id, from: reply.failedFrom ?? from, reason: reply.error ?? "no reason given")
        }
        return migrated
    }

    struct RunReply: Codable {
        var status: Int32
        var message: String
        /// Where the filter wrote outside its pixels without faulting (a row's padding).
        var overrun: String?
        /// Whether its progress() had answered false (the limit was near).
        var stopped: Bool?
    }

    /// Reads a plugin's declarations in the helper.
    func describe(_ path: String, origin: FilterDescriptor.Origin) throws -> ([(FilterDescriptor, UInt32)], [String]) {
        let (filters, warnings, _) = try describeWithExtensions(path, origin: origin)
        return (filters, warnings)
    }

    /// The same, and whether the plugin offers MEMERY_EXT_MIGRATE.
    func describeWithExtensions(_ path: String, origin: FilterDescriptor.Origin) throws -> ([(FilterDescriptor, UInt32)], [String], Bool) {
        let reply: DescribeReply
        do {
            let output = try spawn(["describe", path, origin.rawValue], input: Data(), subject: path)
            reply = try JSONDecoder().decode(DescribeReply.self, from: output)
        } catch FilterError.crashed(_, let signal) {
            return ([], ["skipped plugin \(path): it crashed while being read (signal \(signal))"], false)
        } catch FilterError.timedOut(_, let seconds) {
            return ([], ["skipped plugin \(path): it did not answer within \(Int(seconds)) s"], false)
        } catch let error as FilterError {
            return ([], ["skipped plugin \(path): \(error)"], false)
        } catch {
            return ([], ["skipped plugin \(path): its helper answered with something unreadable"], false)
        }
        return (reply.filters.map { ($0.descriptor, $0.pixelFormats) }, reply.warnings, reply.migrates ?? false)
    }

    /// Reads frei0r's filters in the helper: all installed ones, or those of `files`.
    func describeFrei0r(_ files: [String] = []) throws -> [FilterDescriptor] {
        let output = try spawn(["describe-frei0r"] + files, input: Data(), subject: files.first ?? "frei0r")
        guard let reply = try? JSONDecoder().decode(DescribeReply.self, from: output) else {
            throw FilterError.garbled(filter: files.first ?? "frei0r", detail: "its reply was not understood")
        }
        return reply.filters.map(\.descriptor)
    }

    /// Runs a filter in the helper on `input`, writing `output`; returns its status and message.
    func run(descriptor: FilterDescriptor, values: [String: FilterValue], input: inout [UInt8], output: inout [UInt8],
             width: Int, height: Int, straight: Bool) throws -> (Int32, String) {
        let size = input.count
        let warm = warm.flatMap { $0.serves(.plugins, by: helper) ? $0 : nil }
        // The pixels' memory: a warm helper is handed a memory file (made ready before it was
        // needed, when one is), a helper of its own opens shared memory by its name.
        var name = "", handed: SharedPixels?
        let fd: Int32
        if let warm {
            handed = warm.output(bytes: size * 2) ?? SharedPixels()
            fd = handed?.descriptor ?? -1
        } else {
            name = "/memery-\(getpid())-\(UUID().uuidString.prefix(8))"
            fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0o600)
        }
        guard fd >= 0 else { throw FilterError.isolationFailed(filter: descriptor.id, reason: "no shared memory (\(String(cString: strerror(errno))))") }
        defer { if handed == nil { close(fd); shm_unlink(name) } }
        guard ftruncate(fd, off_t(size * 2)) == 0, let memory = mmap(nil, size * 2, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0),
              memory != MAP_FAILED else {
            throw FilterError.isolationFailed(filter: descriptor.id, reason: "shared memory of \(size * 2) bytes could not be mapped")
        }
        defer { munmap(memory, size * 2) }
        input.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: size) }
        let request = RunRequest(origin: descriptor.origin, library: descriptor.library, filter: descriptor.id, params: values, width: width, height: height,
                                 straight: straight, sharedMemory: name, stopAfter: timeout - min(1, timeout * 0.2))
        let encoded = try JSONEncoder().encode(request)
        var warmJob: WarmJob?
        let data: Data
        if let warm {
            let job: WarmJob
            do {
                job = try warm.start(encoded, descriptors: [fd], key: descriptor.library, timeout: timeout)
            } catch let failure as WarmHelpers.Failure {
                throw FilterError.isolationFailed(filter: descriptor.id, reason: failure.reason)
            }
            warmJob = job
            data = try answer(of: job, subject: descriptor.id)
        } else {
            data = try spawn(["run"], input: encoded, subject: descriptor.id)
        }
        // A warm helper is kept only after a run that went well; whatever else, it is let go.
        defer { warmJob?.release(well: false) }
        guard let reply = try? JSONDecoder().decode(RunReply.self, from: data) else {
            throw FilterError.garbled(filter: descriptor.id, detail: "its reply was not understood")
        }
        warmJob?.release(well: reply.status == Int32(MEMERY_OK.rawValue) && reply.overrun == nil && reply.stopped != true)
        if let overrun = reply.overrun { throw FilterError.overran(filter: descriptor.id, detail: overrun) }
        // Told to stop as the limit neared, it did: the same outcome as being killed there.
        if reply.stopped == true, reply.status == Int32(MEMERY_ERROR_CANCELLED.rawValue) {
            if RenderCancellation.current?.isCancelled == true { throw FilterError.cancelled(filter: descriptor.id) }
            throw FilterError.timedOut(filter: descriptor.id, seconds: timeout)
        }
        output.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: memory + size, byteCount: size) }
        guard (0...5).contains(reply.status) else {
            throw FilterError.garbled(filter: descriptor.id, detail: "it returned an unknown status \(reply.status)")
        }
        return (reply.status, reply.message)
    }

    /// A warm helper's answer to a run, as `spawn` gives a helper's: its reply, or the error
    /// its ending means.
    private func answer(of job: WarmJob, subject: String) throws -> Data {
        let outcome = job.answer(cancellation: RenderCancellation.current)
        // A plugin's log lines are the user's to read, not part of why the helper failed.
        let said = PluginLog.relay(job.said()).trimmingCharacters(in: .whitespacesAndNewlines)
        switch outcome {
        case .timedOut:
            throw FilterError.timedOut(filter: subject, seconds: timeout)
        case .cancelled:
            throw FilterError.cancelled(filter: subject)
        case .ended(let status):
            let signal = memery_ending_signal(status)
            if signal != 0 {
                if let overrun = GuardedPixels.overrun(in: said) { throw FilterError.overran(filter: subject, detail: overrun + " and was stopped") }
                throw FilterError.crashed(filter: subject, signal: signal)
            }
            throw FilterError.garbled(filter: subject, detail: said.isEmpty ? "its helper exited with \(memery_exited_status(status))" : said)
        case .answered(let answer):
            guard answer.first == 0 else { throw FilterError.garbled(filter: subject, detail: said.isEmpty ? "its helper failed" : said) }
            return answer.dropFirst()
        }
    }

    /// Runs the helper with `arguments`, feeding `input`; returns what it printed. Throws when
    /// it dies from a signal, runs past the limit, or fails.
    func spawn(_ arguments: [String], input: Data, subject: String) throws -> Data {
        let process = HelperProcess(executable: helper, timeout: timeout)
        guard process.isInstalled else {
            throw FilterError.isolationFailed(filter: subject, reason: "the helper \(helper) is missing (set MEMERY_HELPER to the memery binary)")
        }
        // The helper filters the plugin's log by MEMERY_PLUGIN_LOG; a bad value is said here.
        _ = PluginLog.threshold
        switch try process.run(["__plugin-worker"] + arguments, input: input, cancellation: RenderCancellation.current) {
        case .timedOut:
            throw FilterError.timedOut(filter: subject, seconds: timeout)
        case .cancelled:
            throw FilterError.cancelled(filter: subject)
        case let .signalled(signal, said):
            if let overrun = GuardedPixels.overrun(in: said) { throw FilterError.overran(filter: subject, detail: overrun + " and was stopped") }
            throw FilterError.crashed(filter: subject, signal: signal)
        case let .exited(status, output, said):
            guard status == 0 else {
                throw FilterError.garbled(filter: subject, detail: said.isEmpty ? "its helper exited with \(status)" : said)
            }
            return output
        }
    }
}
