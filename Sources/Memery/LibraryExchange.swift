public import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

/// A picture ready for a hub's public library: bytes of a type every browser shows, and its size.
public struct LibraryPicture: Sendable {
    public var data: Data
    public var format: ExportFormat
    public var width: Int
    public var height: Int
    public var contentType: String { format.mimeType }
}

/// What the store gives to, and takes from, a hub's library (recommendations, templates,
/// shared memes), handed out by `Workspace.library`: pictures checked with the same
/// isolated decoder as any file, templates as the engine's JSON.
public struct LibraryExchange: Sendable {
    let workspace: Workspace

    /// A picture file for the library. PNG, JPEG, WebP and GIF go as they are; any other
    /// picture the engine reads (BMP, TIFF, AVIF, ...) goes as PNG, and `converted` says so.
    public func picture(imageAt path: String) throws -> (picture: LibraryPicture, converted: String?) {
        let (data, image, raster) = try workspace.pictureReader.readImage(at: path)
        if let format = ExportFormat(rawValue: image.format) {
            return (LibraryPicture(data: data, format: format, width: image.width, height: image.height), nil)
        }
        let png = try ImageEncoder.encode(raster, as: .png, quality: ExportFormat.defaultQuality)
        return (LibraryPicture(data: png, format: .png, width: raster.width, height: raster.height), image.format)
    }

    /// A creation rendered for the library: in `format`, or JPEG when every pixel is opaque
    /// and PNG otherwise.
    public func picture(of name: String, format: ExportFormat?, quality: Int = ExportFormat.defaultQuality) throws -> LibraryPicture {
        try picture(of: try workspace.creation(named: name), format: format, quality: quality)
    }

    func picture(of creation: Creation, format: ExportFormat?, quality: Int) throws -> LibraryPicture {
        guard let canvas = creation.canvas else { throw DomainError.noCanvas }
        let picture = try workspace.pictures.picture(of: creation, width: nil, choosing: format, quality: quality)
        return LibraryPicture(data: picture.data, format: picture.format, width: canvas.width, height: canvas.height)
    }

    /// A template as the library keeps it: its JSON, a preview (a creation started from it,
    /// rendered, never stored) and its base picture's bytes when it has one.
    public func publishable(template name: String) throws -> (json: String, preview: LibraryPicture, base: Data?) {
        let template = try workspace.templates().find(name)
        var creation = Creation(id: UUID())
        for command in [CreationCommand.create(name: "preview"), .startFromTemplate(template)] { creation = creation.evolve(try creation.decide(command)) }
        let json = String(decoding: try SortedJSONEncoder().encode(template), as: UTF8.self)
        return (json, try picture(of: creation, format: .png, quality: ExportFormat.defaultQuality),
                try template.baseImage.map { try workspace.pictures.storedBlob($0.blob) })
    }

    /// Starts a creation from a template a hub's library gave: its JSON and base picture,
    /// which must be the picture the template names and must decode here.
    @discardableResult
    public func create(name: String, publishedTemplate json: String, baseImageData: Data?, source: String) throws -> Creation {
        let template: Templates.Template
        do {
            template = try PayloadJSONDecoder().decode(Templates.Template.self, from: Data(json.utf8))
        } catch {
            throw RenderError.corrupt(source: source, format: "template", reason: "its JSON is not a template this memery reads (\(error))")
        }
        guard let base = template.baseImage else { return try workspace.creations.start(name, with: .startFromTemplate(template)) }
        guard let baseImageData, BlobHash.of(baseImageData) == base.blob else {
            throw RenderError.corrupt(source: source, format: "template", reason: "its base picture is not the one the template names")
        }
        let (data, _, _) = try workspace.pictureReader.decodeImage(baseImageData, source: source)
        return try workspace.creations.start(name, with: .startFromTemplate(template), blobs: [data])
    }

    /// A name no creation has now, made from a library entry's title.
    public func freeName(titled title: String) throws -> String {
        let cleaned = title.replacingOccurrences(of: "/", with: "-").trimmingCharacters(in: .whitespacesAndNewlines)
        return try workspace.galleryIndex.uniqueName(from: Gallery.problem(withName: cleaned) == nil ? cleaned : "from the hub")
    }

    /// Why this memery could not use a picture's bytes, or nil when it decodes (in the
    /// isolated decoder, with its limits).
    public func undecodable(_ data: Data, source: String) -> String? {
        do {
            _ = try workspace.pictureReader.decodeImage(data, source: source)
            return nil
        } catch {
            return String(describing: error)
        }
    }
}
