import Foundation

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The body libFuzzer's callback runs (a C callback cannot capture it). Unsafe, earned: set
/// once before libFuzzer starts, which then calls back on its one thread.
nonisolated(unsafe) private var fuzzBody: ((Data) -> Void)?
#endif

/// The `main` of a fuzz target. Built with `make fuzz` (-sanitize=fuzzer -D FUZZING), libFuzzer
/// drives `body` with the inputs it makes; built as usual, it replays the files and folders
/// given — the corpus and every crash kept as a regression.
public enum FuzzDriver {
    public static func main(_ what: String, _ body: @escaping (Data) -> Void) -> Never {
        #if FUZZING
        fuzzBody = body
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
            fuzzBody?(bytes.map { Data(bytes: $0, count: count) } ?? Data())
            return 0
        })
        #else
        var files = 0
        for path in CommandLine.arguments.dropFirst() {
            let url = URL(fileURLWithPath: path)
            var folder: ObjCBool = false
            FileManager.default.fileExists(atPath: path, isDirectory: &folder)
            let list = folder.boolValue ? (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? [] : [url]
            for file in list where !file.lastPathComponent.hasPrefix(".") {
                guard let data = try? Data(contentsOf: file) else { continue }
                body(data)
                files += 1
            }
        }
        print("replayed \(files) inputs through \(what)")
        exit(0)
        #endif
    }
}
