import Foundation
import MemeryCore
import MemeryStore

/// The event decoder under a fuzzer: a stored record (its checksum made right, so the parser
/// behind it is reached) and a payload of each event type must decode or fail cleanly.
///
/// Built with `make fuzz` it is a libFuzzer target; built as usual it replays files.
func fuzzEvents(_ data: Data) {
    let bytes = [UInt8](data)
    _ = try? StoredEvent.decodeRecord(StoredEvent.sealing(bytes), sequence: 1)
    guard let first = bytes.first else { return }
    let types = Array(CreationEvent.currentVersions.keys).sorted()
    let type = types[Int(first) % types.count]
    let payload = Data(bytes.dropFirst())
    _ = try? CreationEvent.decode(type: type, schemaVersion: 1 + Int(first) % 2, payload: payload)
    _ = try? GalleryEvent.decode(type: GalleryEvent.types.sorted()[Int(first) % GalleryEvent.types.count], schemaVersion: 1, payload: payload)
    _ = try? Garage.Event.decode(type: "GarageImageAdded", schemaVersion: 1, payload: payload)
    _ = try? Templates.decode(schemaVersion: 1, payload: payload)
}

#if FUZZING
/// libFuzzer's own main calls this; ours (below) drives libFuzzer the same way, whichever
/// main the linker keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzEvents(bytes.map { Data(bytes: $0, count: count) } ?? Data())
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
        // libFuzzer drives: every input it makes goes through fuzzEvents.
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
            fuzzEvents(bytes.map { Data(bytes: $0, count: count) } ?? Data())
            return 0
        })
        #else
        var files = 0
        for path in CommandLine.arguments.dropFirst() {
            let url = URL(fileURLWithPath: path)
            let list = (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? [url]
            for file in list where !file.lastPathComponent.hasPrefix(".") {
                guard let data = try? Data(contentsOf: file) else { continue }
                fuzzEvents(data)
                files += 1
            }
        }
        print("replayed \(files) inputs through the event decoders")
        #endif
    }
}
