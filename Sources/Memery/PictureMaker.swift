import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

/// Pictures out: a creation drawn from the store's pictures and encoded (every frame of an
/// animation in a format that holds one), written whole or not at all.
struct PictureMaker: Sendable {
    let compositor: Compositor
    let store: EventStore

    /// The longest side a WebP file can hold.
    static let webPSideLimit = 16_383

    /// The creation's picture; an animated one's first frame.
    func render(_ creation: Creation, skipMissingFilters: Bool = false) throws -> Raster {
        try compositor.render(creation, skipMissingFilters: skipMissingFilters, blob: storedBlob)
    }

    /// The creation's picture, encoded: at its own size, or scaled down to `width` pixels wide.
    /// An animated creation in GIF or WebP keeps every frame; in PNG or JPEG, its first.
    func picture(of creation: Creation, width: Int? = nil, format: ExportFormat,
                 quality: Int = ExportFormat.defaultQuality, skipMissingFilters: Bool = false) throws -> Picture {
        try picture(of: creation, width: width, choosing: format, quality: quality, skipMissingFilters: skipMissingFilters)
    }

    /// `picture`, or with no format (nil) JPEG when every pixel is opaque and PNG otherwise.
    /// `pngCompression`: zlib's level (`ImageEncoder`).
    func picture(of creation: Creation, width: Int?, choosing format: ExportFormat?, quality: Int,
                 skipMissingFilters: Bool = false, pngCompression: Int = 6) throws -> Picture {
        guard ExportFormat.qualityRange.contains(quality) else { throw RenderError.qualityOutOfRange(quality) }
        if format == .webp, let canvas = creation.canvas {
            // WebP's sides are 14 bits: said before a 17,000-pixel picture is drawn for nothing.
            // The size the render will have: scaled only when narrower than the canvas, as `Compositor.render` does.
            let (w, h) = width.flatMap { $0 < canvas.width && canvas.width > 0 ? Raster.size(of: (canvas.width, canvas.height), scaledToWidth: $0) : nil }
                ?? (canvas.width, canvas.height)
            if max(w, h) > Self.webPSideLimit { throw RenderError.tooLongForFormat(format: "webp", width: w, height: h, limit: Self.webPSideLimit) }
        }
        let frames = try compositor.frameCount(creation, blob: storedBlob)
        if frames > 1, let format, format.holdsAnimation,
           let data = try compositor.renderAnimation(creation, as: format, quality: quality, width: width,
                                                     skipMissingFilters: skipMissingFilters, blob: storedBlob) {
            return Picture(data: data, format: format, frames: frames, framesInCreation: frames)
        }
        let raster = try compositor.render(creation, width: width, skipMissingFilters: skipMissingFilters, blob: storedBlob)
        let chosen = format ?? (raster.isOpaque ? .jpeg : .png)
        return Picture(data: try ImageEncoder.encode(raster, as: chosen, quality: quality, pngCompression: pngCompression),
                       format: chosen, frames: 1, framesInCreation: frames)
    }

    /// A stored picture (a garage image) as PNG, scaled down to `width` when it is wider.
    func png(of image: BaseImage, named reference: String, width: Int?) throws -> Picture {
        var raster = try compositor.decoder.decodeStored(try storedBlob(image.blob), source: image.sourceName ?? reference).0
        if let width, width < raster.width { raster = try raster.scaled(toWidth: width) }
        return Picture(data: try ImageEncoder.encode(raster, as: .png, quality: ExportFormat.defaultQuality), format: .png, frames: 1, framesInCreation: 1)
    }

    /// How many frames the creation's base image holds: more than 1 when it is animated.
    func frameCount(of creation: Creation) throws -> Int {
        try compositor.frameCount(creation, blob: storedBlob)
    }

    /// The bytes kept under a hash; a missing blob is damage to the store.
    func storedBlob(_ hash: String) throws -> Data {
        guard let data = try store.blob(hash) else { throw StoreError.missingBlob(hash: hash) }
        return data
    }

    /// Writes a picture; the file is replaced whole or not at all.
    func write(_ picture: Picture, to path: String) throws -> Picture {
        try AtomicFile.write(picture.data, to: URL(fileURLWithPath: path))
        return picture
    }

    /// Throws when a file could not be written at `path`: its folder missing or not
    /// writable, or the path a folder.
    static func checkWritable(_ path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw RenderError.writeFailed(path: path, reason: "it is a folder: name a file in it")
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw RenderError.writeFailed(path: path, reason: "the folder \(folder) does not exist")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw RenderError.writeFailed(path: path, reason: "the folder \(folder) cannot be written (\(String(cString: strerror(errno))))")
        }
    }
}
