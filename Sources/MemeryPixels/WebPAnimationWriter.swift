import CWebP
import Foundation

/// Writes an animated WebP through libwebp's animation encoder, which keeps only what
/// changes from frame to frame. Lossy at the export quality, like a still WebP.
final class WebPAnimationWriter {
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private let width: Int
    private let height: Int
    /// Milliseconds from the start to the next frame.
    private var elapsed = 0

    /// Frames shown this briefly or less are slowed to 100 ms, as browsers show such GIF
    /// frames and as gif2webp converts them.
    static let briefest = 10

    init(width: Int, height: Int, loops: AnimationLoops, quality: Int) throws {
        self.width = width
        self.height = height
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else {
            throw RenderError.encodeFailed(format: "webp", reason: "the installed libwebp does not match the one Memery was built with")
        }
        // WebP counts plays: 0 forever, 1 once, n + 1 for a GIF's n repeats.
        options.anim_params.loop_count = Int32(loops.map { $0 == 0 ? 0 : min($0 + 1, 0xffff) } ?? 1)
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw RenderError.outOfMemory(width: width, height: height)
        }
        self.encoder = encoder
        config.quality = Float(quality)
        config.method = 4
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    func add(_ raster: Raster, delay: Int) throws {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw RenderError.outOfMemory(width: width, height: height) }
        picture.width = Int32(raster.width)
        picture.height = Int32(raster.height)
        picture.use_argb = 1
        defer { WebPPictureFree(&picture) }
        let rgba = PixelConversion.straightRGBA(raster)
        guard WebPPictureImportRGBA(&picture, rgba, Int32(raster.width * 4)) != 0 else {
            throw RenderError.outOfMemory(width: raster.width, height: raster.height)
        }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(elapsed), &config) != 0 else { throw failure() }
        elapsed += delay <= Self.briefest ? 100 : delay
    }

    func finish() throws -> Data {
        guard WebPAnimEncoderAdd(encoder, nil, Int32(elapsed), nil) != 0 else { throw failure() }
        var assembled = WebPData(bytes: nil, size: 0)
        guard WebPAnimEncoderAssemble(encoder, &assembled) != 0, let bytes = assembled.bytes else { throw failure() }
        defer { WebPDataClear(&assembled) }
        return Data(bytes: bytes, count: assembled.size)
    }

    private func failure() -> RenderError {
        .encodeFailed(format: "webp", reason: WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "the animation encoder failed")
    }
}
