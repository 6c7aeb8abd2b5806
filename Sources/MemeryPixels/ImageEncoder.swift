import MemeryCore
import CGdkPixbuf
import Foundation

/// Encodes a raster as PNG or WebP through gdk-pixbuf's savers, as JPEG with libjpeg-turbo
/// straight from the raster's rows, or as GIF through giflib.
public enum ImageEncoder {
    /// The encoded bytes. JPEG has no alpha, so it is flattened onto white; PNG and WebP keep
    /// it, GIF keeps what is more than half opaque. `pngCompression` is zlib's level, from 0 to
    /// 9: 6 for files that are kept; 1 for previews on this machine, where zlib's time
    /// is most of an edit's wait and the size does not matter.
    public static func encode(_ raster: Raster, as format: ExportFormat, quality: Int = ExportFormat.defaultQuality,
                              pngCompression: Int = 6) throws -> Data {
        guard ExportFormat.qualityRange.contains(quality) else { throw RenderError.qualityOutOfRange(quality) }
        if format == .jpeg { return try jpeg(raster, quality: quality) }
        if format == .gif {
            let writer = try GIFWriter(width: raster.width, height: raster.height, loops: nil, animated: false)
            try writer.add(raster, delay: 0)
            return try writer.finish()
        }
        let pixbuf = try PixelConversion.pixbuf(from: raster, opaqueOver: format == .jpeg ? (255, 255, 255) : nil)
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        var options: [(String, String)] = []
        switch format {
        case .png: options = [("compression", String(min(9, max(0, pngCompression))))]
        case .webp: options = [("quality", String(quality))]
        case .jpeg, .gif: break
        }
        return try save(pixbuf, type: format.rawValue, options: options)
    }

    /// No copy of the picture is made: libjpeg reads the rows in place (a 12-megapixel photo
    /// went through a 36 MB RGB pixbuf before).
    private static func jpeg(_ raster: Raster, quality: Int) throws -> Data {
        let writer = try JPEGWriter(width: raster.width, height: raster.height, quality: quality)
        try raster.withMutablePixels { pixels, stride in try writer.write(pixels, stride: stride, rows: raster.height) }
        return try writer.finish()
    }

    private static func save(_ pixbuf: OpaquePointer, type: String, options: [(String, String)]) throws -> Data {
        // gdk_pixbuf_save_to_bufferv takes NULL-terminated C string arrays.
        var keys = options.map { strdup($0.0) } + [nil]
        var values = options.map { strdup($0.1) } + [nil]
        defer { (keys + values).forEach { free($0) } }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let ok = gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, type, &keys, &values, &error)
        defer {
            if let buffer { g_free(buffer) }
            if let error { g_error_free(error) }
        }
        guard ok != 0, let buffer else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "no saver for \(type) is installed"
            throw RenderError.encodeFailed(format: type, reason: reason)
        }
        return Data(bytes: buffer, count: Int(size))
    }
}
