import CSharedMemory
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Decoded pixels handed from the helper process to this one through a file in memory
/// (memfd) that is the helper's standard output. The first page holds the helper's one-line
/// reply (written last) and, in its last 8 bytes, a progress word: the rows decoded so far
/// (low 32 bits) and how many times decoding started (high 32 bits: a decoder that gives up
/// part-way and hands over to another starts again). The pixels follow from `pixelOffset`.
/// This process maps them as a raster — a 12-megapixel photo's 48 MB cross without a pipe, a
/// buffer or a copy — and can use rows while later ones are still being decoded.
final class SharedPixels {
    /// Where the pixels start: a page boundary, after the reply.
    static let pixelOffset = 4096
    /// Where the progress word is, at the end of the first page.
    static let progressOffset = pixelOffset - 8
    let descriptor: Int32
    /// The first page, mapped once the size is known (`map`): the progress word's home.
    private var firstPage: UnsafeMutableRawPointer?

    /// The file's size for a `width` x `height` picture.
    static func bytes(width: Int, height: Int) -> Int { pixelOffset + width * 4 * height }

    /// Nil where no memory file can be made (the pipe is used then).
    init?() {
        descriptor = memery_memory_file("memery-pixels")
        guard descriptor >= 0 else { return nil }
    }

    deinit {
        if let firstPage { munmap(firstPage, Self.pixelOffset) }
        Glibc.close(descriptor)
    }

    var fileHandle: FileHandle { FileHandle(fileDescriptor: descriptor, closeOnDealloc: false) }

    /// The reply the helper wrote: its bytes up to the first newline.
    func reply() -> Data {
        var size = stat()
        guard fstat(descriptor, &size) == 0 else { return Data() }
        var bytes = [UInt8](repeating: 0, count: min(Int(size.st_size), Self.progressOffset))
        let read = pread(descriptor, &bytes, bytes.count, 0)
        guard read > 0 else { return Data() }
        return Data(bytes[..<read].prefix { $0 != UInt8(ascii: "\n") })
    }

    /// The pixels the helper wrote, mapped; nil when the file holds fewer than a picture of
    /// this size needs.
    func raster(width: Int, height: Int, stride: Int) throws -> Raster? {
        var size = stat()
        guard fstat(descriptor, &size) == 0, Int(size.st_size) >= Self.pixelOffset + stride * height else { return nil }
        return try Self.map(descriptor, width: width, height: height, sizing: false)
    }

    /// Before the helper starts: the file sized for a `width` x `height` picture and mapped, so
    /// that rows can be used as the helper decodes them (`progress`).
    func preallocate(width: Int, height: Int) throws -> Raster {
        let raster = try Self.map(descriptor, width: width, height: height, sizing: true)
        guard let page = mmap(nil, Self.pixelOffset, PROT_READ, MAP_SHARED, descriptor, 0), page != MAP_FAILED else {
            throw RenderError.outOfMemory(width: width, height: height)
        }
        firstPage = page
        return raster
    }

    /// Rows decoded so far, and the count of starts (0 before the helper began).
    func progress() -> (starts: Int, rows: Int) {
        guard let firstPage else { return (0, 0) }
        let word = memery_load_acquire((firstPage + Self.progressOffset).assumingMemoryBound(to: UInt64.self))
        return (Int(word >> 32), Int(word & 0xffff_ffff))
    }

    /// A raster over the file's pixels (Cairo's ARGB32 rows are never padded). `sizing`
    /// grows the file to hold them, never shrinks it: the other process may have it mapped.
    /// `populate`: the pages made and mapped at once, which costs less than a fault at each
    /// (the helper, about to write them all).
    private static func map(_ descriptor: Int32, width: Int, height: Int, sizing: Bool, populate: Bool = false) throws -> Raster {
        let length = bytes(width: width, height: height)
        var size = stat()
        guard fstat(descriptor, &size) == 0, !sizing || Int(size.st_size) >= length || ftruncate(descriptor, off_t(length)) == 0,
              let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED | (populate ? MAP_POPULATE : 0), descriptor, 0),
              base != MAP_FAILED else {
            throw RenderError.outOfMemory(width: width, height: height)
        }
        let raster = try Raster(wrapping: base + pixelOffset, width: width, height: height, stride: width * 4) { munmap(base, length) }
        raster.progress = (base + progressOffset).assumingMemoryBound(to: UInt64.self)
        return raster
    }

    // MARK: The helper's side

    /// Whether standard output (or `descriptor`, a warm helper's job's) is such a file (else
    /// it is a pipe).
    static func isFile(_ descriptor: Int32 = STDOUT_FILENO) -> Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// A raster over the output's memory from `pixelOffset`, which the decoder fills in
    /// place; a new start is counted in the progress word, with no rows yet.
    static func outputRaster(in descriptor: Int32 = STDOUT_FILENO, width: Int, height: Int) throws -> Raster {
        let raster = try map(descriptor, width: width, height: height, sizing: true, populate: true)
        if let progress = raster.progress {
            memery_store_release(progress, ((memery_load_acquire(progress) >> 32) + 1) << 32)
        }
        return raster
    }

    /// Says that every row of `raster` (an `outputRaster`) is decoded.
    static func finished(_ raster: Raster) {
        guard let progress = raster.progress else { return }
        memery_store_release(progress, memery_load_acquire(progress) & ~0xffff_ffff | UInt64(raster.height))
    }

    /// `reply` (one line, shorter than `progressOffset`) at the start of the output.
    static func write(reply: Data, to descriptor: Int32 = STDOUT_FILENO) throws {
        guard reply.count < progressOffset else { throw RenderError.decoderUnavailable(reason: "the helper's reply is too long") }
        let written = reply.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, reply.count, 0) }
        guard written == reply.count else { throw RenderError.decoderUnavailable(reason: "the helper could not write its reply") }
    }
}
