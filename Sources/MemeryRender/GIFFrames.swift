import CGif
import Foundation

/// The frames of an animated GIF through giflib, composed as browsers show them: the canvas
/// starts transparent, each frame's pixels are drawn over it except its transparent index,
/// and after the frame its disposal clears its rectangle (2) or puts back what was under it
/// (3). Parts of a frame outside the logical screen are not shown.
final class GIFFrames: FrameSource {
    let width: Int
    let height: Int
    let frameCount: Int
    let loops: AnimationLoops
    private let gif: UnsafeMutablePointer<GifFileType>
    private let source: String
    private var index = 0
    /// Premultiplied ARGB, as Cairo holds it.
    private var canvas: [UInt32]
    /// What the last frame's disposal does before the next is drawn.
    private var disposal: (mode: Int32, x: Range<Int>, y: Range<Int>, saved: [UInt32]?)?

    init(_ data: Data, source: String) throws {
        self.source = source
        let input = ByteInput(data)
        var error: Int32 = 0
        let read: InputFunc = { file, buffer, wanted in
            guard let file, let buffer, let user = file.pointee.UserData else { return 0 }
            return Int32(Unmanaged<ByteInput>.fromOpaque(user).takeUnretainedValue().read(into: buffer, count: Int(wanted)))
        }
        guard let gif = withExtendedLifetime(input, { DGifOpen(Unmanaged.passUnretained(input).toOpaque(), read, &error) }) else {
            throw RenderError.corrupt(source: source, format: "gif", reason: Self.words(error))
        }
        let slurped = withExtendedLifetime(input) { DGifSlurp(gif) }
        guard slurped == GIF_OK, gif.pointee.ImageCount > 0, gif.pointee.SWidth > 0, gif.pointee.SHeight > 0 else {
            let reason = slurped == GIF_OK ? "it holds no picture" : Self.words(gif.pointee.Error)
            DGifCloseFile(gif, nil)
            throw RenderError.corrupt(source: source, format: "gif", reason: reason)
        }
        self.gif = gif
        width = Int(gif.pointee.SWidth)
        height = Int(gif.pointee.SHeight)
        frameCount = Int(gif.pointee.ImageCount)
        loops = Self.loops(gif)
        canvas = [UInt32](repeating: 0, count: width * height)
    }

    deinit { DGifCloseFile(gif, nil) }

    func next() throws -> AnimationFrame? {
        guard index < frameCount else { return nil }
        if let disposal {
            if disposal.mode == DISPOSE_BACKGROUND {
                for y in disposal.y { canvas.withUnsafeMutableBufferPointer { $0[(y * width + disposal.x.lowerBound)..<(y * width + disposal.x.upperBound)].update(repeating: 0) } }
            } else if disposal.mode == DISPOSE_PREVIOUS, let saved = disposal.saved {
                canvas = saved
            }
        }
        let image = gif.pointee.SavedImages[index]
        var control = GraphicsControlBlock(DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
        _ = DGifSavedExtensionToGCB(gif, Int32(index), &control)  // none: the defaults
        let frame = image.ImageDesc
        guard let map = frame.ColorMap ?? gif.pointee.SColorMap, let colours = map.pointee.Colors else {
            throw RenderError.corrupt(source: source, format: "gif", reason: "its colour palette is damaged or missing (frame \(index + 1) has none)")
        }
        let palette = (0..<Int(map.pointee.ColorCount)).map { entry in
            let colour = colours[entry]
            return 0xff00_0000 | UInt32(colour.Red) << 16 | UInt32(colour.Green) << 8 | UInt32(colour.Blue)
        }
        let left = Int(frame.Left), top = Int(frame.Top), frameWidth = Int(frame.Width)
        // What of the frame falls on the screen (a frame may lie partly or wholly off it).
        let xs = clamp(left, to: width)..<clamp(left + frameWidth, to: width)
        let ys = clamp(top, to: height)..<clamp(top + Int(frame.Height), to: height)
        let saved = control.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
        if let bits = image.RasterBits, !xs.isEmpty, !ys.isEmpty {
            let transparent = Int(control.TransparentColor)
            canvas.withUnsafeMutableBufferPointer { canvas in
                for y in ys {
                    let row = bits + (y - top) * frameWidth - left
                    for x in xs {
                        let entry = Int(row[x])
                        if entry != transparent, entry < palette.count { canvas[y * width + x] = palette[entry] }
                    }
                }
            }
        }
        disposal = (control.DisposalMode, xs, ys, saved)
        index += 1
        let raster = try Raster(width: width, height: height)
        raster.withMutablePixels { pixels, stride in
            canvas.withUnsafeBytes { canvas in
                for y in 0..<height {
                    UnsafeMutableRawPointer(pixels + y * stride).copyMemory(from: canvas.baseAddress! + y * width * 4, byteCount: width * 4)
                }
            }
        }
        return AnimationFrame(raster: raster, delay: Int(control.DelayTime) * 10)
    }

    private func clamp(_ value: Int, to side: Int) -> Int { min(max(value, 0), side) }

    /// The NETSCAPE2.0 application extension's count, wherever the file puts it.
    private static func loops(_ gif: UnsafeMutablePointer<GifFileType>) -> AnimationLoops {
        var blocks = [ExtensionBlock]()
        for image in 0..<Int(gif.pointee.ImageCount) {
            let saved = gif.pointee.SavedImages[image]
            blocks += (0..<Int(saved.ExtensionBlockCount)).map { saved.ExtensionBlocks[$0] }
        }
        blocks += (0..<Int(gif.pointee.ExtensionBlockCount)).map { gif.pointee.ExtensionBlocks[$0] }
        for (position, block) in blocks.enumerated() where block.Function == APPLICATION_EXT_FUNC_CODE && block.ByteCount == 11 {
            guard String(decoding: UnsafeBufferPointer(start: block.Bytes, count: 11), as: UTF8.self) == "NETSCAPE2.0",
                  position + 1 < blocks.count else { continue }
            let data = blocks[position + 1]
            guard data.Function == CONTINUE_EXT_FUNC_CODE, data.ByteCount >= 3, let bytes = data.Bytes, bytes[0] == 1 else { continue }
            return Int(bytes[1]) | Int(bytes[2]) << 8
        }
        return nil
    }

    static func words(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0).lowercased() } ?? "giflib error \(code)"
    }
}

/// Feeds a decoder the bytes of a file held in memory.
final class ByteInput {
    private let data: Data
    private var offset = 0
    init(_ data: Data) { self.data = data }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let taken = min(count, data.count - offset)
        guard taken > 0 else { return 0 }
        data.withUnsafeBytes { bytes in
            buffer.update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, count: taken)
        }
        offset += taken
        return taken
    }
}
