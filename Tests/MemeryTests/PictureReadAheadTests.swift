import Foundation
@testable import Memery
import MemeryCore
import MemeryRender
import MemeryTestSupport
import Testing

/// `memery new --image` reads and decodes its picture while the store opens
/// (`PictureReadAhead`). What it makes must be what reading the file then would make.
@Suite struct PictureReadAheadTests {
    @Test func aPictureReadAheadMakesTheCreationReadingTheFileWouldMake() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let chelsea = TestData.example("chelsea.png").path
        let other = dir.url.appendingPathComponent("other.png").path
        try FileManager.default.copyItem(atPath: chelsea, toPath: other)
        let workspace = try Workspace(directory: dir.url.appendingPathComponent("store"))
        workspace.readingAhead(PictureReadAhead(path: chelsea))
        let ahead = try workspace.create(name: "ahead", imageAt: chelsea)
        let read = try workspace.create(name: "read", imageAt: chelsea)
        #expect(ahead.baseImage != nil && ahead.baseImage == read.baseImage)
        #expect(ahead.baseImage?.width == 451 && ahead.baseImage?.sourceName == "chelsea.png")
        #expect(try workspace.picture(of: "ahead", format: .png).data == workspace.picture(of: "read", format: .png).data)

        // A read-ahead of another file is not taken, and not kept for a later creation.
        workspace.readingAhead(PictureReadAhead(path: other))
        #expect(try workspace.create(name: "cat", imageAt: chelsea).baseImage?.sourceName == "chelsea.png")
        try FileManager.default.removeItem(atPath: other)
        #expect(throws: RenderError.self) { try workspace.create(name: "gone", imageAt: other) }
    }

    @Test func aPictureThatCannotBeReadFailsAsReadingItWould() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        for path in [dir.url.appendingPathComponent("missing.png").path, dir.url.path, ""] {
            let plain = #expect(throws: RenderError.self) { try workspace.create(name: "a", imageAt: path) }
            workspace.readingAhead(PictureReadAhead(path: path))
            let ahead = #expect(throws: RenderError.self) { try workspace.create(name: "a", imageAt: path) }
            #expect(ahead.map { "\($0)" } == plain.map { "\($0)" } && plain != nil)
        }
        #expect(try workspace.gallery().all.isEmpty)
    }
}
