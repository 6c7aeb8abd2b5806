import Foundation
import MemeryCore

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
    private var writer: JPEGWriter
    private var drawn = 0

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
        writer = try JPEGWriter(width: width, height: height, quality: quality)
    }

    public func rowsReady(_ rows: Int, of raster: Raster) throws {
        guard raster.width == width, raster.height == height else { return }
        // Layers whose rows are all decoded, in order; an empty band draws nothing.
        while drawn < layers.count, rows >= bands[drawn].upperBound {
            raster.draw { cr in compositor.draw(layers[drawn], on: cr, images: ImageSources(), legible: legible) }
            drawn += 1
        }
        let limit = min(rows, bands[drawn...].filter { !$0.isEmpty }.map(\.lowerBound).min() ?? height)
        let encoded = writer.written
        guard limit > encoded else { return }
        try raster.withMutablePixels { pixels, stride in try writer.write(pixels + encoded * stride, stride: stride, rows: limit - encoded) }
    }

    public func startOver() throws {
        writer = try JPEGWriter(width: width, height: height, quality: quality)
        drawn = 0
    }

    /// The JPEG, once every row was told of.
    public func finish() throws -> Data { try writer.finish() }
}
