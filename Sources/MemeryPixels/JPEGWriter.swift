import Foundation
import MemeryCore
import MemeryJPEG

/// A JPEG written with libjpeg-turbo a band of Cairo rows at a time, read in place.
package final class JPEGWriter {
    private let writer: OpaquePointer
    package let height: Int
    /// Rows written so far.
    package private(set) var written = 0

    package init(width: Int, height: Int, quality: Int) throws {
        guard ExportFormat.qualityRange.contains(quality) else { throw RenderError.qualityOutOfRange(quality) }
        var message = [CChar](repeating: 0, count: 200)
        guard let writer = memery_jpeg_writer_new(Int32(width), Int32(height), Int32(quality), &message, message.count) else {
            throw Self.failure(message)
        }
        self.writer = writer
        self.height = height
    }

    deinit { memery_jpeg_writer_free(writer) }

    /// The next `rows` rows, from `pixels`, `stride` bytes apart.
    package func write(_ pixels: UnsafeMutablePointer<UInt8>, stride: Int, rows: Int) throws {
        guard rows > 0 else { return }
        var message = [CChar](repeating: 0, count: 200)
        guard memery_jpeg_writer_rows(writer, pixels, Int32(stride), Int32(rows), &message, message.count) == 0 else {
            throw Self.failure(message)
        }
        written += rows
    }

    /// The JPEG, once every row is written.
    package func finish() throws -> Data {
        guard written == height else { throw RenderError.encodeFailed(format: "jpeg", reason: "only \(written) of \(height) rows were written") }
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
