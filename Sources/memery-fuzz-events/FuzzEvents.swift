import Foundation
import MemeryCore
import MemeryFuzzSupport
import MemeryStore

/// The event decoders under a fuzzer: a stored record (its checksum made right, so the parser
/// behind it is reached) and a payload of each event type must decode or fail cleanly.
func fuzzOne(_ data: Data) {
    let bytes = [UInt8](data)
    _ = try? StoredEvent.decodeRecord(StoredEvent.sealing(bytes), sequence: 1)
    guard let first = bytes.first else { return }
    let types = Array(CreationEvent.currentVersions.keys).sorted()
    let payload = Data(bytes.dropFirst())
    _ = try? CreationEvent.decode(type: types[Int(first) % types.count], schemaVersion: 1 + Int(first) % 2, payload: payload)
    _ = try? GalleryEvent.decode(type: GalleryEvent.types.sorted()[Int(first) % GalleryEvent.types.count], schemaVersion: 1, payload: payload)
    _ = try? Garage.Event.decode(type: "GarageImageAdded", schemaVersion: 1, payload: payload)
    for type in Templates.Event.types { _ = try? Templates.Event.decode(type: type, schemaVersion: 1, payload: payload) }
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
enum FuzzEvents {
    static func main() {
        FuzzDriver.main("the event decoders", fuzzOne)
    }
}
