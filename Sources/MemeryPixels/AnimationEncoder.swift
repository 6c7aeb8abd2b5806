import MemeryCore
import Foundation

/// Encodes frames, one at a time, as an animated GIF or WebP.
public final class AnimationEncoder {
    private enum Writer {
        case gif(GIFWriter)
        case webp(WebPAnimationWriter)
    }
    private let writer: Writer

    public init(_ format: ExportFormat, width: Int, height: Int, loops: AnimationLoops, quality: Int) throws {
        guard ExportFormat.qualityRange.contains(quality) else { throw RenderError.qualityOutOfRange(quality) }
        switch format {
        case .gif: writer = .gif(try GIFWriter(width: width, height: height, loops: loops, animated: true))
        case .webp: writer = .webp(try WebPAnimationWriter(width: width, height: height, loops: loops, quality: quality))
        case .png, .jpeg: throw RenderError.encodeFailed(format: format.rawValue, reason: "it holds one picture, not an animation")
        }
    }

    /// Adds a frame shown for `delay` milliseconds.
    public func add(_ raster: Raster, delay: Int) throws {
        switch writer {
        case .gif(let gif): try gif.add(raster, delay: delay)
        case .webp(let webp): try webp.add(raster, delay: delay)
        }
    }

    public func finish() throws -> Data {
        switch writer {
        case .gif(let gif): try gif.finish()
        case .webp(let webp): try webp.finish()
        }
    }
}
