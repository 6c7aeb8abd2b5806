import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

/// The library's front door: a store, the domain and the renderer joined. Every edit is
/// decided against the creation's current state, appended atomically and acknowledged
/// only once durable.
public final class Workspace: @unchecked Sendable {
    public let store: EventStore
    public let compositor: Compositor
    /// Tries per edit when another process appends to the same creation meanwhile.
    private let conflictRetries = 5

    public init(directory: URL, mapSize: Int = EventStore.defaultMapSize, decoder: ImageDecoder = .fromEnvironment()) throws {
        store = try EventStore(directory: directory, mapSize: mapSize)
        compositor = Compositor(decoder: decoder)
    }

    static func nameClaim(_ name: String) -> String { "creation-name:" + Gallery.key(name) }

    // MARK: Reading

    /// Every creation, in the order they were made.
    public func gallery() throws -> Gallery {
        var gallery = Gallery()
        try store.forEachEvent { stored in
            if stored.type == "CreationCreated" { gallery.evolve(try EventCoding.domainEvent(stored)) }
            return true
        }
        return gallery
    }

    /// The creation's current state.
    public func creation(named name: String) throws -> Creation {
        try load(name).creation
    }

    private func load(_ name: String) throws -> (creation: Creation, events: [StoredEvent]) {
        guard let id = try store.owner(ofClaim: Self.nameClaim(name)) else { throw DomainError.noSuchCreation(name) }
        let stored = try store.events(in: id)
        let creation = Creation.replay(id: id, try stored.map(EventCoding.domainEvent))
        return (creation, stored)
    }

    /// The creation's events, oldest first.
    public func history(of name: String) throws -> [HistoryEntry] {
        try load(name).events.map { HistoryEntry($0, try EventCoding.domainEvent($0)) }
    }

    // MARK: Editing

    /// Makes a creation from an image file: the name, the image blob and both events in one
    /// transaction.
    @discardableResult
    public func create(name: String, imageAt path: String) throws -> Creation {
        try createKeepingImage(name: name, imageAt: path).creation
    }

    /// `create`, also returning the decoded base image so that a caller who renders next
    /// need not decode it again.
    private func createKeepingImage(name: String, imageAt path: String) throws -> (creation: Creation, image: Raster) {
        let url = URL(fileURLWithPath: path)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RenderError.unreadable(path: path, reason: Self.reason(error))
        }
        let (raster, info) = try compositor.decoder.decode(data, source: url.lastPathComponent)
        let image = BaseImage(blob: BlobHash.of(data), width: info.width, height: info.height,
                              format: info.format, sourceName: url.lastPathComponent)
        var creation = Creation(id: UUID())
        var events = try creation.decide(.create(name: name), gallery: try gallery())
        events.forEach { creation = creation.evolve($0) }
        let imported = try creation.decide(.importBaseImage(image))
        imported.forEach { creation = creation.evolve($0) }
        events += imported
        do {
            try store.append(to: creation.id, expectedVersion: 0, events: events.map(EventCoding.newEvent),
                             blobs: [data], claim: [Self.nameClaim(name)])
        } catch StoreError.claimTaken {
            throw DomainError.nameTaken(name)  // another process took the name meanwhile
        }
        return (creation, raster)
    }

    /// Decides `command` against the creation named `name` and appends what it causes.
    /// Returns the new state and the events stored (none when nothing changed).
    @discardableResult
    public func edit(_ name: String, _ command: CreationCommand) throws -> (creation: Creation, events: [StoredEvent]) {
        var attempt = 0
        while true {
            attempt += 1
            let current = try load(name).creation
            let events = try current.decide(command)
            guard !events.isEmpty else { return (current, []) }
            do {
                let stored = try store.append(to: current.id, expectedVersion: current.version,
                                              events: events.map(EventCoding.newEvent))
                return (events.reduce(current) { $0.evolve($1) }, stored)
            } catch StoreError.conflict where attempt < conflictRetries {
                continue  // someone else edited it: decide again on the new state
            }
        }
    }

    /// Sets or replaces the captions ("" removes one).
    @discardableResult
    public func setCaptions(_ name: String, top: String?, bottom: String?) throws -> Creation {
        try edit(name, .setCaptions(top: top, bottom: bottom)).creation
    }

    /// Adds a free text box; returns its layer id.
    public func addText(_ name: String, _ text: String, box: Box? = nil, style: TextStyleChanges = .init()) throws -> String {
        let (creation, _) = try edit(name, .addText(role: .free, text: text, box: box, style: style))
        return creation.textLayers.last?.id ?? ""
    }

    // MARK: Pictures

    public func render(_ name: String) throws -> Raster {
        try render(try creation(named: name))
    }

    public func render(_ creation: Creation) throws -> Raster {
        try compositor.render(creation) { hash in
            guard let data = try store.blob(hash) else { throw StoreError.missingBlob(hash: hash) }
            return data
        }
    }

    /// Renders and writes the creation; the file is replaced whole or not at all.
    public func export(_ name: String, to path: String, format: ExportFormat, quality: Int = ExportFormat.defaultQuality) throws {
        let data = try ImageEncoder.encode(try render(name), as: format, quality: quality)
        try AtomicFile.write(data, to: URL(fileURLWithPath: path))
    }

    /// From a picture to a meme in one step: keeps the creation (named after the file, made
    /// unique) and writes the picture. Returns the creation's name.
    public func quick(imageAt path: String, top: String?, bottom: String?, output: String,
                      format: ExportFormat, quality: Int = ExportFormat.defaultQuality) throws -> String {
        guard ExportFormat.qualityRange.contains(quality) else { throw RenderError.qualityOutOfRange(quality) }
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        var base = stem.trimmingCharacters(in: .whitespacesAndNewlines)
        if Gallery.problem(withName: base) != nil { base = "meme" }
        var name = try gallery().uniqueName(from: base)
        var creation: Creation
        let image: Raster
        while true {
            do {
                (creation, image) = try createKeepingImage(name: name, imageAt: path)
                break
            } catch DomainError.nameTaken {
                name = try gallery().uniqueName(from: base)  // lost a race for the name
            }
        }
        let hasCaptions = !(top ?? "").isEmpty || !(bottom ?? "").isEmpty
        if hasCaptions { creation = try setCaptions(name, top: top, bottom: bottom) }
        let picture = try compositor.compose(base: image, layers: creation.textLayers)
        try AtomicFile.write(try ImageEncoder.encode(picture, as: format, quality: quality), to: URL(fileURLWithPath: output))
        return name
    }

    public func verify() throws -> VerifyReport {
        try store.verify()
    }

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
}
