import Foundation
import MemeryJPEG

/// The common JPEG — 8-bit YCbCr or greyscale, upright — decoded with libjpeg-turbo straight
/// into the raster's rows: no RGB pixbuf in between (36 MB and a pass over them for a
/// 12-megapixel photo). Anything else, a damaged file included, is left to gdk-pixbuf, whose
/// loader handles CMYK, EXIF orientation and what is wrong with a file in its own words.
/// Rows are published as they are decoded when the raster is shared (`SharedPixels`).
enum JPEGDecoder {
    /// The picture, or nil when gdk-pixbuf is to decode it.
    static func decode(_ data: Data, into makeRaster: ImageDecoder.RasterMaker) throws -> Raster? {
        if let turn = EmbeddedOrientation.jpeg(data), turn != 1 { return nil }
        var width: Int32 = 0, height: Int32 = 0
        let sized = data.withUnsafeBytes { bytes in
            memery_jpeg_size(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &width, &height)
        }
        guard sized == 0, width > 0, height > 0 else { return nil }
        let raster = try makeRaster(Int(width), Int(height))
        let decoded = data.withUnsafeBytes { bytes in
            raster.withMutablePixels { pixels, stride in
                memery_jpeg_decode(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, pixels, width, height, Int32(stride),
                                   raster.progress)
            }
        }
        return decoded == 0 ? raster : nil
    }
}
