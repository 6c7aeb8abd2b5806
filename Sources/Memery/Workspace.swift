public import Foundation
import MemeryCore
import MemeryRender
// Public for one declaration: the store behind the `Tools` SPI (the crash test, benchmarks).
public import MemeryStore

/// The library's front door: a store, the domain and the renderer joined. Every edit is
/// decided against the creation's current state, appended atomically and acknowledged
/// only once durable.
///
/// A composition root: what it answers is done by types with one job each — creations'
/// streams (`CreationRepository`, `CreationSession`), the gallery (`GalleryIndex`), the
/// garage and templates (`EventSourcedRepository`), pictures in (`PictureReader`) and out
/// (`PictureMaker`, `QuickMeme`), sync (`StoreSync`), filters (`CreationFilters`), the
/// hub's library (`LibraryExchange`), all writing through `WriteTurns`.
///
/// One workspace serves many threads and tasks at once, as GRDB's DatabasePool does: reads
/// run side by side (LMDB read transactions, renders), writes take turns (`WriteTurns`), and
/// the async API (Workspace+Async.swift) runs all of it off Swift's cooperative pool.
public final class Workspace: Sendable {
    let store: EventStore
    let compositor: Compositor
    /// The projections a long-lived process keeps, following the global log.
    let projections = LiveProjections()
    /// The history trees built last, extended by what came after (`history(of:)`).
    let histories = HistoryCache()
    let turns = WriteTurns()
    let galleryIndex: GalleryIndex
    let creations: CreationRepository
    let garageStream: EventSourcedRepository<Garage>
    let templateStream: EventSourcedRepository<Templates>
    let pictureReader: PictureReader
    let pictures: PictureMaker
    /// Where the async API runs edits (one at a time, in order) and reads (side by side).
    let writer = DispatchQueue(label: "memery.workspace.writer")
    let readers = DispatchQueue(label: "memery.workspace.readers", attributes: .concurrent)

    /// The event store itself, for the project's own tools (the crash test, benchmarks):
    /// front ends never reach it.
    @_spi(Tools) public var eventStore: EventStore { store }

    /// The map a new store starts with: a virtual reservation that grows when it fills.
    public static let defaultMapSize = EventStore.defaultMapSize

    public convenience init(directory: URL, mapSize: Int = Workspace.defaultMapSize) throws {
        try self.init(directory: directory, mapSize: mapSize, decoder: .fromEnvironment())
    }

    init(directory: URL, mapSize: Int, decoder: ImageDecoder) throws {
        let (store, migration) = try StoreMigration.open(directory: directory, mapSize: mapSize) { old, new in
            switch old.storedFormat {
            case 1: try FormatOneMigration.run(old, into: new)
            default: try StoreMigration.copyUnchanged(old, into: new)  // 2 to 3: only the records' checksums change
            }
        }
        // Read-only, it could not be migrated. This build reads a format-2 store as it is (only
        // its checksums differ), but not format 1's moves.
        guard store.storedFormat == EventStore.formatVersion || (store.isReadOnly && store.storedFormat >= 2) else {
            throw StoreError.olderFormat(found: store.storedFormat, path: directory.path)
        }
        self.store = store
        compositor = Compositor(decoder: decoder)
        // The store's own plugins folder (the first place a newcomer puts one).
        compositor.filters.addStoreDirectory(directory.appendingPathComponent("plugins").path)
        migrationNotice = migration.map { report in
            (["the store \(directory.path) was migrated from format \(report.from) to format \(report.to) (\(report.events) events, checked)"]
                + report.notes).joined(separator: "; ")
        }
        galleryIndex = GalleryIndex(store: store, projections: projections, turns: turns)
        creations = CreationRepository(store: store, projections: projections, histories: histories, turns: turns, galleryIndex: galleryIndex)
        garageStream = EventSourcedRepository(store: store, turns: turns, stream: { _ in WellKnownStreams.garage },
                                              projection: { [projections] store, load in try projections.garage(store, load: load) })
        templateStream = EventSourcedRepository(store: store, turns: turns, stream: { _ in WellKnownStreams.templates },
                                                projection: { [projections] store, load in try projections.templates(store, load: load) })
        pictureReader = PictureReader(decoder: decoder)
        pictures = PictureMaker(compositor: compositor, store: store)
    }

    /// One line saying that opening the store migrated it to this build's format (and what
    /// that changed), or nil; front ends show it once.
    public let migrationNotice: String?

    // MARK: Reading

    /// The creation's current state (at the head of its history).
    public func creation(named name: String) throws -> Creation { try head(of: name).state }

    /// The creation at the head of its history: the last snapshot and the events after it.
    public func head(of name: String) throws -> CreationHead { try creations.head(try entry(named: name)) }

    /// The head of a creation the gallery already named (listing many need not look each up).
    public func head(of entry: Gallery.Entry) throws -> CreationHead { try creations.head(entry) }

    /// Whether an undo and a redo would move the creation's head now.
    public func headMoves(of entry: Gallery.Entry) throws -> HeadMoves { try creations.headMoves(entry) }

    /// The creation's whole history: the tree of edits, the head, and the state there.
    public func history(of name: String) throws -> CreationHistory { try creations.history(try entry(named: name)) }
    /// The tree as `memery history --json` gives it: in a new process, read from the
    /// history index without replaying the events.
    public func historyTree(of name: String) throws -> HistoryTreeAnswer { try creations.historyTree(try entry(named: name)) }

    /// The tree as `memery history` prints it (UTF-8, a newline after each line; the lines of
    /// `HistoryTreeText.lines`), handed to `write` in pieces: in a new process drawn straight
    /// from the history index.
    public func drawHistory(of name: String, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        try creations.drawHistory(try entry(named: name), to: write)
    }

    /// The last `count` edits leading to the head, oldest first: fast at any length of history.
    public func headLine(of name: String, last count: Int) throws -> HeadLineAnswer {
        try creations.headLine(try entry(named: name), last: count)
    }

    /// The creation's events, oldest first, each described for people.
    public func events(of name: String) throws -> [HistoryEntry] {
        let entry = try entry(named: name)
        return try CreationRepository.naming(entry.name) {
            var (history, events) = try creations.loadHistory(entry.id)
            history.name = entry.name
            return try events.map { try HistoryEntry($0, try EventCoding.domainEvent($0), in: history) }
        }
    }

    /// The font families installed here that can set words, the meme faces marked.
    public func fonts() -> [FontFamily] { FontNames.families() }

    /// The topmost layer at a canvas point, or nil.
    public func layer(_ name: String, at point: Point) throws -> Layer? { try creation(named: name).topmostLayer(at: point) }

    // MARK: Editing

    /// Makes a creation from an image file: the name, the image blob and both events in one
    /// transaction.
    /// With `readAhead`, a picture being read already (`PictureReadAhead`): taken when it is
    /// of this file, instead of reading the file again.
    @discardableResult
    public func create(name: String, imageAt path: String, readAhead: PictureReadAhead? = nil) throws -> Creation {
        let (data, image) = try readAhead.flatMap { $0.path == path ? $0 : nil }?.wait()
            ?? { let read = try pictureReader.readImage(at: path); return (read.data, read.image) }()
        return try creations.start(name, with: .importBaseImage(image), blobs: [data])
    }

    /// Makes a creation on a blank canvas.
    @discardableResult
    public func create(name: String, canvasWidth: Int, height: Int, background: Color) throws -> Creation {
        try creations.start(name, with: .createCanvas(width: canvasWidth, height: height, background: background, maxPixels: compositor.decoder.maxPixels))
    }

    /// Holds a creation open for a series of edits.
    public func session(_ name: String) throws -> CreationSession { try CreationSession(workspace: self, name: name) }

    /// The creation's gallery entry for editing: refused while it is in the trash.
    func entryForEditing(_ name: String) throws -> Gallery.Entry {
        let entry = try entry(named: name)
        guard !entry.trashed else { throw DomainError.inTrash(name) }
        return entry
    }

    /// Decides `command` against the creation named `name` and appends what it causes.
    /// Returns the new state and the events stored (none when nothing changed).
    @discardableResult
    public func edit(_ name: String, _ command: CreationCommand, blobs: [Data] = [], blobRefs: [String] = []) throws -> (creation: Creation, events: [RecordedEvent]) {
        let session = try session(name)
        let stored = try session.edit(command, blobs: blobs, blobRefs: blobRefs)
        return (try session.state, stored)
    }

    /// Decides with `decide` against the creation's whole history and appends what it
    /// returns as one batch; on a conflict with another process, decides again.
    @discardableResult
    public func change(_ name: String, _ decide: (any HistoryNavigation) throws -> [CreationEvent]) throws -> (history: CreationHistory, events: [RecordedEvent]) {
        let session = try session(name)
        let stored = try session.changeHistory(decide)
        return (try session.history(), stored)
    }

    /// Sets or replaces the captions ("" removes one).
    @discardableResult
    public func setCaptions(_ name: String, top: String?, bottom: String?, style: TextStyleChanges = TextStyleChanges()) throws -> Creation {
        try edit(name, .setCaptions(top: top, bottom: bottom, style: style)).creation
    }

    /// Adds a free text box; returns its layer id.
    public func addText(_ name: String, _ text: String, box: Box? = nil, style: TextStyleChanges = .init()) throws -> String {
        try edit(name, .addText(role: .free, text: text, box: box, style: style)).creation.textLayers.last?.id ?? ""
    }

    /// Adds a sticker or photo from a file (stored with the edit); returns its layer id.
    public func addImage(_ name: String, imageAt path: String, at: Point? = nil, scale: Double = 1, rotation: Double = 0,
                         opacity: Double = 1, flip: FlipAxis? = nil) throws -> String {
        try session(name).addImage(imageAt: path, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip)
    }

    // MARK: History

    /// Steps back `steps` edits (as far as the first); returns the history after.
    @discardableResult
    public func undo(_ name: String, steps: Int = 1) throws -> CreationHistory {
        try change(name) { try $0.decideUndo(steps: steps) }.history
    }

    /// Steps forward along the newest branch, or branch `branch` (1 = oldest).
    @discardableResult
    public func redo(_ name: String, branch: Int? = nil) throws -> CreationHistory {
        try change(name) { try $0.decideRedo(branch: branch) }.history
    }

    /// Goes back (or forward) to the edit `memery history` shows as `v<event>`.
    @discardableResult
    public func checkout(_ name: String, event: UInt64) throws -> CreationHistory {
        try change(name) { try $0.decideCheckout(try $0.edit(shownAs: event)) }.history
    }

    /// Goes to the state as it was at `time`; `text` is how the person wrote the time.
    @discardableResult
    public func checkout(_ name: String, at time: Date, text: String) throws -> CreationHistory {
        try change(name) { try $0.decideCheckout(try CreationSession.head($0, at: time, text: text)) }.history
    }

    // MARK: Pictures

    /// The creation's picture, encoded: at its own size, or scaled down to `width` pixels wide.
    /// An animated creation in GIF or WebP keeps every frame; in PNG or JPEG, its first.
    public func picture(of name: String, width: Int? = nil, format: ExportFormat,
                        quality: Int = ExportFormat.defaultQuality, skipMissingFilters: Bool = false) throws -> Picture {
        try pictures.picture(of: try creation(named: name), width: width, format: format, quality: quality, skipMissingFilters: skipMissingFilters)
    }

    /// Renders and writes the creation; the file is replaced whole or not at all.
    @discardableResult
    public func export(_ name: String, to path: String, width: Int? = nil, format: ExportFormat, quality: Int = ExportFormat.defaultQuality,
                       skipMissingFilters: Bool = false) throws -> Picture {
        try pictures.write(try picture(of: name, width: width, format: format, quality: quality, skipMissingFilters: skipMissingFilters), to: path)
    }

    /// How many frames the creation's base image holds: more than 1 when it is animated.
    public func frameCount(of creation: Creation) throws -> Int { try pictures.frameCount(of: creation) }

    /// Keeps up to `bytes` of decoded pictures between renders, for a long-lived process
    /// (`memery serve`): an edit's new preview does not decode its photo again. 0, the
    /// default, keeps nothing, so a one-shot command's peak memory is what it was.
    public func keepDecodedImages(upTo bytes: Int) { compositor.cache.setBudget(bytes) }

    /// Makes this store a cache of somewhere else that holds the truth (a hub's working copy
    /// of a person's creations, PostgreSQL behind it): commits are not flushed to the disk, so
    /// an edit costs no wait for it. A machine that stops may lose or damage such a store:
    /// only for one that is deleted and built again when its process starts.
    public func keepAsCache() throws { try store.keepAsCache() }

    /// Keeps `count` helpers of each kind (decoding pictures, running isolated filters)
    /// running between jobs, for a long-lived process: an upload or a frei0r preview then
    /// costs no helper's start. Each is let go after a number of jobs and after any that did
    /// not end well. They serve this workspace alone.
    public func keepHelpersWarm(_ count: Int) {
        pictureReader.warmHelpers.keep = count
        compositor.warmPlugins.keep = count
    }

    /// What the decoded-picture cache holds and how often it served.
    var decodedImageStatistics: DecodedImageCache.Statistics { compositor.cache.statistics }

    /// From a picture to a meme in one step: keeps the creation (named after the file, made
    /// unique) and writes the picture. Returns the creation's name and what was written.
    @discardableResult
    public func quick(imageAt path: String, top: String?, bottom: String?, style: TextStyleChanges = TextStyleChanges(),
                      output: String, format: ExportFormat, quality: Int = ExportFormat.defaultQuality) throws -> (name: String, picture: Picture) {
        try QuickMeme(workspace: self).make(imageAt: path, top: top, bottom: bottom, style: style, output: output, format: format, quality: quality)
    }

    /// `quick` without writing a file: the creation's name and its picture, encoded.
    public func quick(imageAt path: String, top: String?, bottom: String?, style: TextStyleChanges = TextStyleChanges(),
                      format: ExportFormat, quality: Int = ExportFormat.defaultQuality) throws -> (name: String, picture: Picture) {
        try QuickMeme(workspace: self).make(imageAt: path, top: top, bottom: bottom, style: style, format: format, quality: quality)
    }

    // MARK: Parts with a job of their own

    /// The store's side of sync: what to push, and storing what was pulled.
    public var sync: StoreSync { StoreSync(store: store, turns: turns, galleryIndex: galleryIndex, creations: creations) }

    /// What the store gives to, and takes from, a hub's library.
    public var library: LibraryExchange { LibraryExchange(workspace: self) }

    /// Filters in this store's creations: applied, previewed, changed, removed.
    public var filters: CreationFilters { CreationFilters(workspace: self) }

    /// The store's folder: what belongs to this store (its login to a hub) lives beside its data.
    public var directory: URL { store.directory }

    // MARK: Checking

    /// Copies everything readable into a new store at `directory`, leaving behind whole any
    /// creation that damage touched (`StoreSalvage`). This store is only read.
    public func salvage(into directory: URL) throws -> SalvageReport { try StoreSalvage(workspace: self).copy(into: directory) }

    public func verify() throws -> StoreCheck {
        let report = try store.verify()
        guard !report.isClean else { return StoreCheck(report) { _ in nil } }
        // A damaged creation's name is in its membership stream, apart from its history.
        return StoreCheck(report) { stream in
            WellKnownStreams.name(of: stream) ?? (try? self.galleryIndex.membership(stream))?.entry?.name
        }
    }
}
