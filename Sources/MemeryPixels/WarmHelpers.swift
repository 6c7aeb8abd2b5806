import CSharedMemory
import MemeryHelperIPC
import Foundation
import MemeryLocks
#if canImport(Glibc)
import Glibc
#endif

/// Helper processes kept running between jobs, for a long-lived process (`memery serve`;
/// on a hub, one set per person's workspace, so that two people's pictures never meet in one
/// process). A new helper costs tens of milliseconds to start; a warm one takes the next job
/// at once, under the same limits: a decoding job sets its own processor-time limit (RLIMIT_CPU
/// counts a process's whole life) and memory limit, and every job has its time limit. A helper
/// is let go after `jobsPerHelper` jobs and after any job that did not end well (a refusal, a
/// failure, a limit, a cancellation), so whatever a hostile picture or plugin left behind is
/// gone with it.
///
/// A job is one message on a socket (SOCK_SEQPACKET): its request, with the descriptors of
/// the memory files it works on (SCM_RIGHTS); the helper answers with one message.
public final class WarmHelpers: Sendable {
    /// What the helpers do: the hidden mode of `memery` they run in.
    public enum Kind: String, Sendable {
        case decoding = "__image-worker"
        case plugins = "__plugin-worker"
    }

    /// The helper modes' argument for a warm helper (`memery __image-worker --warm`).
    static let argument = "--warm"

    let kind: Kind
    let helper: String
    public let jobsPerHelper: Int
    private let state = Locked(State())

    struct State {
        /// How many idle helpers are kept; 0: none, every job starts a helper of its own.
        var keep = 0
        var idle: [Helper] = []
        /// The helpers that took the last jobs (up to 256), newest last: what the tests see.
        var served: [pid_t] = []
    }

    /// One running helper: its process and this end of its socket.
    struct Helper: Sendable {
        let pid: pid_t
        let socket: Int32
        /// What it may run: a plugin helper runs one library for its whole life, so that one
        /// plugin's code left running can never touch another's pictures.
        let key: String
        var jobs = 0

        /// Whether it has said anything between jobs, or ended: it is not kept then.
        var isQuiet: Bool {
            var watched = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            return poll(&watched, 1, 0) == 0
        }
    }

    /// Why a job could not be handed to a helper.
    struct Failure: Error {
        var reason: String
    }

    public init(_ kind: Kind, keep: Int = 0, jobsPerHelper: Int = 64, helper: String = HelperProcess.helperBinary) {
        self.kind = kind
        self.helper = helper
        self.jobsPerHelper = max(1, jobsPerHelper)
        state.withLock { $0.keep = max(0, keep) }
    }

    deinit {
        for helper in state.withLock({ $0.idle }) { Self.letGo(helper) }
    }

    /// How many idle helpers are kept; setting fewer lets the extra ones go.
    public var keep: Int {
        get { state.withLock { $0.keep } }
        set {
            let extra: [Helper] = state.withLock { state in
                state.keep = max(0, newValue)
                let surplus = max(0, state.idle.count - state.keep)
                defer { state.idle.removeFirst(surplus) }
                return Array(state.idle.prefix(surplus))
            }
            extra.forEach(Self.letGo)
            if newValue <= 0 { spare.withLock { $0.file = nil } }
        }
    }

    /// A memory file for the next decode's pixels, its pages made while nobody waits: making
    /// 48 MB of shared memory costs about 40 ms here, a third of a 12-megapixel photo's warm
    /// decode. One is kept between jobs, at the size of the last picture (up to 64 MB: a
    /// 16-megapixel photo), until no helper is kept.
    private let spare = Locked(Spare())
    private struct Spare {
        var file: SharedPixels?
        var preparing = false
    }
    static let largestSpare = 64 << 20

    /// The memory file for a decode's output of `bytes`: the spare, sized to it, or nil when
    /// none is ready. Another of that size is made ready for the next decode.
    func output(bytes: Int) -> SharedPixels? {
        let taken = spare.withLock { spare in
            defer { spare.file = nil }
            return spare.file
        }
        if bytes <= Self.largestSpare { prepareSpare(bytes: bytes) }
        guard let taken, ftruncate(taken.descriptor, off_t(bytes)) == 0 else { return nil }
        return taken
    }

    private func prepareSpare(bytes: Int) {
        let starts = spare.withLock { spare in
            guard !spare.preparing, spare.file == nil else { return false }
            spare.preparing = true
            return true
        }
        guard starts else { return }
        DispatchQueue.global(qos: .utility).async { [weak self] in
            let file = SharedPixels()
            if let file, posix_fallocate(file.descriptor, 0, off_t(bytes)) != 0 { _ = ftruncate(file.descriptor, 0) }
            self?.spare.withLock { spare in
                spare.file = file
                spare.preparing = false
            }
        }
    }

    /// Whether `kind` jobs for `helper` go to warm helpers here.
    func serves(_ kind: Kind, by helper: String) -> Bool { kind == self.kind && helper == self.helper && keep > 0 }

    /// The processes of the helpers that took the last jobs, oldest first.
    var served: [pid_t] { state.withLock { $0.served } }

    /// Hands a job to an idle helper for `key` (a plugin's library; decoding has one), or to
    /// a new one: `request` and the descriptors it names (the helper gets its own copies), and
    /// a memory file for what the helper says on standard error during the job.
    func start(_ request: Data, descriptors: [Int32], key: String = "", timeout: TimeInterval) throws -> WarmJob {
        guard FileManager.default.isExecutableFile(atPath: helper) else {
            throw Failure(reason: "the helper \(helper) is missing or not executable (reinstall memery, or set MEMERY_HELPER to the memery binary)")
        }
        let errors = memery_memory_file("memery-helper-errors")
        guard errors >= 0 else { throw Failure(reason: "no memory file for a helper (\(String(cString: strerror(errno))))") }
        let sent = descriptors + [errors]
        // An idle helper that has ended meanwhile is let go; one that will not take the job
        // is replaced by a new one, once.
        for attempt in 0..<2 {
            let idle = attempt == 0 ? takeIdle(for: key) : nil
            var helper: Helper
            do {
                helper = try idle ?? startHelper(for: key)
            } catch {
                close(errors)
                throw error
            }
            let count = request.withUnsafeBytes { bytes in
                sent.withUnsafeBufferPointer { memery_send_with_descriptors(helper.socket, bytes.baseAddress, bytes.count, $0.baseAddress, Int32($0.count)) }
            }
            if count == request.count {
                helper.jobs += 1
                state.withLock { state in
                    state.served.append(helper.pid)
                    if state.served.count > 256 { state.served.removeFirst() }
                }
                return WarmJob(pool: self, helper: helper, errors: errors, deadline: .now() + timeout)
            }
            Self.letGo(helper)
        }
        close(errors)
        throw Failure(reason: "the helper \(helper) did not take its job (reinstall memery, or set MEMERY_HELPER to the memery binary)")
    }

    /// An idle helper for `key` that is still there and quiet; those that are not are let go.
    private func takeIdle(for key: String) -> Helper? {
        while true {
            let taken = state.withLock { state -> Helper? in
                guard let index = state.idle.lastIndex(where: { $0.key == key }) else { return nil }
                return state.idle.remove(at: index)
            }
            guard let taken else { return nil }
            if taken.isQuiet { return taken }
            Self.letGo(taken)
        }
    }

    /// Back to the idle ones after a job that ended well, while it has jobs left, is quiet,
    /// and fewer are idle than are kept (an idle helper for another key makes room); else
    /// let go.
    fileprivate func finished(_ helper: Helper, well: Bool) {
        var evicted: Helper?
        let kept = well && helper.jobs < jobsPerHelper && helper.isQuiet && state.withLock { state in
            guard state.keep > 0 else { return false }
            if state.idle.count >= state.keep {
                guard let other = state.idle.firstIndex(where: { $0.key != helper.key }) else { return false }
                evicted = state.idle.remove(at: other)
            }
            state.idle.append(helper)
            return true
        }
        if let evicted { Self.letGo(evicted) }
        if !kept { Self.letGo(helper) }
    }

    private func startHelper(for key: String) throws -> Helper {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw Failure(reason: "no socket for a helper (\(String(cString: strerror(errno))))")
        }
        defer { close(pair[1]) }
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"  // a crash ends the helper at once
        environment[EnvironmentWarning.helperMarker] = "1"
        let words: [String] = [helper, kind.rawValue, Self.argument]
        let arguments = words.map { strdup($0) }
        let variables = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { (arguments + variables).forEach { free($0) } }
        var pid: pid_t = 0
        let result = (arguments + [nil]).withUnsafeBufferPointer { argv in
            (variables + [nil]).withUnsafeBufferPointer { envp in
                memery_spawn_with_input(&pid, helper, argv.baseAddress, envp.baseAddress, pair[1])
            }
        }
        guard result == 0 else {
            close(pair[0])
            throw Failure(reason: "the helper \(helper) could not start (\(String(cString: strerror(result)))); reinstall memery, or set MEMERY_HELPER to the memery binary")
        }
        return Helper(pid: pid, socket: pair[0], key: key)
    }

    /// A memory file holding `bytes`, closed on exec (a job's input).
    static func memoryFile(_ name: String, holding bytes: Data) throws -> Int32 {
        let descriptor = memery_memory_file(name)
        guard descriptor >= 0 else { throw Failure(reason: "no memory file for a helper (\(String(cString: strerror(errno))))") }
        var written = 0
        while written < bytes.count {
            let wrote = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else {
                close(descriptor)
                throw Failure(reason: "\(bytes.count) bytes did not fit in memory for a helper")
            }
            written += wrote
        }
        return descriptor
    }

    /// Ends the helper and collects it, away from the caller. Killed, not asked: a plugin's
    /// code run at exit (a library's destructor) could otherwise keep it alive, unlimited.
    static func letGo(_ helper: Helper) {
        DispatchQueue.global().async { end(helper) }
    }

    /// Ends the helper now and collects it: its status, as waitpid gives it.
    @discardableResult
    static func end(_ helper: Helper) -> Int32 {
        kill(helper.pid, SIGKILL)
        close(helper.socket)
        var status: Int32 = 0
        while waitpid(helper.pid, &status, 0) < 0, errno == EINTR {}
        return status
    }
}

/// A job a warm helper is doing (`WarmHelpers.start`).
final class WarmJob {
    private let pool: WarmHelpers
    private let helper: WarmHelpers.Helper
    private let errors: Int32
    private let deadline: DispatchTime
    private var done = false

    enum Outcome {
        /// The helper's answer.
        case answered(Data)
        /// It ended during the job: `status` as waitpid gave it.
        case ended(status: Int32)
        case timedOut
        /// Its caller's render was cancelled: it was told, and ended if it did not stop in time.
        case cancelled
    }

    init(pool: WarmHelpers, helper: WarmHelpers.Helper, errors: Int32, deadline: DispatchTime) {
        self.pool = pool
        self.helper = helper
        self.errors = errors
        self.deadline = deadline
    }

    deinit {
        if !done { WarmHelpers.end(helper) }
        close(errors)
    }

    var pid: pid_t { helper.pid }

    /// Whether the helper has answered, or ended.
    var hasEnded: Bool {
        var watched = pollfd(fd: helper.socket, events: Int16(POLLIN), revents: 0)
        return poll(&watched, 1, 0) > 0
    }

    /// Waits for the answer, within the job's time limit. When `cancellation` is cancelled
    /// meanwhile, the helper is told (SIGUSR1) and given a second before it is ended. The
    /// caller says whether the job ended well (`release`).
    func answer(cancellation: RenderCancellation? = nil) -> Outcome {
        var watched = pollfd(fd: helper.socket, events: Int16(POLLIN), revents: 0)
        var told: DispatchTime?
        while true {
            let now = DispatchTime.now()
            let until = min(told.map { $0 + .seconds(1) } ?? deadline, deadline)
            if now >= until {
                done = true
                WarmHelpers.end(helper)
                return told == nil ? .timedOut : .cancelled
            }
            var slice = Int((until.uptimeNanoseconds - now.uptimeNanoseconds) / 1_000_000)
            if cancellation != nil, told == nil { slice = min(slice, 50) }
            let ready = poll(&watched, 1, Int32(min(slice, Int(Int32.max))))
            if ready < 0, errno == EINTR { continue }
            if ready > 0 { break }
            if told == nil, cancellation?.isCancelled == true {
                told = .now()
                kill(helper.pid, SIGUSR1)
            }
        }
        var bytes = [UInt8](repeating: 0, count: 64 << 10)
        var got: Int
        repeat { got = recv(helper.socket, &bytes, bytes.count, 0) } while got < 0 && errno == EINTR
        if got > 0 {
            if told != nil {  // told to stop: it may be told again after its answer; not kept
                release(well: false)
                return .cancelled
            }
            return .answered(Data(bytes[..<got]))
        }
        done = true
        let status = WarmHelpers.end(helper)
        return told == nil ? .ended(status: status) : .cancelled
    }

    /// Hands the helper back to its pool (kept when the job ended well), once answered.
    func release(well: Bool) {
        guard !done else { return }
        done = true
        pool.finished(helper, well: well)
    }

    /// What the helper said on standard error during this job (the first 64 KB).
    func said() -> String {
        var bytes = [UInt8](repeating: 0, count: 64 << 10)
        let read = pread(errors, &bytes, bytes.count, 0)
        return String(decoding: bytes.prefix(max(0, read)), as: UTF8.self)
    }
}
