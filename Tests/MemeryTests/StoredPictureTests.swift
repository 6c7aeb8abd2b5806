import Foundation
@testable import Memery
import MemeryCore
import MemeryRender
import MemeryTestSupport
import Testing

/// Which formats are accepted is decided at the door: a picture the store already keeps
/// renders even when imports of its kind are now refused.
@Suite struct StoredPictureTests {
    /// A 2x2 XPM, all red (a format refused on import, which gdk-pixbuf reads).
    static func xpm() -> Data {
        Data("/* XPM */\nstatic char * red_xpm[] = {\n\"2 2 1 1\",\n\"r c #FF0000\",\n\"rr\",\n\"rr\"};\n".utf8)
    }

    @Test func aKeptPictureRendersAfterItsKindIsRefusedOnImport() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let file = dir.url.appendingPathComponent("red.xpm")
        try Self.xpm().write(to: file)
        let store = dir.url.appendingPathComponent("store")
        #expect(throws: RenderError.self) { try Workspace(directory: store).create(name: "refused", imageAt: file.path) }
        // Made by a process that accepted it (MEMERY_IMAGE_FORMATS=all), as 0.1 did.
        let accepting = try Workspace(directory: store, mapSize: Workspace.defaultMapSize, decoder: ImageDecoder(alsoAccepted: ["all"]))
        try accepting.create(name: "kept", imageAt: file.path)
        let opened = try Workspace(directory: store)
        let picture = try opened.pictures.render(try opened.creation(named: "kept"))
        #expect(picture.width == 2 && picture.height == 2)
        let pixel = picture.pixel(x: 0, y: 0)
        #expect(pixel.r > 200 && pixel.g < 50 && pixel.b < 50 && pixel.a == 255, "\(pixel)")
    }
}
