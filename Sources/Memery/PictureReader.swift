import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

/// Pictures in: a file named on the command line, or bytes uploaded or downloaded, checked
/// against the size limit and decoded in a helper with memory and time limits (they come
/// from outside), as the bytes to keep and what they are.
struct PictureReader: Sendable {
    let decoder: ImageDecoder
    /// Decoding helpers kept between pictures, when the process lives long (`memery serve`).
    let warmHelpers = WarmHelpers(.decoding)
    /// Told once a picture's helper is running (`IsolatedDecoder.whenStarted`).
    var whenHelperStarted: (@Sendable () -> Void)?

    /// Reads and decodes an image file: its bytes, what it is, and its pixels.
    func readImage(at path: String) throws -> (data: Data, image: BaseImage, raster: Raster) {
        try decodeImage(try readImageFile(at: path), source: path)
    }

    /// Decodes a picture's bytes in a helper with memory and time limits: they come from
    /// outside. Errors name `source` as the person named the picture (a path, an upload).
    func decodeImage(_ data: Data, source: String, origin: PictureOrigin? = nil) throws -> (data: Data, image: BaseImage, raster: Raster) {
        try decoder.checkFileSize(data.count, source: source)
        var isolated = IsolatedDecoder(decoder: decoder, warm: warmHelpers)
        isolated.whenStarted = whenHelperStarted
        let (kept, raster, info) = try isolated.decodeForKeeping(data, source: source)
        var image = Self.baseImage(info, of: kept, hash: BlobHash.of(kept), path: source)
        image.origin = origin
        return (kept, image, raster)
    }

    /// An image file's bytes, once it is known to be a file within the size limit.
    func readImageFile(at path: String) throws -> Data {
        try decoder.checkFileSize(try Self.regularFileSize(path), source: path)
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RenderError.unreadable(path: path, reason: Self.reason(error))
        }
    }

    static func baseImage(_ info: ImageInfo, of data: Data, hash: String, path: String) -> BaseImage {
        BaseImage(blob: hash, width: info.width, height: info.height, format: info.format, sourceName: URL(fileURLWithPath: path).lastPathComponent)
    }

    /// The size of a regular file, from one `stat`. Anything else is refused before it is
    /// read: a directory, a device or a FIFO would otherwise give Foundation's jargon, or
    /// block, or never end. (Foundation's `attributesOfItem` would also look the file's owner
    /// and group up by name in the system's user database, on the path of every `memery new`.)
    static func regularFileSize(_ path: String) throws -> Int {
        func refused(_ reason: String) -> RenderError { .unreadable(path: path.isEmpty ? "\"\"" : path, reason: reason) }
        if path.isEmpty { throw refused("an empty path names no file") }
        var info = stat()
        guard stat(path, &info) == 0 else {
            switch errno {
            case ENOENT: throw refused("no such file")
            case EACCES: throw refused("permission denied")
            default: throw refused(String(cString: strerror(errno)))
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return Int(info.st_size)
        case S_IFDIR: throw refused("it is a directory, not an image file")
        default: throw refused("it is not a regular file")
        }
    }

    /// Why a file could not be read, in the words `ls` would use.
    static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSCocoaErrorDomain {
            switch nsError.code {
            case NSFileReadNoSuchFileError: return "no such file"
            case NSFileReadNoPermissionError: return "permission denied"
            default: break
            }
        }
        return nsError.localizedDescription
    }

    /// The name an upload goes by in messages and as the image's source name.
    static func uploadSource(_ sourceName: String) -> String {
        let name = URL(fileURLWithPath: sourceName).lastPathComponent.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty || name == "/" ? "upload" : name
    }

    /// An emoji drawn by the engine (Noto Color Emoji) into a PNG, and the picture it makes
    /// for an image layer. The PNG is stored as a blob with the edit, so every machine and
    /// every older build draws the sticker from the same pixels, whatever fonts it has.
    static func emoji(_ text: String) throws -> (data: Data, image: BaseImage) {
        let raster = try EmojiPicture.render(text)
        let data = try ImageEncoder.encode(raster, as: .png)
        let image = BaseImage(blob: BlobHash.of(data), width: raster.width, height: raster.height, format: "png", sourceName: "emoji \(text)")
        return (data, image)
    }
}
