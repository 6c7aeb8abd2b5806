import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

/// From a picture to a meme in one step (`memery quick`): the creation is kept, named after
/// the file and made unique, and the picture made on the other core while it is stored.
struct QuickMeme: Sendable {
    let workspace: Workspace

    /// From a picture to a meme in one step: keeps the creation (named after the file, made
    /// unique) and writes the picture. Returns the creation's name and what was written.
    func make(imageAt path: String, top: String?, bottom: String?, style: TextStyleChanges,
              output: String, format: ExportFormat, quality: Int = ExportFormat.defaultQuality) throws -> (name: String, picture: Picture) {
        // Nothing is kept of a quick meme that could not be written: the folder is checked
        // before anything is stored, and the creation purged if the write fails after.
        try PictureMaker.checkWritable(output)
        let (name, picture) = try make(imageAt: path, top: top, bottom: bottom, style: style, format: format, quality: quality)
        do {
            try AtomicFile.write(picture.data, to: URL(fileURLWithPath: output))
        } catch {
            _ = try? workspace.purge(name)
            throw error
        }
        return (name, picture)
    }

    /// `quick` without writing a file: the creation's name and its picture, encoded.
    ///
    /// Two cores share the work. A JPEG made into a JPEG is written while it is decoded (in
    /// the helper): rows are encoded as they come, each caption drawn once the rows under it
    /// are there (`StreamedJPEG`). Once the picture is decoded, the creation and its captions
    /// are stored on one core while the other finishes the meme from the same edits decided
    /// in memory. Nothing is returned before both are done, so what is written is as durable
    /// as before.
    func make(imageAt path: String, top: String?, bottom: String?, style: TextStyleChanges,
              format: ExportFormat, quality: Int = ExportFormat.defaultQuality) throws -> (name: String, picture: Picture) {
        guard ExportFormat.qualityRange.contains(quality) else { throw RenderError.qualityOutOfRange(quality) }
        let hasCaptions = !(top ?? "").isEmpty || !(bottom ?? "").isEmpty
        let captions = try FontNames.resolving(.setCaptions(top: top, bottom: bottom, style: style))  // before anything is stored
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.trimmingCharacters(in: .whitespacesAndNewlines)
        let base = Gallery.problem(withName: stem) == nil ? stem : "meme"
        let read = try workspace.pictureReader.readImageFile(at: path)
        // A drawing (SVG) is kept as the picture the helper draws of it.
        let data = IsolatedDecoder.isDrawing(read) ? try IsolatedDecoder(decoder: workspace.compositor.decoder).decodeForKeeping(read, source: path).data : read
        let hash = BlobHash.of(data)
        func edits(_ info: ImageInfo) -> [CreationCommand] {
            [.importBaseImage(PictureReader.baseImage(info, of: data, hash: hash, path: path))] + (hasCaptions ? [captions] : [])
        }
        func planned(_ info: ImageInfo) throws -> Creation {
            var creation = Creation(id: UUID())
            for command in [.create(name: base)] + edits(info) { creation = creation.evolve(try creation.decide(command)) }
            return creation
        }

        // Unsafe, earned: written by the one storing task, read only after `stores.wait()`.
        nonisolated(unsafe) var stored: Result<String, Error> = .failure(DomainError.noCanvas)
        let stores = DispatchGroup()
        func storing(_ info: ImageInfo) {  // on the other core
            let commands = edits(info)
            DispatchQueue.global().async(group: stores) { stored = Result { try store(named: base, commands, blobs: [data]) } }
        }
        let isolated = IsolatedDecoder(decoder: workspace.compositor.decoder)
        let picture = Result { () throws -> Picture? in
            let decoded: (raster: Raster, info: ImageInfo)
            if format == .jpeg, let size = IsolatedDecoder.sizeKnownBeforeDecoding(data),
               let streamer = try StreamedJPEG(try planned(ImageInfo(format: "jpeg", width: size.width, height: size.height)),
                                               width: size.width, height: size.height, quality: quality, compositor: workspace.compositor) {
                let result = try isolated.decode(data, source: path, expecting: size.width, size.height, streamingTo: streamer, whenDecoded: storing)
                if result.streamed { return Picture(data: try streamer.finish(), format: format, frames: 1, framesInCreation: 1) }
                decoded = (result.raster, result.info)
            } else {
                decoded = try isolated.decode(data, source: path)
                storing(decoded.info)
            }
            let creation = try planned(decoded.info)
            guard try workspace.compositor.frameCount(creation, blob: { _ in data }) == 1 else { return nil }  // an animation: drawn from the store
            let drawn = try workspace.compositor.compose(creation, drawingOn: decoded.raster)
            return Picture(data: try ImageEncoder.encode(drawn, as: format, quality: quality), format: format, frames: 1, framesInCreation: 1)
        }
        stores.wait()
        let finished = try picture.get()  // a picture that could not be decoded: nothing was stored
        let name = try stored.get()
        if let finished { return (name, finished) }
        return (name, try workspace.pictures.picture(of: try workspace.creation(named: name), format: format, quality: quality))
    }

    /// Stores a new creation named after `base` (made unique) and its first edits; returns
    /// its name.
    private func store(named base: String, _ edits: [CreationCommand], blobs: [Data]) throws -> String {
        var name = try workspace.galleryIndex.uniqueName(from: base)
        while true {
            do {
                _ = try workspace.creations.start(name, with: edits[0], blobs: blobs)
                break
            } catch DomainError.nameTaken, DomainError.nameTakenInTrash {
                name = try workspace.galleryIndex.uniqueName(from: base)  // lost a race for the name
            }
        }
        for command in edits.dropFirst() { _ = try workspace.edit(name, command) }
        return name
    }
}
