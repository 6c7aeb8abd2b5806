import Foundation
import MemeryRender

/// The image import path under a fuzzer: any bytes must decode or fail with a RenderError.
///
/// Built with `make fuzz` (-sanitize=fuzzer -D FUZZING) it is a libFuzzer target; built as
/// usual it replays the files it is given — the corpus and every crash kept as a regression.
func fuzzImage(_ data: Data) {
    // A low pixel limit keeps each run small; refusing big images is part of what is tested.
    _ = try? ImageDecoder(maxPixels: 4_000_000).decode(data, source: "fuzz")
}

#if FUZZING
/// libFuzzer's own main calls this; ours (below) drives libFuzzer the same way, whichever
/// main the linker keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzImage(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt
#endif

@main
enum Entry {
    static func main() {
        #if FUZZING
        // libFuzzer drives: every input it makes goes through fuzzImage.
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
            fuzzImage(bytes.map { Data(bytes: $0, count: count) } ?? Data())
            return 0
        })
        #else
        var files = 0
        for path in CommandLine.arguments.dropFirst() {
            let url = URL(fileURLWithPath: path)
            let list = (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? [url]
            for file in list where !file.lastPathComponent.hasPrefix(".") {
                guard let data = try? Data(contentsOf: file) else { continue }
                fuzzImage(data)
                files += 1
            }
        }
        print("replayed \(files) inputs through the image import path")
        #endif
    }
}
