import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A warm decoding helper (`memery __image-worker --warm`, `WarmHelpers.Kind.decoding`): each
/// job is the request with three memory files, the picture's bytes, the one its reply and
/// pixels go to (as a helper of its own writes its standard output) and its errors; the
/// answer is one byte, how it ended (`Ending`).
extension ImageWorker {
    static func serveJobs() -> Int32 {
        WarmWorker.serve(descriptors: 3) { message, descriptors in
            Data([job(message, picture: descriptors[0], output: descriptors[1]).rawValue])
        }
    }

    private static func job(_ message: Data, picture: Int32, output: Int32) -> Ending {
        guard let request = try? JSONDecoder().decode(Request.self, from: message) else {
            FileHandle.standardError.write(Data("the helper could not read its request\n".utf8))
            return .failed
        }
        // This job's limits, not the helper's whole life's.
        guard WarmWorker.setSoftLimit(RLIMIT_CPU, to: WarmWorker.processorSecondsUsed + request.cpuSeconds),
              WarmWorker.setSoftLimit(RLIMIT_DATA, to: WarmWorker.dataInUse + request.memoryBytes) else {
            FileHandle.standardError.write(Data("the helper could not set its limits (\(String(cString: strerror(errno))))\n".utf8))
            return .failed
        }
        return decode(WarmWorker.mapped(picture), request, into: output)
    }
}
