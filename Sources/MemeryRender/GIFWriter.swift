import CGif
import Foundation

/// Writes a GIF through giflib, frame by frame: each frame whole, in a palette of its own
/// (`GIFPalette`), with its delay. Every frame is cleared after it is shown (disposal 2), so
/// the next one's transparent pixels show nothing of it.
final class GIFWriter {
    private var gif: UnsafeMutablePointer<GifFileType>?
    private let output = ByteOutput()
    private let width: Int
    private let height: Int
    /// Whether frames carry a delay: a still picture needs no graphic control.
    private let animated: Bool

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
        guard let gif, raster.width == width, raster.height == height else {
            throw RenderError.encodeFailed(format: "gif", reason: "a \(raster.width)x\(raster.height) frame in a \(width)x\(height) animation")
        }
        var palette = GIFPalette(raster)
        if animated || palette.transparentIndex != nil {
            var control = GraphicsControlBlock(
                DisposalMode: DISPOSE_BACKGROUND, UserInputFlag: false,
                DelayTime: Int32(min((delay + 5) / 10, 0xffff)), TransparentColor: Int32(palette.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
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
        try check(EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, map))
        try check(EGifPutLine(gif, &palette.indices, Int32(width * height)))
    }

    func finish() throws -> Data {
        guard let gif else { return output.data }
        self.gif = nil
        var error: Int32 = 0
        guard EGifCloseFile(gif, &error) == GIF_OK else { throw RenderError.encodeFailed(format: "gif", reason: GIFFrames.words(error)) }
        return output.data
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
