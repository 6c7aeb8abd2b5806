import Foundation
@testable import Memery
import MemeryCore
import MemeryRender
import MemeryTestSupport
import Testing

/// `memery new --image` reads and decodes its picture while the store opens
/// (`PictureReadAhead`). What it makes must be what reading the file then would make.
@Suite struct PictureReadAheadTests {
    @Test func aPictureReadAheadIsTakenAndMakesTheCreationReadingTheFileWouldMake() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let picture = dir.url.appendingPathComponent("cat.png").path
        try FileManager.default.copyItem(atPath: TestData.example("chelsea.png").path, toPath: picture)
        let workspace = try Workspace(directory: dir.url.appendingPathComponent("store"))
        let read = try workspace.create(name: "read", imageAt: picture)

        // Read, then the file taken away: only a read-ahead that is taken can make the creation.
        let ahead = PictureReadAhead(path: picture)
        _ = try ahead.wait()
        try FileManager.default.removeItem(atPath: picture)
        let result = try workspace.perform(.new(.image(file: picture)), on: "ahead", readingAhead: ahead)
        let made = try #require(result.state)
        #expect(made.baseImage != nil && made.baseImage == read.baseImage && made.baseImage?.sourceName == "cat.png")
        #expect(try workspace.picture(of: "ahead", format: .png).data == workspace.picture(of: "read", format: .png).data)
    }

    @Test func aReadAheadOfAnotherFileIsNotTaken() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let chelsea = TestData.example("chelsea.png").path
        let other = dir.url.appendingPathComponent("other.png").path
        try FileManager.default.copyItem(atPath: chelsea, toPath: other)
        let workspace = try Workspace(directory: dir.url.appendingPathComponent("store"))
        let ahead = PictureReadAhead(path: other)
        _ = try ahead.wait()
        #expect(try workspace.create(name: "cat", imageAt: chelsea, readAhead: ahead).baseImage?.sourceName == "chelsea.png")
    }

    /// `memery new` waits until the picture's helper runs before parsing its arguments: the
    /// wait ends for a picture being decoded, and for a file read no further (missing, a
    /// folder, not a picture), whose error the read then gives.
    @Test(.timeLimit(.minutes(1))) func waitingForTheHelperEndsWhetherOrNotOneStarts() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let words = dir.url.appendingPathComponent("words.png").path
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: words))
        let picture = PictureReadAhead(path: TestData.example("chelsea.png").path)
        picture.waitUntilHelperStarted()
        #expect(try picture.wait().image.width == 451)
        for path in [dir.url.appendingPathComponent("missing.png").path, dir.url.path, words] {
            let ahead = PictureReadAhead(path: path)
            ahead.waitUntilHelperStarted()
            #expect(throws: RenderError.self) { try ahead.wait() }
        }
    }

    @Test func aPictureThatCannotBeReadFailsAsReadingItWould() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        for path in [dir.url.appendingPathComponent("missing.png").path, dir.url.path, ""] {
            let plain = #expect(throws: RenderError.self) { try workspace.create(name: "a", imageAt: path) }
            let ahead = #expect(throws: RenderError.self) { try workspace.create(name: "a", imageAt: path, readAhead: PictureReadAhead(path: path)) }
            #expect(ahead.map { "\($0)" } == plain.map { "\($0)" } && plain != nil)
        }
        #expect(try workspace.gallery().all.isEmpty)
    }
}
