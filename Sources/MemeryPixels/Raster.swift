import Foundation
import MemeryLocks

/// An image in Cairo's ARGB32 layout (premultiplied, native-endian 32-bit pixels, rows never
/// padded) that owns its pixels. It knows nothing of Cairo, so that the helper processes,
/// which decode and run filters but never draw, start without loading Cairo and Pango;
/// MemeryRender makes a Cairo surface over the same pixels when it first draws
/// (`Raster+Cairo.swift`), kept in `drawing`.
public final class Raster {
    public let width: Int
    public let height: Int
    /// The memory, held by the raster and by whatever draws over it (a Cairo surface that a
    /// pattern still names keeps it, as when Cairo owned the pixels).
    package let storage: PixelStorage
    /// The first pixel's byte: `stride * height` bytes.
    var pixels: UnsafeMutableRawPointer { storage.pixels }
    /// The pixels for what draws on them (which then owns what is pending); others use
    /// `withMutablePixels`.
    package var pixelBytes: UnsafeMutablePointer<UInt8> { pixels.assumingMemoryBound(to: UInt8.self) }

    /// Whatever draws on these pixels (a Cairo surface over them), told before and after each
    /// direct access so that its pending drawing lands first and its caches are dropped after.
    package let drawing = Locked<(any RasterDrawing)?>(nil)

    /// Sides Cairo draws: a pixel at least, at most 32,767.
    static func admits(width: Int, height: Int) -> Bool { width > 0 && height > 0 && width <= 32767 && height <= 32767 }

    /// A transparent image of the given size.
    public init(width: Int, height: Int) throws {
        guard Self.admits(width: width, height: height), let pixels = calloc(width * height, 4) else {
            throw RenderError.outOfMemory(width: width, height: height)
        }
        self.storage = PixelStorage(pixels) { free(pixels) }
        self.width = width
        self.height = height
    }

    /// Pixels this raster does not own (rows `stride` bytes apart, which must be Cairo's,
    /// `width * 4`), and what gives them back once the raster is gone.
    package init(wrapping pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, release: @escaping () -> Void) throws {
        guard Self.admits(width: width, height: height), stride == width * 4 else {
            release()
            throw RenderError.outOfMemory(width: width, height: height)
        }
        self.storage = PixelStorage(pixels, release: release)
        self.width = width
        self.height = height
    }

    /// For pixels in memory shared with another process (`SharedPixels`): where the count of
    /// rows filled so far is published.
    var progress: UnsafeMutablePointer<UInt64>?


    /// Bytes per row: four a pixel, never padded (Cairo's stride for ARGB32).
    public var stride: Int { width * 4 }

    /// Runs `body` over the pixel bytes after any pending drawing has landed; whatever draws is
    /// told after that the pixels changed.
    public func withMutablePixels<T>(_ body: (UnsafeMutablePointer<UInt8>, _ stride: Int) throws -> T) rethrows -> T {
        let drawing = drawing.withLock { $0 }
        drawing?.willTouchPixels()
        defer { drawing?.didTouchPixels() }
        return try body(pixels.assumingMemoryBound(to: UInt8.self), stride)
    }

    /// The straight-alpha RGBA value of one pixel, for tests and hit checks.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        drawing.withLock { $0 }?.willTouchPixels()
        let value = UnsafeRawPointer(pixels + y * stride + x * 4).loadUnaligned(as: UInt32.self)
        let a = UInt8(value >> 24), r = UInt8(value >> 16 & 0xff), g = UInt8(value >> 8 & 0xff), b = UInt8(value & 0xff)
        guard a != 0 else { return (0, 0, 0, 0) }
        func straight(_ c: UInt8) -> UInt8 { UInt8(min(255, (Int(c) * 255 + Int(a) / 2) / Int(a))) }
        return (straight(r), straight(g), straight(b), a)
    }

    /// Whether every pixel is fully opaque: such a picture loses nothing to JPEG's lack of alpha.
    public var isOpaque: Bool { PixelConversion.isOpaque(self) }
}

/// A raster's memory and what gives it back, once nothing holds it. `@unchecked Sendable`,
/// earned: the pointer never changes, and what is read or written through it is the
/// raster's users' to order (as Cairo's surfaces were).
package final class PixelStorage: @unchecked Sendable {
    package let pixels: UnsafeMutableRawPointer
    private let release: () -> Void

    init(_ pixels: UnsafeMutableRawPointer, release: @escaping () -> Void) {
        self.pixels = pixels
        self.release = release
    }

    deinit { release() }
}

/// What draws on a raster's pixels (MemeryRender's Cairo surface over them).
package protocol RasterDrawing: AnyObject, Sendable {
    /// Pending drawing lands in the pixels.
    func willTouchPixels()
    /// The pixels were changed from outside: nothing cached of them holds.
    func didTouchPixels()
}
