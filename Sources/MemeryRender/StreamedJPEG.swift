import Foundation
import MemeryCore
import MemeryJPEG

/// A meme written as JPEG while its picture is still being decoded (`IsolatedDecoder`'s
/// streaming decode), so that the two take about as long as the slower alone, on two cores.
/// Rows above every layer not yet drawn are encoded as soon as they are decoded; a layer is
/// drawn, in order, once every row it can touch is decoded. What comes out is what
/// `Compositor.compose(_:drawingOn:)` and `ImageEncoder` give, row for row.
public final class StreamedJPEG: RowsConsumer {
    private let compositor: Compositor
    private let layers: [Layer]
    /// The rows each layer can touch, in drawing order.
    private let bands: [Range<Int>]
    private let legible: Double
    private let width: Int
    private let height: Int
    private let quality: Int
    private var writer: OpaquePointer?
    private var drawn = 0
    private var encoded = 0

    /// Nil when `creation` is not drawn straight on its picture (`drawsStraightOn`).
    public init?(_ creation: Creation, width: Int, height: Int, quality: Int, compositor: Compositor) throws {
        guard compositor.drawsStraightOn(creation, width: width, height: height) else { return nil }
        guard ExportFormat.qualityRange.contains(quality) else { throw RenderError.qualityOutOfRange(quality) }
        self.compositor = compositor
        layers = creation.layers
        bands = layers.map { compositor.rows(touchedBy: $0, canvasWidth: width, canvasHeight: height) }
        legible = MemeText.legibleSize(canvasHeight: height)
        self.width = width
        self.height = height
        self.quality = quality
        try startOver()
    }

    deinit { memery_jpeg_writer_free(writer) }

    public func rowsReady(_ rows: Int, of raster: Raster) throws {
        guard raster.width == width, raster.height == height else { return }
        // Layers whose rows are all decoded, in order; an empty band draws nothing.
        while drawn < layers.count, rows >= bands[drawn].upperBound {
            raster.draw { cr in compositor.draw(layers[drawn], on: cr, images: [:], legible: legible) }
            drawn += 1
        }
        let limit = min(rows, bands[drawn...].filter { !$0.isEmpty }.map(\.lowerBound).min() ?? height)
        guard limit > encoded else { return }
        var message = [CChar](repeating: 0, count: 200)
        let status = raster.withMutablePixels { pixels, stride in
            memery_jpeg_writer_rows(writer, pixels + encoded * stride, Int32(stride), Int32(limit - encoded), &message, message.count)
        }
        guard status == 0 else { throw Self.failure(message) }
        encoded = limit
    }

    public func startOver() throws {
        memery_jpeg_writer_free(writer)
        var message = [CChar](repeating: 0, count: 200)
        guard let writer = memery_jpeg_writer_new(Int32(width), Int32(height), Int32(quality), &message, message.count) else {
            throw Self.failure(message)
        }
        self.writer = writer
        drawn = 0
        encoded = 0
    }

    /// The JPEG, once every row was told of.
    public func finish() throws -> Data {
        guard encoded == height else {
            throw RenderError.encodeFailed(format: "jpeg", reason: "only \(encoded) of \(height) rows were written")
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 200)
        guard memery_jpeg_writer_finish(writer, &output, &size, &message, message.count) == 0, let output else { throw Self.failure(message) }
        return Data(bytes: output, count: Int(size))
    }

    private static func failure(_ message: [CChar]) -> RenderError {
        .encodeFailed(format: "jpeg", reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
