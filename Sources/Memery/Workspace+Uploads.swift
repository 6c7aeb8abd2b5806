import Foundation
import MemeryCore
import MemeryRender

/// Pictures that arrive as bytes rather than as files (an upload to `memery serve`): the
/// same limits, the same isolated decode and the same checks as a file named on the
/// command line.
extension Workspace {
    /// The largest picture file accepted, in bytes (`MEMERY_MAX_FILE_MB`).
    public var maxImageBytes: Int { compositor.decoder.maxFileBytes }

    /// Makes a creation from an uploaded picture; `sourceName` is the file's name as sent.
    @discardableResult
    public func create(name: String, imageData: Data, sourceName: String) throws -> Creation {
        let (data, image, _) = try decodeImage(imageData, source: Self.uploadSource(sourceName))
        return try start(name, with: .importBaseImage(image), blobs: [data])
    }

    /// Imports an uploaded picture into the garage (the same bytes are kept once).
    public func addToGarage(imageData: Data, sourceName: String, name: String? = nil, tags: [String] = []) throws -> Garage.Item {
        let (data, image, _) = try decodeImage(imageData, source: Self.uploadSource(sourceName))
        return try addToGarage(data, image, name: name, tags: tags).item
    }

    /// A name no creation has now, made from `base` (a file's stem, "untitled"), for a
    /// creation the person has not named yet.
    public func freeName(from base: String) throws -> String {
        let stem = URL(fileURLWithPath: base).deletingPathExtension().lastPathComponent.trimmingCharacters(in: .whitespacesAndNewlines)
        return try uniqueName(from: Gallery.problem(withName: stem) == nil ? stem : "untitled")
    }

    /// The name an upload goes by in messages and as the image's source name.
    static func uploadSource(_ sourceName: String) -> String {
        let name = URL(fileURLWithPath: sourceName).lastPathComponent.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty || name == "/" ? "upload" : name
    }
}
