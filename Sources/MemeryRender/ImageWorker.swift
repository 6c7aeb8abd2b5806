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
    }

    struct Reply: Codable {
        var info: ImageInfo?
        var error: RenderError?
        /// Bytes per row of the Cairo ARGB32 pixels that follow the line.
        var stride: Int?
    }

    public static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count == 1, let request = try? JSONDecoder().decode(Request.self, from: Data(arguments[0].utf8)) else {
            FileHandle.standardError.write(Data("usage: memery __image-worker REQUEST-JSON < picture\n".utf8))
            return 2
        }
        // A caller that went away (it gave up waiting) ends the helper quietly.
        signal(SIGPIPE, SIG_IGN)
        limit(RLIMIT_DATA, to: request.memoryBytes)
        // Past the soft limit the kernel sends SIGXCPU, a second later SIGKILL.
        limit(RLIMIT_CPU, to: request.cpuSeconds, hard: request.cpuSeconds + 1)
        // The tests' fail point for a decoder that spins: a real picture that takes long
        // enough on one machine decodes within the limit on a faster one.
        if ProcessInfo.processInfo.environment["MEMERY_FAILPOINT"] == "decode-spins" {
            while true { _ = getpid() }
        }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        let decoder = ImageDecoder(maxPixels: request.maxPixels, alsoAccepted: Set(request.alsoAccepted),
                                   maxFrames: request.maxFrames, maxAnimationPixels: request.maxAnimationPixels)
        do {
            if SharedPixels.standardOutputIsFile() {
                // The pixels are decoded straight into the memory the caller maps.
                var shared: Raster?
                var (raster, info) = try decoder.decode(data, source: request.source, fromOutside: true) { width, height in
                    let raster = try SharedPixels.outputRaster(width: width, height: height)
                    shared = raster
                    return raster
                }
                if raster !== shared {  // an animation's first frame: decoded apart
                    let target = try SharedPixels.outputRaster(width: raster.width, height: raster.height)
                    raster.withMutablePixels { pixels, stride in
                        target.withMutablePixels { targetPixels, _ in targetPixels.update(from: pixels, count: stride * raster.height) }
                    }
                    raster = target
                }
                SharedPixels.finished(raster)
                try SharedPixels.write(reply: try JSONEncoder().encode(Reply(info: info, stride: raster.stride)) + Data("\n".utf8))
                return 0
            }
            let (raster, info) = try decoder.decode(data, source: request.source)
            try write(Reply(info: info, stride: raster.stride))
            try raster.withMutablePixels { pixels, stride in
                try FileHandle.standardOutput.write(contentsOf: Data(bytesNoCopy: pixels, count: stride * raster.height, deallocator: .none))
            }
        } catch let error as RenderError {
            try? write(Reply(error: error))
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 1
        }
        return 0
    }

    private static func write(_ reply: Reply) throws {
        try FileHandle.standardOutput.write(contentsOf: try JSONEncoder().encode(reply) + Data("\n".utf8))
    }

    private static func limit(_ resource: __rlimit_resource, to soft: Int, hard: Int? = nil) {
        var value = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(hard ?? soft))
        setrlimit(__rlimit_resource_t(resource.rawValue), &value)
    }
}
