import Foundation
@testable import Memery
import MemeryRender
import MemeryTestSupport
import Testing

/// The pictures `memery serve` will show while editing: the creation scaled to a width.
@Suite struct PreviewTests {
    /// A preview keeps the aspect and looks like the full picture: each of its pixels is
    /// near the mean of the block of full-size pixels it stands for.
    @Test func aPreviewIsTheWholePictureScaledDown() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "cat", imageAt: TestData.example("chelsea.png").path)
        try workspace.setCaptions("cat", top: "PREVIEW", bottom: "SCALED")
        let full = try workspace.pictures.render(try workspace.creation(named: "cat"))
        let data = try workspace.picture(of: "cat", width: 150, format: .png).data
        let previewFile = dir.url.appendingPathComponent("preview.png")
        try data.write(to: previewFile)
        if let keep = ProcessInfo.processInfo.environment["MEMERY_KEEP_PREVIEW"] { try? data.write(to: URL(fileURLWithPath: keep)) }
        let viewer = try Workspace(directory: dir.url.appendingPathComponent("viewer"))
        try viewer.create(name: "p", imageAt: previewFile.path)
        let preview = try viewer.pictures.render(try viewer.creation(named: "p"))
        #expect(preview.width == 150 && preview.height == 100, "451x300 at 150 wide: \(preview.width)x\(preview.height)")
        var worst = 0.0
        for (px, py) in [(10, 10), (75, 50), (140, 90), (75, 12), (40, 70)] {
            var sum = (0.0, 0.0, 0.0), n = 0.0
            for y in (py * 3)..<min(full.height, py * 3 + 3) { for x in (px * 3)..<min(full.width, px * 3 + 3) {
                let p = full.pixel(x: x, y: y); sum.0 += Double(p.r); sum.1 += Double(p.g); sum.2 += Double(p.b); n += 1
            } }
            let q = preview.pixel(x: px, y: py)
            worst = max(worst, abs(sum.0 / n - Double(q.r)), abs(sum.1 / n - Double(q.g)), abs(sum.2 / n - Double(q.b)))
        }
        #expect(worst < 60, "preview pixels stray from the picture by \(worst)")
        #expect(try workspace.picture(of: "cat", width: 2000, format: .png).data.count > 0, "wider than the picture: its own size")
    }

    /// An animated creation's preview keeps its frames in GIF and WebP; in PNG it is the
    /// first frame, and the picture says what was left out.
    @Test func anAnimatedPreviewKeepsItsFrames() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        try workspace.create(name: "anim", imageAt: TestData.root.appendingPathComponent("Tests/Corpus/images/gif/iss634.gif").path)
        try workspace.setCaptions("anim", top: "SMALL", bottom: "AND MOVING")
        #expect(try workspace.frameCount(of: try workspace.creation(named: "anim")) == 42)
        for format in [ExportFormat.gif, .webp] {
            let picture = try workspace.picture(of: "anim", width: 100, format: format)
            #expect(picture.frames == 42 && picture.note == nil)
            let (first, info) = try ImageDecoder().decode(picture.data, source: "preview.\(format.fileExtension)")
            #expect(info.frames == 42 && first.width == 100 && first.height == 100, "\(format): \(info)")
        }
        let still = try workspace.picture(of: "anim", width: 100, format: .png)
        #expect(still.frames == 1 && still.framesInCreation == 42)
        #expect(still.note?.contains("first frame was written") == true)
    }
}

/// What the editor is sent: a preview in the format that costs least for what it shows.
@Suite struct PreviewFormatTests {
    @Test func anOpaquePreviewIsJPEGAndATransparentOnePNG() throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        let workspace = try Workspace(directory: dir.url)
        workspace.keepDecodedImages(upTo: 64 << 20)
        try workspace.create(name: "cat", imageAt: TestData.example("chelsea.png").path)
        try workspace.setCaptions("cat", top: "OPAQUE", bottom: "JPEG")
        let photo = try workspace.preview(of: try workspace.shownState(of: "cat"), width: 200, format: nil, quality: 90)
        #expect(photo.format == .jpeg && Array(photo.data.prefix(2)) == [0xff, 0xd8])
        let (decoded, _) = try ImageDecoder().decode(photo.data, source: "preview.jpg")
        #expect(decoded.width == 200 && decoded.height == 133)
        try workspace.create(name: "clear", canvasWidth: 300, height: 200, background: try Color(hex: "#00000000"))
        try workspace.setCaptions("clear", top: "SEE THROUGH", bottom: nil)
        let clear = try workspace.preview(of: try workspace.shownState(of: "clear"), width: 150, format: nil, quality: 90)
        #expect(clear.format == .png && Array(clear.data.prefix(4)) == [0x89, 0x50, 0x4e, 0x47])
        let named = try workspace.preview(of: try workspace.shownState(of: "cat"), width: 200, format: .webp, quality: 90)
        #expect(named.format == .webp, "a format asked for is given")
        #expect(workspace.decodedImageStatistics.entries >= 2, "the photo and its 200 px copy were kept")
    }
}
