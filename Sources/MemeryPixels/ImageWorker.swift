import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The helper process's side of decoding a picture from outside (`memery __image-worker
/// REQUEST`): it caps its own memory and processor time, reads the picture's bytes from
/// standard input, decodes them, and prints one line of JSON (what it is, or why it was
/// refused) followed by the pixels (from `SharedPixels.pixelOffset` when standard output is
/// a file in memory). A decoder that blows up or spins ends here.
public enum ImageWorker {
    struct Request: Codable {
        var maxPixels: Int
        var maxFrames: Int
        var maxAnimationPixels: Int
        var alsoAccepted: [String]
        var source: String
        /// Heap, stacks and private mappings together (RLIMIT_DATA).
        var memoryBytes: Int
        var cpuSeconds: Int
        /// A fail point of the tests: processor time to spend before decoding.
        var spendMilliseconds: Int? = nil
    }

    struct Reply: Codable {
        var info: ImageInfo?
        var error: RenderError?
        /// Bytes per row of the Cairo ARGB32 pixels that follow the line.
        var stride: Int?
    }

    /// How a job ended, as a warm helper tells its pool (`WarmHelpers`); a one-shot helper's
    /// exit status says the same (0 for a picture or a refusal, 1 for a failure).
    enum Ending: UInt8 {
        case decoded = 0
        case failed = 1
        /// The reply names why the picture was refused.
        case refused = 2
    }

    public static func main(_ arguments: [String]) -> Int32 {
        // A caller that went away (it gave up waiting) ends the helper quietly.
        signal(SIGPIPE, SIG_IGN)
        if arguments == [WarmHelpers.argument] { return serveJobs() }
        guard arguments.count == 1, let request = try? JSONDecoder().decode(Request.self, from: Data(arguments[0].utf8)) else {
            FileHandle.standardError.write(Data("usage: memery __image-worker REQUEST-JSON < picture\n".utf8))
            return 2
        }
        limit(RLIMIT_DATA, to: request.memoryBytes)
        // Past the soft limit the kernel sends SIGXCPU, a second later SIGKILL.
        limit(RLIMIT_CPU, to: request.cpuSeconds, hard: request.cpuSeconds + 1)
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return decode(data, request, into: SharedPixels.isFile() ? STDOUT_FILENO : nil) == .failed ? 1 : 0
    }

    /// Decodes `data` and writes the reply and the pixels: into the memory file `output`
    /// when there is one (from `SharedPixels.pixelOffset`, the reply at its start), else on
    /// standard output (the reply's line, then the pixels).
    static func decode(_ data: Data, _ request: Request, into output: Int32?) -> Ending {
        // The tests' fail points: a decoder that spins (a real picture that takes long enough
        // on one machine decodes within the limit on a faster one), or one that takes a set
        // amount of processor time first.
        if ProcessInfo.processInfo.environment["MEMERY_FAILPOINT"] == "decode-spins" {
            while true { _ = getpid() }
        }
        if let milliseconds = request.spendMilliseconds { spendProcessorTime(milliseconds) }
        let decoder = ImageDecoder(maxPixels: request.maxPixels, alsoAccepted: Set(request.alsoAccepted),
                                   maxFrames: request.maxFrames, maxAnimationPixels: request.maxAnimationPixels)
        do {
            if let output {
                // The pixels are decoded straight into the memory the caller maps.
                var shared: Raster?
                var (raster, info) = try decoder.decode(data, source: request.source, fromOutside: true) { width, height in
                    let raster = try SharedPixels.outputRaster(in: output, width: width, height: height)
                    shared = raster
                    return raster
                }
                if raster !== shared {  // an animation's first frame: decoded apart
                    let target = try SharedPixels.outputRaster(in: output, width: raster.width, height: raster.height)
                    raster.withMutablePixels { pixels, stride in
                        target.withMutablePixels { targetPixels, _ in targetPixels.update(from: pixels, count: stride * raster.height) }
                    }
                    raster = target
                }
                SharedPixels.finished(raster)
                try SharedPixels.write(reply: try JSONEncoder().encode(Reply(info: info, stride: raster.stride)) + Data("\n".utf8), to: output)
                return .decoded
            }
            let (raster, info) = try decoder.decode(data, source: request.source)
            try write(Reply(info: info, stride: raster.stride))
            try raster.withMutablePixels { pixels, stride in
                try FileHandle.standardOutput.write(contentsOf: Data(bytesNoCopy: pixels, count: stride * raster.height, deallocator: .none))
            }
            return .decoded
        } catch let error as RenderError {
            let reply = (try? JSONEncoder().encode(Reply(error: error))).map { $0 + Data("\n".utf8) } ?? Data()
            if let output { try? SharedPixels.write(reply: reply, to: output) } else { try? FileHandle.standardOutput.write(contentsOf: reply) }
            return .refused
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return .failed
        }
    }

    /// Burns `milliseconds` of this process's processor time (a fail point of the tests:
    /// counted by the clock the limit counts, so it means the same on any machine).
    private static func spendProcessorTime(_ milliseconds: Int) {
        func used() -> Int {
            var now = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
            return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
        }
        let until = used() + milliseconds
        while used() < until {}
    }

    private static func write(_ reply: Reply) throws {
        try FileHandle.standardOutput.write(contentsOf: try JSONEncoder().encode(reply) + Data("\n".utf8))
    }

    static func limit(_ resource: __rlimit_resource, to soft: Int, hard: Int? = nil) {
        var value = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(hard ?? soft))
        setrlimit(__rlimit_resource_t(resource.rawValue), &value)
    }
}
