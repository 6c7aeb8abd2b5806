import Foundation
import Memery
import MemeryFuzzSupport
import MemeryRender

/// The whole import path as `memery new` runs it, under a fuzzer: the bytes written to a
/// file, read, judged by their header, decoded in the helper process with its memory and
/// processor limits, and stored as a creation. Anything may be refused with a RenderError;
/// nothing may crash this process or grow it (libFuzzer's -rss_limit_mb watches), and what
/// is stored must verify.
final class ImportFuzzer {
    let scratch: URL
    var workspace: Workspace
    var imported = 0

    init() {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("memery-fuzz-import-\(getpid())")
        workspace = Self.freshStore(at: scratch)
    }

    static func freshStore(at scratch: URL) -> Workspace {
        try? FileManager.default.removeItem(at: scratch)
        try! FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return try! Workspace(directory: scratch.appendingPathComponent("store"))
    }

    func importOne(_ data: Data) {
        let file = scratch.appendingPathComponent("input")
        try! data.write(to: file)
        do {
            try workspace.create(name: "fuzz \(imported)", imageAt: file.path)
            imported += 1
        } catch is RenderError {
            return  // refused, with a message: what hostile bytes should get
        } catch {
            fatalError("an import failed with something other than a refusal: \(error)")
        }
        // Start over now and then, so the store stays small and each run fast.
        if imported % 200 == 0 {
            let check = try! workspace.verify()
            precondition(check.problem == nil, "the store does not verify after \(imported) imports: \(check.problem!)")
            workspace = Self.freshStore(at: scratch)
        }
    }
}

/// Unsafe, earned: libFuzzer calls its callback on one thread, never two at once.
nonisolated(unsafe) let fuzzer = ImportFuzzer()

func fuzzOne(_ data: Data) { fuzzer.importOne(data) }

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzOne(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}
#endif

@main
enum FuzzImport {
    static func main() {
        FuzzDriver.main("the whole import path (helper process included)", fuzzOne)
    }
}
