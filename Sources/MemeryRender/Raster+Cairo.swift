import CPangoCairo
import MemeryPixels

/// A Cairo image surface over a raster's own pixels, made when the raster is first drawn on or
/// drawn from. The surface holds the pixels' storage until Cairo lets the surface go, so a
/// pattern that still names it never reads freed memory, whenever Swift lets the raster go.
/// `@unchecked Sendable`, earned: the pointer is set once, and Cairo's image surfaces are used
/// from one thread at a time, as the rasters they belong to are.
final class CairoSurface: RasterDrawing, @unchecked Sendable {
    let surface: OpaquePointer

    /// Cairo never answers nil here: a surface it could not make is an error surface, which
    /// draws nothing and says why in its status.
    init(_ raster: Raster) {
        surface = cairo_image_surface_create_for_data(raster.pixelBytes, CAIRO_FORMAT_ARGB32, Int32(raster.width),
                                                      Int32(raster.height), Int32(raster.stride))!
        let held = Unmanaged.passRetained(raster.storage).toOpaque()
        if cairo_surface_set_user_data(surface, &pixelStorageKey, held, { Unmanaged<PixelStorage>.fromOpaque($0!).release() })
            != CAIRO_STATUS_SUCCESS {
            Unmanaged<PixelStorage>.fromOpaque(held).release()  // an error surface, which reads no pixels
        }
    }

    deinit { cairo_surface_destroy(surface) }

    func willTouchPixels() { cairo_surface_flush(surface) }
    func didTouchPixels() { cairo_surface_mark_dirty(surface) }
}

/// The key of a surface's pixel storage: Cairo compares keys by address, so it is one
/// variable for the process, never read or written. `nonisolated(unsafe)`, earned: only its
/// address is used.
nonisolated(unsafe) private var pixelStorageKey = cairo_user_data_key_t()

extension Raster {
    /// The Cairo surface over this raster's pixels, made on first use and kept with it.
    var surface: OpaquePointer {
        drawing.withLock { drawing in
            if let made = drawing as? CairoSurface { return made.surface }
            let made = CairoSurface(self)
            drawing = made
            return made.surface
        }
    }

    /// A Cairo context drawing onto this image; destroyed after `body`.
    func draw<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        return try body(cr)
    }
}
