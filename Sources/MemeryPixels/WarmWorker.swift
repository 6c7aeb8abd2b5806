import MemeryHelperIPC
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A warm helper's side of `WarmHelpers`: jobs one at a time on standard input (a socket),
/// each a message with its request and `descriptors` memory files, the last of which takes
/// what is said on standard error during the job. `job` answers each with the message to
/// send back. It lives until the pool closes its end, or a job's limit or crash ends it.
enum WarmWorker {
    static func serve(descriptors expected: Int, job: (Data, [Int32]) -> Data) -> Int32 {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            var descriptors = [Int32](repeating: -1, count: expected)
            var count: Int32 = 0
            let got = memery_receive_with_descriptors(STDIN_FILENO, &buffer, buffer.count, &descriptors, Int32(expected), &count)
            if got == 0 { return 0 }  // the pool let this helper go
            if got < 0, errno == EINTR { continue }
            guard got > 0, count == expected else {
                for descriptor in descriptors.prefix(Int(max(0, count))) { close(descriptor) }
                return 2
            }
            let answer = withErrors(going: descriptors[expected - 1]) { job(Data(buffer[..<got]), descriptors) }
            for descriptor in descriptors { close(descriptor) }
            let sent = answer.withUnsafeBytes { send(STDIN_FILENO, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent == answer.count else { return 0 }
        }
    }

    /// Runs `body` with standard error going to `errors`.
    private static func withErrors<T>(going errors: Int32, _ body: () -> T) -> T {
        let own = dup(STDERR_FILENO)
        dup2(errors, STDERR_FILENO)
        defer {
            dup2(own, STDERR_FILENO)
            close(own)
        }
        return body()
    }

    /// Moves a soft limit for the job, the hard one left as it is (a helper may not raise it
    /// again). Both limits count what the process has already used: pass that
    /// (`processorSecondsUsed`, `dataInUse`) plus the job's own.
    static func setSoftLimit(_ resource: __rlimit_resource, to soft: Int) -> Bool {
        var value = rlimit()
        guard getrlimit(__rlimit_resource_t(resource.rawValue), &value) == 0 else { return false }
        value.rlim_cur = value.rlim_max == rlim_t.max ? rlim_t(soft) : min(rlim_t(soft), value.rlim_max)
        return setrlimit(__rlimit_resource_t(resource.rawValue), &value) == 0
    }

    /// The bytes RLIMIT_DATA counts that this process holds now (VmData): what earlier jobs
    /// left (caches, heap not given back) is not the next job's to pay for.
    static var dataInUse: Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmData:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return kilobytes << 10
    }

    /// The processor time this process has used, in whole seconds rounded up.
    static var processorSecondsUsed: Int {
        var used = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used)
        return used.tv_sec + (used.tv_nsec > 0 ? 1 : 0)
    }

    /// A memory file's bytes, mapped (nothing copied; unmapped with the Data).
    static func mapped(_ descriptor: Int32) -> Data {
        var size = stat()
        guard fstat(descriptor, &size) == 0, size.st_size > 0,
              let bytes = mmap(nil, Int(size.st_size), PROT_READ, MAP_SHARED, descriptor, 0), bytes != MAP_FAILED else { return Data() }
        return Data(bytesNoCopy: bytes, count: Int(size.st_size), deallocator: .custom { bytes, count in munmap(bytes, count) })
    }
}
