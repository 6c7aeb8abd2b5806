import Foundation
import MemeryFuzzSupport
import MemeryRender

/// The image import path under a fuzzer: any bytes must decode or fail with a RenderError.
func fuzzOne(_ data: Data) {
    // A low pixel limit keeps each run small; refusing big images is part of what is tested.
    _ = try? ImageDecoder(maxPixels: 4_000_000).decode(data, source: "fuzz")
}

#if FUZZING
// Whichever main the linker keeps — libFuzzer's or FuzzDriver's — inputs arrive here.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzOne(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}
#endif

@main
enum FuzzImage {
    static func main() {
        FuzzDriver.main("the image import path", fuzzOne)
    }
}
