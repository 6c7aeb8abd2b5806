public import Foundation
import MemeryCore
import MemeryRender

/// Pictures that arrive as bytes rather than as files (an upload to `memery serve`): the
/// same limits, the same isolated decode and the same checks as a file named on the
/// command line.
extension Workspace {
    /// The largest picture file accepted, in bytes (`MEMERY_MAX_FILE_MB`).
    public var maxImageBytes: Int { compositor.decoder.maxFileBytes }

    /// Makes a creation from an uploaded or downloaded picture; `sourceName` is the file's
    /// name as sent, `origin` the link it came from (kept with it).
    @discardableResult
    public func create(name: String, imageData: Data, sourceName: String, origin: PictureOrigin? = nil) throws -> Creation {
        let (data, image, _) = try pictureReader.decodeImage(imageData, source: PictureReader.uploadSource(sourceName), origin: origin)
        return try creations.start(name, with: .importBaseImage(image), blobs: [data])
    }

    /// Imports an uploaded or downloaded picture into the garage (the same bytes are kept once).
    public func addToGarage(imageData: Data, sourceName: String, origin: PictureOrigin? = nil, name: String? = nil, tags: [String] = []) throws -> Garage.Item {
        let (data, image, _) = try pictureReader.decodeImage(imageData, source: PictureReader.uploadSource(sourceName), origin: origin)
        return try addToGarage(data, image, name: name, tags: tags).item
    }

    /// Adds an uploaded or downloaded picture as a layer; returns its label.
    public func addImage(_ name: String, imageData: Data, sourceName: String, origin: PictureOrigin? = nil, at: Point? = nil,
                         scale: Double = 1, rotation: Double = 0, opacity: Double = 1, flip: FlipAxis? = nil) throws -> String {
        let (data, image, _) = try pictureReader.decodeImage(imageData, source: PictureReader.uploadSource(sourceName), origin: origin)
        let session = try session(name)
        try session.edit(.addImage(image, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip), blobs: [data])
        return try session.state.layers.last?.label ?? ""
    }

    /// A name no creation has now, made from `base` (a file's stem, "untitled"), for a
    /// creation the person has not named yet.
    public func freeName(from base: String) throws -> String {
        let stem = URL(fileURLWithPath: base).deletingPathExtension().lastPathComponent.trimmingCharacters(in: .whitespacesAndNewlines)
        return try galleryIndex.uniqueName(from: Gallery.problem(withName: stem) == nil ? stem : "untitled")
    }

    /// The name an upload goes by in messages and as the image's source name.
    static func uploadSource(_ sourceName: String) -> String {
        let name = URL(fileURLWithPath: sourceName).lastPathComponent.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty || name == "/" ? "upload" : name
    }
}
