import CGif
import Foundation

/// Writes a GIF through giflib, frame by frame, each in a palette of its own (`GIFPalette`)
/// with its delay. After the first, a frame holds only the rectangle that changed, its
/// unchanged pixels transparent (they show the frame before), which is how GIF animations
/// stay small. A frame whose successor has transparent pixels is written whole and cleared
/// after it is shown (disposal 2), so that nothing of it shows through them; deciding that
/// needs the next frame, so each frame is written when the next one comes (or at the end).
final class GIFWriter {
    private var gif: UnsafeMutablePointer<GifFileType>?
    private let output = ByteOutput()
    private let width: Int
    private let height: Int
    /// Whether frames carry a delay: a still picture needs no graphic control.
    private let animated: Bool
    /// The frame waiting for its successor, as `GIFPalette.visible` gives it.
    private var pending: (pixels: [UInt32], delay: Int)?
    /// What the last frame written shows, and whether it was cleared after.
    private var shown: [UInt32]?
    private var shownWasCleared = false

    init(width: Int, height: Int, loops: AnimationLoops, animated: Bool) throws {
        self.width = width
        self.height = height
        self.animated = animated
        var error: Int32 = 0
        let write: OutputFunc = { file, bytes, count in
            guard let file, let bytes, let user = file.pointee.UserData else { return 0 }
            Unmanaged<ByteOutput>.fromOpaque(user).takeUnretainedValue().data.append(bytes, count: Int(count))
            return count
        }
        guard let gif = EGifOpen(Unmanaged.passUnretained(output).toOpaque(), write, &error) else {
            throw RenderError.encodeFailed(format: "gif", reason: GIFFrames.words(error))
        }
        self.gif = gif
        EGifSetGifVersion(gif, true)
        try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil))
        if animated, let loops {
            try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE))
            try check(EGifPutExtensionBlock(gif, 11, Array("NETSCAPE2.0".utf8)))
            try check(EGifPutExtensionBlock(gif, 3, [1, UInt8(min(loops, 0xffff) & 0xff), UInt8(min(loops, 0xffff) >> 8)]))
            try check(EGifPutExtensionTrailer(gif))
        }
    }

    deinit { if let gif { EGifCloseFile(gif, nil) } }

    func add(_ raster: Raster, delay: Int) throws {
        guard gif != nil, raster.width == width, raster.height == height else {
            throw RenderError.encodeFailed(format: "gif", reason: "a \(raster.width)x\(raster.height) frame in a \(width)x\(height) animation")
        }
        let frame = (pixels: GIFPalette.visible(raster), delay: delay)
        if let pending { try write(pending, next: frame.pixels) }
        pending = frame
    }

    func finish() throws -> Data {
        if let pending { try write(pending, next: nil) }
        pending = nil
        guard let gif else { return output.data }
        self.gif = nil
        var error: Int32 = 0
        guard EGifCloseFile(gif, &error) == GIF_OK else { throw RenderError.encodeFailed(format: "gif", reason: GIFFrames.words(error)) }
        return output.data
    }

    private func write(_ frame: (pixels: [UInt32], delay: Int), next: [UInt32]?) throws {
        guard let gif else { return }
        let clearAfter = next?.contains(0) ?? false
        var area = (x: 0, y: 0, width: width, height: height)
        var pixels = frame.pixels
        if let shown, !shownWasCleared, !clearAfter, !frame.pixels.contains(0) {
            (area, pixels) = changes(from: shown, to: frame.pixels)
        }
        var palette = GIFPalette(pixels)
        if animated || palette.transparentIndex != nil {
            var control = GraphicsControlBlock(
                DisposalMode: clearAfter ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT, UserInputFlag: false,
                DelayTime: Int32(min((frame.delay + 5) / 10, 0xffff)), TransparentColor: Int32(palette.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
            var extensionBytes = [GifByteType](repeating: 0, count: 4)
            let length = EGifGCBToExtension(&control, &extensionBytes)
            try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes))
        }
        // A colour table holds a power of two entries, at least two.
        var size = 2
        while size < palette.colours.count { size *= 2 }
        var colours = palette.colours.map { GifColorType(Red: UInt8($0 >> 16 & 0xff), Green: UInt8($0 >> 8 & 0xff), Blue: UInt8($0 & 0xff)) }
        colours += Array(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size - colours.count)
        guard let map = GifMakeMapObject(Int32(size), &colours) else { throw RenderError.outOfMemory(width: width, height: height) }
        defer { GifFreeMapObject(map) }
        try check(EGifPutImageDesc(gif, Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height), false, map))
        try check(EGifPutLine(gif, &palette.indices, Int32(area.width * area.height)))
        shown = frame.pixels
        shownWasCleared = clearAfter
    }

    /// The smallest rectangle holding every pixel that differs from what is shown, with the
    /// pixels that do not differ made transparent (at least one pixel: a frame cannot be empty).
    private func changes(from shown: [UInt32], to pixels: [UInt32]) -> ((x: Int, y: Int, width: Int, height: Int), [UInt32]) {
        var left = width, right = -1, top = height, bottom = -1
        for y in 0..<height {
            let row = y * width
            for x in 0..<width where shown[row + x] != pixels[row + x] {
                left = min(left, x); right = max(right, x)
                top = min(top, y); bottom = max(bottom, y)
            }
        }
        if right < 0 { (left, right, top, bottom) = (0, 0, 0, 0) }
        var area = [UInt32]()
        area.reserveCapacity((right - left + 1) * (bottom - top + 1))
        for y in top...bottom {
            for x in left...right {
                let i = y * width + x
                area.append(shown[i] == pixels[i] ? 0 : pixels[i])
            }
        }
        return ((left, top, right - left + 1, bottom - top + 1), area)
    }

    private func check(_ result: Int32) throws {
        guard result == GIF_OK else {
            throw RenderError.encodeFailed(format: "gif", reason: gif.map { GIFFrames.words($0.pointee.Error) } ?? "giflib failed")
        }
    }
}

/// Collects what an encoder writes.
final class ByteOutput {
    var data = Data()
}
