import Foundation
@testable import Memery
import MemeryCore
import MemeryRender
import MemeryTestSupport
import Testing

/// Which formats are accepted is decided at the door: a picture the store already keeps
/// renders even when imports of its kind are now refused.
@Suite struct StoredPictureTests {
    /// A 2x2 BMP with a version-5 header and 32-bit bit fields (a variant refused on import).
    static func bitFieldBMP() -> Data {
        func le(_ v: UInt32, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(v >> (8 * UInt32($0)) & 0xFF) } }
        var bytes = Array("BM".utf8) + le(14 + 124 + 16, 4) + le(0, 4) + le(14 + 124, 4)
        bytes += le(124, 4) + le(2, 4) + le(2, 4) + le(1, 2) + le(32, 2) + le(3, 4) + le(16, 4) + le(2835, 4) + le(2835, 4) + le(0, 4) + le(0, 4)
        bytes += le(0x00FF_0000, 4) + le(0x0000_FF00, 4) + le(0x0000_00FF, 4) + le(0xFF00_0000, 4)
        bytes += le(0x7352_4742, 4) + [UInt8](repeating: 0, count: 36 + 12) + le(4, 4) + le(0, 4) + le(0, 4) + le(0, 4)
        for _ in 0..<4 { bytes += [0x00, 0x00, 0xFF, 0xFF] }  // blue, green, red, alpha: opaque red
        return Data(bytes)
    }

    @Test func aKeptPictureRendersAfterItsKindIsRefusedOnImport() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let file = dir.url.appendingPathComponent("v5.bmp")
        try Self.bitFieldBMP().write(to: file)
        let store = dir.url.appendingPathComponent("store")
        #expect(throws: RenderError.self) { try Workspace(directory: store).create(name: "refused", imageAt: file.path) }
        // Made by a process that accepted it (MEMERY_IMAGE_FORMATS=all), as 0.1 did.
        let accepting = try Workspace(directory: store, mapSize: Workspace.defaultMapSize, decoder: ImageDecoder(alsoAccepted: ["all"]))
        try accepting.create(name: "kept", imageAt: file.path)
        let picture = try Workspace(directory: store).render("kept")
        #expect(picture.width == 2 && picture.height == 2)
        let pixel = picture.pixel(x: 0, y: 0)
        #expect(pixel.r > 200 && pixel.g < 50 && pixel.b < 50 && pixel.a == 255, "\(pixel)")
    }
}
