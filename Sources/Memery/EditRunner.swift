public import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

/// Performs edits of the shared vocabulary (`Edit`) against a workspace, keeping each
/// creation it touched open, so that a stream of edits (`memery apply`, a browser tab)
/// costs one decide and one durable append per edit.
public final class EditRunner {
    public let workspace: Workspace
    /// Open creations, by the gallery's name key.
    private var sessions: [String: CreationSession] = [:]

    public init(workspace: Workspace) { self.workspace = workspace }

    /// Performs `edit` on the creation named `name` (nil only for garage edits). With
    /// `expectingVersion`, an edit of the creation's own is stored only if the creation is
    /// still at that stream version when it is appended; otherwise `StaleVersion`.
    /// `readingAhead`: the picture of a new creation from a file, being read already.
    public func perform(_ edit: Edit, on name: String?, expectingVersion expected: UInt64? = nil,
                        readingAhead picture: PictureReadAhead? = nil) throws -> EditResult {
        guard let name else {
            guard !edit.needsCreation else { throw DomainError.invalidEdit("\"\(edit.op)\" needs a creation: give \"creation\": NAME") }
            return try performOutsideCreations(edit)
        }
        switch edit {
        case .new(let source):
            let creation: Creation
            switch source {
            case .image(let file): creation = try workspace.create(name: name, imageAt: file, readAhead: picture)
            case .picture(let picture):
                creation = try workspace.create(name: name, imageData: picture.data, sourceName: picture.name, origin: picture.origin)
            case let .canvas(width, height, background):
                creation = try workspace.create(name: name, canvasWidth: width, height: height, background: background)
            case .garage(let reference): creation = try workspace.create(name: name, garageImage: reference)
            case .template(let template): creation = try workspace.create(name: name, template: template)
            case .link(let url): throw Self.notDownloaded(url)
            }
            var result = EditResult(creation: creation.name)
            let session = try self.session(name)
            result.version = try session.head.streamVersion
            result.sequence = try workspace.lastSequence(of: creation.id)
            result.state = try session.state
            return result
        case .rename(let newName):
            let stored = try workspace.rename(name, to: newName)
            forget(name)
            var result = EditResult(creation: stored.isEmpty ? name : newName)
            result.sequence = stored.last?.sequence
            return result
        case .delete: return galleryResult(name, try workspace.trash(name))
        case .restore: return galleryResult(name, try workspace.restore(name))
        case .favorite(let on): return galleryResult(name, try workspace.setFavorite(name, on))
        case .move(let position): return galleryResult(name, try workspace.move(name, to: position))
        case .saveTemplate(let template):
            let stored = try workspace.saveTemplate(storing: name, as: template).stored
            var result = EditResult(creation: name)
            result.sequence = stored.last?.sequence
            return result
        case .garageAdd, .garageAddPicture, .garageAddLink, .garageRemove, .garageTag, .removeTemplate:
            var result = try performOutsideCreations(edit)
            result.creation = name
            return result
        default:
            let session = try session(name)
            session.expectedVersion = expected
            defer { session.expectedVersion = nil }
            return try performOnCreation(edit, session: session)
        }
    }

    /// A link reaches the runner only when a front end forgot to download it
    /// (`Edit.resolvingLinks`): the engine itself reaches no network.
    static func notDownloaded(_ url: String) -> DomainError {
        DomainError.invalidEdit("the picture at \(url) was not downloaded: this front end does not take pictures from links here")
    }

    private func galleryResult(_ name: String, _ stored: [RecordedEvent]) -> EditResult {
        forget(name)  // its trashed state or name may have changed
        var result = EditResult(creation: name)
        result.sequence = stored.last?.sequence
        return result
    }

    private func performOutsideCreations(_ edit: Edit) throws -> EditResult {
        var result = EditResult(creation: nil)
        switch edit {
        case let .garageAdd(file, name, tags):
            let (item, stored) = try workspace.addToGarage(storing: file, name: name, tags: tags)
            result.garageItem = item
            result.sequence = stored.last?.sequence
        case let .garageAddPicture(picture, name, tags):
            let (data, image, _) = try workspace.pictureReader.decodeImage(picture.data, source: picture.name, origin: picture.origin)
            let (item, stored) = try workspace.addToGarage(data, image, name: name, tags: tags)
            result.garageItem = item
            result.sequence = stored.last?.sequence
        case .garageRemove(let reference):
            result.sequence = try workspace.removeFromGarage(reference).last?.sequence
        case let .garageTag(reference, add, remove):
            let (item, stored) = try workspace.tagInGarage(reference, add: add, remove: remove)
            result.garageItem = item
            result.sequence = stored.last?.sequence
        case .removeTemplate(let name):
            result.sequence = try workspace.removeTemplate(name).last?.sequence
        case .garageAddLink(let url, _, _):
            throw Self.notDownloaded(url)
        default:
            throw DomainError.invalidEdit("\"\(edit.op)\" needs a creation")
        }
        return result
    }

    private func performOnCreation(_ edit: Edit, session: CreationSession) throws -> EditResult {
        var result = EditResult(creation: session.name)
        var stored = [RecordedEvent]()
        switch edit {
        case let .captions(top, bottom, style):
            stored = try session.edit(.setCaptions(top: top, bottom: bottom, style: style))
        case let .addText(text, box, style):
            stored = try session.edit(.addText(role: .free, text: text, box: box, style: style))
            if !stored.isEmpty { result.note(try session.state.layers.last) }
        case let .addImage(source, at, scale, rotation, opacity, flip):
            switch source {
            case .file(let path):
                let (data, image, _) = try workspace.pictureReader.readImage(at: path)
                stored = try session.edit(.addImage(image, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip),
                                          blobs: [data])
            case .picture(let picture):
                let (data, image, _) = try workspace.pictureReader.decodeImage(picture.data, source: picture.name, origin: picture.origin)
                stored = try session.edit(.addImage(image, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip),
                                          blobs: [data])
            case .garage(let reference):
                let item = try workspace.garage().find(reference)
                stored = try session.edit(.addImage(item.image, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip),
                                          blobRefs: [item.image.blob])
            case .sticker(let name):
                let (data, image, _) = try workspace.pictureReader.decodeImage(try BundledStickers.png(named: name), source: "\(name).png")
                stored = try session.edit(.addImage(image, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip),
                                          blobs: [data])
            case .emoji(let text):
                let (data, image) = try PictureReader.emoji(text)
                stored = try session.edit(.addImage(image, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip),
                                          blobs: [data])
            case .link(let url):
                throw Self.notDownloaded(url)
            }
            result.note(try session.state.layers.last)
        case let .addShape(kind, box, fill, alpha, stroke, strokeWidth):
            stored = try session.edit(.addShape(kind, box: box, fill: fill, alpha: alpha, stroke: stroke, strokeWidth: strokeWidth))
            result.note(try session.state.layers.last)
        case let .draw(points, width, color, erase, layer):
            stored = try session.edit(.draw(points: points, width: width, color: color, erase: erase, layer: layer))
            // The layer drawn on: the one named, the topmost drawing for an eraser, else the new one.
            let state = try session.state
            result.note(layer.flatMap(state.layer) ?? (erase ? state.layers.last { $0.kind == "drawing" } : state.layers.last))
        case let .setLayer(id, settings):
            stored = try session.edit(.changeLayer(id: id, try LayerChanges(parsing: settings.map(\.description))))
            result.note(try session.state.layer(id))
        case .removeLayer(let id):
            stored = try session.edit(.removeLayer(id: id))
        case let .moveLayer(id, move):
            stored = try session.edit(.moveLayer(id: id, move))
            result.note(try session.state.layer(id))
        case .crop(let box): stored = try session.edit(.crop(box))
        case let .extendCanvas(margins, background):
            stored = try session.edit(.extendCanvas(margins, background: background, maxPixels: workspace.compositor.decoder.maxPixels))
        case let .fitCanvas(margin, background):
            stored = try session.edit(.fitCanvasToContent(margin: margin, background: background, maxPixels: workspace.compositor.decoder.maxPixels))
        case let .rotate(degrees, target):
            stored = try session.edit(.rotate(degrees: degrees, target))
            if case .layer(let id) = target { result.note(try session.state.layer(id)) }
        case let .flip(axis, target):
            stored = try session.edit(.flip(axis, target))
            if case .layer(let id) = target { result.note(try session.state.layer(id)) }
        case let .applyFilter(filter, settings, layer, canvas):
            stored = try workspace.filters.apply(in: session, filter: filter, settings: settings.map(\.description), layer: layer, canvas: canvas)
            result.filter = try session.state.filters.count
        case let .setFilter(position, settings):
            stored = try workspace.filters.setParams(in: session, position: position, settings: settings.map(\.description))
            result.filter = position
        case .removeFilter(let position):
            stored = try session.edit(.removeFilter(position: position))
        case .undo(let steps):
            stored = try session.undo(steps: steps)
            result.head = try session.headSummary()
        case .redo(let branch):
            stored = try session.redo(branch: branch)
            result.head = try session.headSummary()
        case .checkout(.event(let event)):
            stored = try session.checkout(event: event)
            result.head = try session.headSummary()
        case .checkout(.time(let text)):
            stored = try session.checkout(at: try PointInTime.parse(text, now: Date()), text: text)
            result.head = try session.headSummary()
        case .new, .rename, .delete, .restore, .favorite, .move, .saveTemplate, .garageAdd, .garageAddPicture, .garageAddLink, .garageRemove, .garageTag, .removeTemplate:
            throw DomainError.invalidEdit("\"\(edit.op)\" is not an edit of a creation's picture")
        }
        result.sequence = stored.last?.sequence
        result.version = try session.head.streamVersion
        result.state = try session.state
        return result
    }

    /// The creation held open, opened on first use.
    private func session(_ name: String) throws -> CreationSession {
        let key = Gallery.key(name)
        if let open = sessions[key] { return open }
        let session = try workspace.session(name)
        sessions[key] = session
        return session
    }

    private func forget(_ name: String) { sessions[Gallery.key(name)] = nil }
}

extension Workspace {
    /// Performs one edit (see `EditRunner` for a stream of them).
    @discardableResult
    public func perform(_ edit: Edit, on name: String?, expectingVersion expected: UInt64? = nil,
                        readingAhead picture: PictureReadAhead? = nil) throws -> EditResult {
        try EditRunner(workspace: self).perform(edit, on: name, expectingVersion: expected, readingAhead: picture)
    }

    /// The global sequence of a stream's newest event.
    func lastSequence(of stream: UUID) throws -> UInt64? {
        try store.events(in: stream, fromVersion: max(1, try store.version(of: stream))).last?.sequence
    }
}
