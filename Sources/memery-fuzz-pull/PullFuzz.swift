import Foundation
import Memery
import MemeryFuzzSupport
import MemeryHubClient
import MemeryHubProtocol

/// The pull path under a fuzzer, as `memery sync` takes a hub's page: the JSON decoded,
/// every event re-sealed (its checksum made right, so what lies behind the check is
/// reached), sorted into what can be stored and what is set aside, and stored. A hostile
/// hub may be refused with any error; nothing it sends may crash this process (a number,
/// a date, a size), and the store must verify after.
final class PullFuzzer {
    let scratch: URL
    var workspace: Workspace
    var pages = 0

    init() {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("memery-fuzz-pull-\(getpid())")
        workspace = Self.freshStore(at: scratch)
    }

    static func freshStore(at scratch: URL) -> Workspace {
        try? FileManager.default.removeItem(at: scratch)
        try! FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return try! Workspace(directory: scratch.appendingPathComponent("store"))
    }

    func pullOne(_ data: Data) {
        guard var page = try? JSONDecoder().decode(PullAnswer.self, from: data) else { return }
        for index in page.events.indices { page.events[index].checksum = HubEvent.checksum(of: page.events[index]) }
        let sorted = SetAsideEvents.sort(page.events, in: workspace)
        _ = try? workspace.sync.incoming(sorted.readable.map(\.syncEvent)) { hash in Data(hash.utf8) }
        pages += 1
        // Under the fuzzer every 100th page (a store accumulates pages, as a sync's does);
        // replaying kept inputs, after each.
        #if FUZZING
        let verifyEvery = 100
        #else
        let verifyEvery = 1
        #endif
        if pages % verifyEvery == 0 {
            let check = try! workspace.verify()
            precondition(check.isClean, "the store does not verify after \(pages) pages: \(check.problems)")
            workspace = Self.freshStore(at: scratch)
        }
    }
}

/// Unsafe, earned: libFuzzer calls its callback on one thread, never two at once.
nonisolated(unsafe) let fuzzer = PullFuzzer()

func fuzzOne(_ data: Data) { fuzzer.pullOne(data) }

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzOne(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}
#endif

@main
enum FuzzPull {
    static func main() {
        FuzzDriver.main("the pull path", fuzzOne)
    }
}
