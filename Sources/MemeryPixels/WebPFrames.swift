import CWebP
import Foundation

/// The frames of an animated WebP through libwebp's animation decoder, which composes them
/// (blending and disposal) and hands them over premultiplied, as Cairo holds pixels.
final class WebPFrames: FrameSource {
    let width: Int
    let height: Int
    let frameCount: Int
    let loops: AnimationLoops
    private let decoder: OpaquePointer
    /// The decoder reads from these bytes until it is deleted.
    private let bytes: UnsafeMutableRawBufferPointer
    private let source: String
    private var index = 0
    private var shownUntil: Int32 = 0

    init(_ data: Data, source: String) throws {
        self.source = source
        bytes = .allocate(byteCount: max(1, data.count), alignment: 16)
        _ = data.copyBytes(to: bytes.bindMemory(to: UInt8.self))
        var options = WebPAnimDecoderOptions()
        var input = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: data.count)
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            bytes.deallocate()
            throw RenderError.decoderUnavailable(reason: "the installed libwebp does not match the one Memery was built with")
        }
        options.color_mode = MODE_bgrA  // premultiplied B, G, R, A bytes: Cairo's ARGB32 on little-endian
        options.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&input, &options) else {
            bytes.deallocate()
            throw RenderError.corrupt(source: source, format: "webp", reason: "its animation could not be read")
        }
        var info = WebPAnimInfo()
        WebPAnimDecoderGetInfo(decoder, &info)
        self.decoder = decoder
        width = Int(info.canvas_width)
        height = Int(info.canvas_height)
        frameCount = Int(info.frame_count)
        loops = info.loop_count == 0 ? 0 : info.loop_count == 1 ? nil : Int(info.loop_count) - 1
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    func skip() throws -> Bool { try decodeNext() != nil }

    func next() throws -> AnimationFrame? {
        guard let (pixels, timestamp) = try decodeNext() else { return nil }
        let raster = try Raster(width: width, height: height)
        raster.withMutablePixels { target, stride in
            for y in 0..<height { (target + y * stride).update(from: pixels + y * width * 4, count: width * 4) }
        }
        defer { shownUntil = timestamp }
        return AnimationFrame(raster: raster, delay: Int(timestamp - shownUntil))
    }

    /// The decoder's canvas after the next frame (valid until the one after), and when it
    /// stops showing; nil after the last frame.
    private func decodeNext() throws -> (UnsafeMutablePointer<UInt8>, Int32)? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var pixels: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
            throw RenderError.corrupt(source: source, format: "webp", reason: "frame \(index + 1) could not be decoded")
        }
        index += 1
        return (pixels, timestamp)
    }
}
