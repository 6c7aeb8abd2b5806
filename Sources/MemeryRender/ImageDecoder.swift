import CGdkPixbuf
import Foundation

/// What the decoder learnt about an image.
public struct ImageInfo: Sendable, Equatable {
    /// gdk-pixbuf's name for the format: png, jpeg, gif, bmp, tiff, webp, avif, ...
    public var format: String
    /// Size after EXIF orientation.
    public var width: Int
    public var height: Int
}

/// Decodes image bytes with gdk-pixbuf: any format an installed loader reads, EXIF
/// orientation applied, and images over the pixel limit refused before their pixels are
/// decoded (a loader told size 0 in `size-prepared` stops without allocating).
public struct ImageDecoder: Sendable {
    public static let defaultMaxPixels = 100_000_000
    public var maxPixels: Int

    public init(maxPixels: Int = ImageDecoder.defaultMaxPixels) {
        self.maxPixels = maxPixels
    }

    /// The limit from `MEMERY_MAX_MEGAPIXELS` when set, else the default.
    public static func fromEnvironment() -> ImageDecoder {
        if let text = ProcessInfo.processInfo.environment["MEMERY_MAX_MEGAPIXELS"], let mp = Double(text), mp > 0 {
            return ImageDecoder(maxPixels: Int(mp * 1_000_000))
        }
        return ImageDecoder()
    }

    /// Decodes `data`; `source` names it in errors (a file name, or "the base image").
    public func decode(_ data: Data, source: String) throws -> (Raster, ImageInfo) {
        if let reason = PNGCompleteness.problem(data) { throw RenderError.corrupt(source: source, format: "png", reason: reason) }
        let pixbuf = try loadPixbuf(data, source: source)
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf.pointer)) }
        let raster = try PixelConversion.raster(from: pixbuf.pointer)
        return (raster, ImageInfo(format: pixbuf.format, width: raster.width, height: raster.height))
    }

    /// The names of the formats the installed loaders read.
    public static func readableFormats() -> [String] {
        var names = [String]()
        var list = gdk_pixbuf_get_formats()
        let head = list
        while let node = list {
            if let format = node.pointee.data.map(OpaquePointer.init),
               let name = gdk_pixbuf_format_get_name(format) {
                names.append(String(cString: name))
                g_free(name)
            }
            list = node.pointee.next
        }
        g_slist_free(head)
        return names.sorted()
    }

    /// Watches `size-prepared` and stops the loader when the declared size is over the limit.
    private final class SizeGuard {
        let maxPixels: Int
        var declared: (width: Int, height: Int)?
        var refused = false
        init(maxPixels: Int) { self.maxPixels = maxPixels }
    }

    private func loadPixbuf(_ data: Data, source: String) throws -> (pointer: OpaquePointer, format: String) {
        guard !data.isEmpty else { throw RenderError.empty(source: source) }
        guard let loader = gdk_pixbuf_loader_new() else { throw RenderError.outOfMemory(width: 0, height: 0) }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }

        let sizeGuard = SizeGuard(maxPixels: maxPixels)
        let unmanaged = Unmanaged.passRetained(sizeGuard)
        defer { unmanaged.release() }
        let onSize: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { loader, width, height, context in
            guard let context else { return }
            let sizeGuard = Unmanaged<SizeGuard>.fromOpaque(context).takeUnretainedValue()
            sizeGuard.declared = (Int(width), Int(height))
            if width <= 0 || height <= 0 || Int(width) * Int(height) > sizeGuard.maxPixels {
                sizeGuard.refused = true
                gdk_pixbuf_loader_set_size(loader, 0, 0)  // loaders stop at a size of 0
            }
        }
        g_signal_connect_data(UnsafeMutableRawPointer(loader), "size-prepared",
                              unsafeBitCast(onSize, to: GCallback.self), unmanaged.toOpaque(), nil, GConnectFlags(rawValue: 0))

        var error: UnsafeMutablePointer<GError>?
        let wrote = data.withUnsafeBytes { bytes in
            gdk_pixbuf_loader_write(loader, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), gsize(bytes.count), &error)
        }
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError)
        let format = Self.formatName(loader)
        defer {
            if let error { g_error_free(error) }
            if let closeError { g_error_free(closeError) }
        }

        if sizeGuard.refused, let size = sizeGuard.declared {
            throw RenderError.tooLarge(source: source, width: size.width, height: size.height, limit: maxPixels)
        }
        if wrote == 0 || closed == 0 {
            let message = (error ?? closeError).map { String(cString: $0.pointee.message) } ?? "unknown decoder error"
            // The loader may only give up on sniffing the type at close.
            let first = error ?? closeError
            if format == nil, first?.pointee.domain == gdk_pixbuf_error_quark(),
               first?.pointee.code == Int32(GDK_PIXBUF_ERROR_UNKNOWN_TYPE.rawValue) {
                throw RenderError.unsupportedFormat(source: source, known: Self.readableFormats())
            }
            throw RenderError.corrupt(source: source, format: format, reason: message)
        }
        guard let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw RenderError.corrupt(source: source, format: format, reason: "no picture could be decoded")
        }
        // Returns a new reference: the upright image (or the same one, referenced again).
        guard let upright = gdk_pixbuf_apply_embedded_orientation(pixbuf) else {
            throw RenderError.outOfMemory(width: Int(gdk_pixbuf_get_width(pixbuf)), height: Int(gdk_pixbuf_get_height(pixbuf)))
        }
        return (upright, format ?? "unknown")
    }

    private static func formatName(_ loader: UnsafeMutablePointer<GdkPixbufLoader>) -> String? {
        guard let format = gdk_pixbuf_loader_get_format(loader), let name = gdk_pixbuf_format_get_name(format) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }
}
