import Foundation
import MemeryTestSupport
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// Animations people have (issue 32 §4): a GIF whose later frames are damaged plays the
/// frames that decode, as browsers play it (giflib's slurp refused it whole, "wrong record
/// type detected"); a 10-second 1280x720 GIF and a long small one are within the limits,
/// which follow what decoding and exporting cost rather than a 100-megapixel sum.
@Suite struct AnimationLimitsTests {
    static let iss634 = TestData.root.appendingPathComponent("Tests/Corpus/images/gif/iss634.gif")

    static func frames(_ data: Data) throws -> [AnimationFrame] {
        let source = try Animations.open(data, format: "gif", source: "test")
        var frames = [AnimationFrame]()
        while let frame = try source.next() { frames.append(frame) }
        return frames
    }

    /// Where each image descriptor (0x2C) starts and where its data's sub-blocks end.
    static func imageBlocks(_ bytes: [UInt8]) -> [(start: Int, dataStart: Int, end: Int)] {
        var offset = 13, blocks = [(start: Int, dataStart: Int, end: Int)]()
        if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 0x07) + 1) }
        func skipSubBlocks() { while offset < bytes.count { let size = Int(bytes[offset]); offset += 1 + size; if size == 0 { return } } }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x2C:
                let start = offset, flags = bytes[offset + 9]
                offset += 10
                if flags & 0x80 != 0 { offset += 3 << (Int(flags & 0x07) + 1) }
                offset += 1
                let dataStart = offset
                skipSubBlocks()
                blocks.append((start, dataStart, offset))
            case 0x21: offset += 2; skipSubBlocks()
            default: return blocks
            }
        }
        return blocks
    }

    /// A GIF of `frames` one-pixel frames (each shown 70 ms) walking across a
    /// `width` x `height` screen: cheap to make and to decode, and every frame counts at the
    /// screen's size against the limits.
    static func walkingPixel(width: Int, height: Int, frames: Int) -> Data {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        var bytes = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0] + [0, 0, 0, 255, 0, 0]
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for frame in 0..<frames {
            bytes += [0x21, 0xF9, 4, 0, 7, 0, 0, 0]  // no disposal, 70 ms
            // A 1x1 frame of index 1 (red): LZW minimum 2, codes clear, 1, end.
            bytes += [0x2C] + le16(frame % width) + le16(frame % height) + [1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0]
        }
        return Data(bytes + [0x3B])
    }

    @Test
    func aDamagedRecordAfterFrame20PlaysTheFramesBeforeIt() throws {
        let whole = try Data(contentsOf: Self.iss634)
        let expected = try Self.frames(whole)
        var bytes = [UInt8](whole)
        let blocks = Self.imageBlocks(bytes)
        #expect(blocks.count == 42)
        // The block after frame 20 (its graphic control extension) turned into garbage.
        bytes[blocks[19].end] = 0x99
        let damaged = Data(bytes)
        let played = try Self.frames(damaged)
        #expect(played.count == 20)
        for (index, (frame, reference)) in zip(played, expected).enumerated() {
            #expect(PixelDifference(frame.raster, reference.raster).mean == 0, "frame \(index + 1)")
            #expect(frame.delay == reference.delay)
        }
        // Imported from outside: every frame checked, the damaged tail left out, not refused.
        let (first, info) = try ImageDecoder().decode(damaged, source: "damaged.gif")
        #expect(info.frames == 20 && first.width == 245)
    }

    @Test
    func aFrameWhoseDataIsGarbledShowsWhatDecodedAndTheNextFramesFollow() throws {
        let whole = try Data(contentsOf: Self.iss634)
        let expected = try Self.frames(whole)
        var bytes = [UInt8](whole)
        let block = Self.imageBlocks(bytes)[20]
        // Frame 21's compressed data from its second sub-block on: codes no table holds.
        let secondSubBlock = block.dataStart + 1 + Int(bytes[block.dataStart])
        var offset = secondSubBlock
        while offset < block.end - 1 {
            let size = Int(bytes[offset])
            for at in (offset + 1)..<(offset + 1 + size) { bytes[at] = 0xFF }
            offset += 1 + size
        }
        let played = try Self.frames(Data(bytes))
        #expect(played.count == 42, "every frame is still played")
        for index in 0..<20 { #expect(PixelDifference(played[index].raster, expected[index].raster).mean == 0, "frame \(index + 1)") }
        // Frame 21 keeps the row its first sub-block holds, and differs below them.
        let top = PixelDifference(try band(of: played[20].raster, from: 0, height: 1), try band(of: expected[20].raster, from: 0, height: 1))
        #expect(top.mean == 0, "\(top)")
        #expect(PixelDifference(played[20].raster, expected[20].raster).mean > 0)
        #expect(try ImageDecoder().decode(Data(bytes), source: "garbled.gif").1.frames == 42)
    }

    @Test
    func aGIFCutShortInAFramePlaysUpToTheCut() throws {
        let whole = try Data(contentsOf: Self.iss634)
        let expected = try Self.frames(whole)
        let block = Self.imageBlocks([UInt8](whole))[30]
        let cut = whole.prefix((block.dataStart + block.end) / 2)
        let played = try Self.frames(cut)
        #expect(played.count == 31, "frame 31 is shown as far as it goes")
        for index in 0..<30 { #expect(PixelDifference(played[index].raster, expected[index].raster).mean == 0, "frame \(index + 1)") }
    }

    /// Pillow's no_palette_after_rgb.gif: its second frame has no colour table to draw with,
    /// so the first plays (it was refused whole).
    @Test func aLaterFrameWithNoPaletteEndsTheAnimationThere() throws {
        let data = try Data(contentsOf: TestData.root.appendingPathComponent("Tests/Corpus/images/gif/no_palette_after_rgb.gif"))
        #expect(ImageHeader.read(data).frames == 3)
        #expect(try Self.frames(data).count == 1)
        #expect(try ImageDecoder().decode(data, source: "no_palette_after_rgb.gif").1.frames == 3, "the header's count; one plays")
    }

    @Test func aFirstFrameThatCannotStartIsRefusedInPlainWords() throws {
        var bytes = [UInt8](Self.walkingPixel(width: 4, height: 4, frames: 3))
        let first = Self.imageBlocks(bytes)[0]
        bytes[first.dataStart + 1] = 0xFF  // codes past the table, in the first row
        bytes[first.dataStart + 2] = 0xFF
        let error = try #require(throws: RenderError.self) { try ImageDecoder().decode(Data(bytes), source: "bad.gif") }
        #expect(error.description == "bad.gif is a damaged GIF image: its compressed picture data is garbled")
    }

    /// A frame with a side of 0 has data sub-blocks all the same; the reader skips them as the
    /// header's count does. (Left unread, sub-blocks 0x2C long were taken for frames: 1,000
    /// hidden frames in a file whose header counts two, past every limit.)
    @Test func aFrameWithNoPixelsCannotHideFramesInItsData() throws {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        let oneByOne: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0]
        var bytes = Array("GIF89a".utf8) + le16(40) + le16(40) + [0x80, 0, 0] + [0, 0, 0, 255, 0, 0]
        bytes += oneByOne
        bytes += [0x2C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]  // a 0x0 frame, LZW minimum 2
        for _ in 0..<1_000 { bytes += [0x2C] + Array((oneByOne + oneByOne + oneByOne).dropFirst()) }  // 44-byte sub-blocks
        bytes += [0, 0x3B]
        let data = Data(bytes)
        #expect(ImageHeader.read(data).frames == 2)
        #expect(try Self.frames(data).count == 2)
    }

    /// An empty frame between others shows what was there and the animation goes on, as
    /// browsers play it (it ended the animation).
    @Test func anEmptyFrameBetweenOthersIsPlayedThrough() throws {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func frame(_ index: UInt8) -> [UInt8] {
            // 1x1 of palette entry `index` (2 bits a code: clear 4, the entry, end 5).
            [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x04 | index << 3 | 0x40, 0x01, 0]
        }
        var bytes = Array("GIF89a".utf8) + le16(1) + le16(1) + [0x81, 0, 0] + [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0]
        bytes += frame(0) + [0x2C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0] + frame(1) + frame(2) + [0x3B]
        let played = try Self.frames(Data(bytes))
        #expect(played.map { $0.raster.pixel(x: 0, y: 0).r } == [255, 255, 0, 0])
        #expect(played.map { $0.raster.pixel(x: 0, y: 0).b } == [0, 0, 0, 255])
    }

    /// 600 frames of 1280x720 (40 s at 15 frames a second; 553 megapixels over all frames)
    /// and 1,200 frames of 200x200 were refused by the old limits (100 megapixels, 1,000
    /// frames).
    @Test func longAnimationsWithinMemoryAndTimeAreTaken() throws {
        for (width, height, count) in [(1280, 720, 600), (200, 200, 1_200)] {
            let gif = Self.walkingPixel(width: width, height: height, frames: count)
            let (first, info) = try ImageDecoder().decode(gif, source: "long.gif")
            #expect(info.frames == count && first.width == width && first.height == height)
            #expect(first.pixel(x: 0, y: 0) == (255, 0, 0, 255) && first.pixel(x: 1, y: 1).a == 0)
            let source = try Animations.open(gif, format: "gif", source: "long.gif")
            #expect(source.loops == 0)
            var played = 0, last: AnimationFrame?
            while let frame = try source.next() { played += 1; last = frame }
            let end = try #require(last)
            #expect(played == count && end.delay == 70)
            // Nothing was disposed of, so every pixel the walk visited stays red.
            #expect(end.raster.pixel(x: (count - 1) % width, y: (count - 1) % height) == (255, 0, 0, 255))
        }
    }
}
