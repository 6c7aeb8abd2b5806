import CPangoCairo

/// A Cairo ARGB32 image (premultiplied, native-endian 32-bit pixels) that owns its surface.
public final class Raster {
    let surface: OpaquePointer
    public let width: Int
    public let height: Int

    /// A transparent image of the given size.
    public init(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 32767, height <= 32767,
              let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw RenderError.outOfMemory(width: width, height: height)
        }
        self.surface = surface
        self.width = width
        self.height = height
    }

    /// Pixels this raster does not own: a surface over `pixels` (Cairo's ARGB32 layout, rows
    /// `stride` bytes apart), and what gives them back once the raster is gone.
    init(wrapping pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, release: @escaping () -> Void) throws {
        guard width > 0, height > 0, width <= 32767, height <= 32767,
              stride == Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width))),
              let surface = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                                Int32(width), Int32(height), Int32(stride)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            release()
            throw RenderError.outOfMemory(width: width, height: height)
        }
        self.surface = surface
        self.width = width
        self.height = height
        self.release = release
    }

    private var release: (() -> Void)?

    /// For pixels in memory shared with another process (`SharedPixels`): where the count of
    /// rows filled so far is published.
    var progress: UnsafeMutablePointer<UInt64>?

    deinit {
        cairo_surface_destroy(surface)
        release?()
    }

    /// Bytes per row.
    public var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

    /// Runs `body` over the pixel bytes after flushing Cairo's pending drawing; marks them dirty after.
    public func withMutablePixels<T>(_ body: (UnsafeMutablePointer<UInt8>, _ stride: Int) throws -> T) rethrows -> T {
        cairo_surface_flush(surface)
        defer { cairo_surface_mark_dirty(surface) }
        return try body(cairo_image_surface_get_data(surface), stride)
    }

    /// The straight-alpha RGBA value of one pixel, for tests and hit checks.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        cairo_surface_flush(surface)
        let row = cairo_image_surface_get_data(surface)! + y * stride
        let value = UnsafeRawPointer(row + x * 4).loadUnaligned(as: UInt32.self)
        let a = UInt8(value >> 24), r = UInt8(value >> 16 & 0xff), g = UInt8(value >> 8 & 0xff), b = UInt8(value & 0xff)
        guard a != 0 else { return (0, 0, 0, 0) }
        func straight(_ c: UInt8) -> UInt8 { UInt8(min(255, (Int(c) * 255 + Int(a) / 2) / Int(a))) }
        return (straight(r), straight(g), straight(b), a)
    }

    /// Whether every pixel is fully opaque: such a picture loses nothing to JPEG's lack of alpha.
    public var isOpaque: Bool { PixelConversion.isOpaque(self) }

    /// A Cairo context drawing onto this image; destroyed after `body`.
    func draw<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        return try body(cr)
    }
}
