import CSharedMemory
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Decoded pixels handed from the helper process to this one through a file in memory
/// (memfd) that is the helper's standard output: the helper writes its one-line reply at the
/// start and the pixels from `pixelOffset`, and this process maps them as a raster. A
/// 12-megapixel photo's 48 MB then cross without a pipe, a buffer or a copy.
final class SharedPixels {
    /// Where the pixels start: a page boundary, after the reply.
    static let pixelOffset = 4096
    let descriptor: Int32

    /// Nil where no memory file can be made (the pipe is used then).
    init?() {
        descriptor = memery_memory_file("memery-pixels")
        guard descriptor >= 0 else { return nil }
    }

    deinit { Glibc.close(descriptor) }

    var fileHandle: FileHandle { FileHandle(fileDescriptor: descriptor, closeOnDealloc: false) }

    /// The reply the helper wrote: its bytes up to the first newline.
    func reply() -> Data {
        var size = stat()
        guard fstat(descriptor, &size) == 0 else { return Data() }
        var bytes = [UInt8](repeating: 0, count: min(Int(size.st_size), 1 << 20))
        let read = pread(descriptor, &bytes, bytes.count, 0)
        guard read > 0 else { return Data() }
        return Data(bytes[..<read].prefix { $0 != UInt8(ascii: "\n") })
    }

    /// The pixels the helper wrote, mapped; nil when the file holds fewer than a picture of
    /// this size needs.
    func raster(width: Int, height: Int, stride: Int) throws -> Raster? {
        var size = stat()
        let length = Self.pixelOffset + stride * height
        guard fstat(descriptor, &size) == 0, Int(size.st_size) >= length else { return nil }
        guard let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), base != MAP_FAILED else {
            throw RenderError.outOfMemory(width: width, height: height)
        }
        return try Raster(wrapping: base + Self.pixelOffset, width: width, height: height, stride: stride) {
            munmap(base, length)
        }
    }

    /// The helper's side: whether standard output is such a file (else it is a pipe).
    static func standardOutputIsFile() -> Bool {
        var info = stat()
        return fstat(STDOUT_FILENO, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The helper's side: a raster over standard output's memory from `pixelOffset`, which
    /// the decoder fills in place.
    static func outputRaster(width: Int, height: Int) throws -> Raster {
        let stride = width * 4  // Cairo's ARGB32 rows are never padded
        let length = pixelOffset + stride * height
        guard ftruncate(STDOUT_FILENO, off_t(length)) == 0,
              let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, STDOUT_FILENO, 0), base != MAP_FAILED else {
            throw RenderError.outOfMemory(width: width, height: height)
        }
        return try Raster(wrapping: base + pixelOffset, width: width, height: height, stride: stride) { munmap(base, length) }
    }

    /// The helper's side: `reply` (one line, shorter than `pixelOffset`) at the start of
    /// standard output, before the pixels.
    static func write(reply: Data) throws {
        guard reply.count < pixelOffset else { throw RenderError.decoderUnavailable(reason: "the helper's reply is too long") }
        let written = reply.withUnsafeBytes { pwrite(STDOUT_FILENO, $0.baseAddress, reply.count, 0) }
        guard written == reply.count else { throw RenderError.decoderUnavailable(reason: "the helper could not write its reply") }
    }
}
