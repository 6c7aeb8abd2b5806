public import Foundation
import MemeryCore
import MemeryRender
// Public for one declaration: the store behind the `Tools` SPI (the crash test, benchmarks).
public import MemeryStore

/// The library's front door: a store, the domain and the renderer joined. Every edit is
/// decided against the creation's current state, appended atomically and acknowledged
/// only once durable.
///
/// One workspace serves many threads and tasks at once, as GRDB's DatabasePool does: reads
/// run side by side (LMDB read transactions, renders), writes take turns (`writing`), and
/// the async API (Workspace+Async.swift) runs all of it off Swift's cooperative pool.
public final class Workspace: Sendable {
    let store: EventStore
    let compositor: Compositor
    /// The projections a long-lived process keeps, following the global log.
    let projections = LiveProjections()
    /// The history trees built last, extended by what came after (`history(of:)`).
    let histories = HistoryCache()
    /// Writers in this process take turns, so that only another process can make one decide again.
    private let writeLock = NSRecursiveLock()
    /// How long an edit keeps deciding again while other processes' appends get in first.
    static let conflictPatience: Duration = .seconds(30)
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
            try FormatOneMigration.run(old, into: new)
        }
        // Read-only, it could not be migrated, and this build does not read format 1's moves.
        guard store.storedFormat == EventStore.formatVersion else {
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
    }

    /// One line saying that opening the store migrated it to this build's format (and what
    /// that changed), or nil; front ends show it once.
    public let migrationNotice: String?

    static let nameClaimPrefix = "creation-name:"
    static func nameClaim(_ name: String) -> String { nameClaimPrefix + Gallery.key(name) }

    // MARK: Reading

    /// The creation's current state (at the head of its history).
    public func creation(named name: String) throws -> Creation {
        try head(of: name).state
    }

    /// The creation at the head of its history: the last snapshot and the events after it.
    public func head(of name: String) throws -> CreationHead {
        try openHead(name).head
    }

    /// The creation's whole history: the tree of edits, the head, and the state there.
    public func history(of name: String) throws -> CreationHistory {
        let entry = try entry(named: name)
        var history = try Self.naming(entry.name) { try currentHistory(entry.id) }
        history.name = entry.name  // the gallery's name: renames live there
        return history
    }

    /// The tree kept from the last look, with the appends since added when each sorts after
    /// everything in it (this machine's own edits always do); else built again from the start.
    private func currentHistory(_ id: UUID) throws -> CreationHistory {
        let version = try store.version(of: id)
        if var tree = histories.tree(id), tree.storedVersion <= version {
            if tree.storedVersion == version { return tree.history }
            let newer = try store.events(in: id, fromVersion: tree.storedVersion + 1)
            var extended = true
            for batch in Self.batches(newer) {
                guard let envelope = EventCoding.envelope(batch), tree.history.latest.map({ envelope.order >= $0 }) ?? true else {
                    extended = false
                    break
                }
                tree.history.apply(try batch.map(EventCoding.domainEvent), envelope)
            }
            if extended, let last = newer.last?.version {
                tree.storedVersion = last
                histories.keep(tree, for: id)
                histories.count(built: false)
                return tree.history
            }
        }
        // Kept as far as the events read, not the version looked at before: an append made
        // in between is in the tree already and must not be added again.
        let (history, events) = try loadHistory(id)
        histories.keep(.init(history: history, storedVersion: UInt64(events.count)), for: id)
        histories.count(built: true)
        return history
    }

    /// Snapshots are written every this many events.
    static let snapshotInterval: UInt64 = 100
    /// The longest side a WebP file can hold.
    static let webPSideLimit = 16_383

    /// The head of a creation the gallery already named (listing many need not look each up).
    public func head(of entry: Gallery.Entry) throws -> CreationHead {
        try openHead(entry).head
    }

    func openHead(_ name: String) throws -> (head: CreationHead, entry: Gallery.Entry) {
        try openHead(try entry(named: name))
    }

    func openHead(_ entry: Gallery.Entry) throws -> (head: CreationHead, entry: Gallery.Entry) {
        try Self.naming(entry.name) { try openHeadUnnamed(entry) }
    }

    /// Damage met while reading one creation is that creation's: the error names it (and
    /// says the rest of the store is readable), instead of blaming the whole store.
    static func naming<T>(_ name: String, _ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch StoreError.damaged(let sequence, let reason) {
            throw MemeryError(.damagedStore, "\"\(name)\" is damaged\(sequence.map { " at sequence \($0)" } ?? ""): \(reason); the other creations can be read",
                              underlying: StoreError.damaged(sequence: sequence, reason: reason))
        }
    }

    private func openHeadUnnamed(_ entry: Gallery.Entry) throws -> (head: CreationHead, entry: Gallery.Entry) {
        var replayed: CreationHead?
        var head = try projections.head(entry.id, store) {
            let (head, fromScratch) = try readHead(entry.id)
            if fromScratch { replayed = head }
            return head
        }
        if let replayed { snapshotIfDue(replayed, force: true) }  // a synced write: not under the cache's lock
        head.state.name = entry.name  // the gallery's name: renames live there
        return (head, entry)
    }

    /// The head from the store: the snapshot and the events after it. Undo, redo and
    /// checkout store a snapshot with their move, so a move in the tail (written by an older
    /// Memery, or by a crash between an edit and its snapshot) is the one case that replays.
    /// `snapshotDue` says the snapshot is worth renewing (a long tail, or a replay).
    func readHead(_ id: UUID) throws -> (head: CreationHead, snapshotDue: Bool) {
        var head = CreationHead(id: id)
        if let snapshot = try store.snapshot(id), snapshot.format == CreationHead.snapshotFormat,
           let cached = CreationHead.decoded(snapshot.data), cached.streamVersion == snapshot.version, cached.state.id == id {
            head = cached
        }
        let since = head.streamVersion
        // An append in the tail that sorts before the latest (from another machine) is placed by the tree.
        for batch in Self.batches(try store.events(in: id, fromVersion: since + 1)) {
            guard let envelope = EventCoding.envelope(batch), head.apply(try batch.map(EventCoding.domainEvent), envelope) else {
                return (CreationHead(try loadHistory(id).history), true)
            }
        }
        return (head, head.streamVersion - since >= Self.snapshotInterval)
    }

    /// Keeps the creation's snapshot near its head. A snapshot is a cache: failing to write
    /// one loses nothing, so errors are ignored.
    func snapshotIfDue(_ head: CreationHead, force: Bool = false) {
        guard force || head.streamVersion % Self.snapshotInterval == 0, let data = try? head.encoded() else { return }
        try? store.putSnapshot(head.state.id, version: head.streamVersion, format: CreationHead.snapshotFormat, data: data)
    }

    /// Stored events grouped by batch: one batch is one edit or one move of the head.
    static func batches(_ stored: [StoredEvent]) -> [ArraySlice<StoredEvent>] {
        var result = [ArraySlice<StoredEvent>]()
        var start = stored.startIndex
        while start < stored.endIndex {
            var end = start
            while end < stored.endIndex, stored[end].batch == stored[start].batch { end += 1 }
            result.append(stored[start..<end])
            start = end
        }
        return result
    }

    func load(_ name: String) throws -> (history: CreationHistory, events: [StoredEvent], trashed: Bool) {
        let entry = try entry(named: name)
        var (history, stored) = try Self.naming(entry.name) { try loadHistory(entry.id) }
        history.name = entry.name  // the gallery's name: renames live there
        return (history, stored, entry.trashed)
    }

    /// The whole history tree, replayed from the creation's first event, and its events in
    /// the order every machine agrees on (`HistoryOrder`), numbered in that order.
    func loadHistory(_ id: UUID) throws -> (history: CreationHistory, events: [StoredEvent]) {
        let ordered = Self.inHistoryOrder(try store.events(in: id))
        var history = CreationHistory(id: id)
        for batch in Self.batches(ordered) {
            guard let envelope = EventCoding.envelope(batch) else { continue }
            history.apply(try batch.map(EventCoding.domainEvent), envelope)
        }
        return (history, ordered)
    }

    /// A creation's events, appends sorted by `HistoryOrder` and events renumbered 1, 2, ...
    /// in that order. One machine's own appends are in that order already (each is stamped
    /// after the last), so only appends that came by sync move, and only on machines that
    /// had edits of their own meanwhile. An append never goes before the edit it was made on
    /// (or, for undo, redo and checkout, the edit it moves to): appends stored before stamping,
    /// across a clock set back, keep the order they were made in.
    static func inHistoryOrder(_ stored: [StoredEvent]) -> [StoredEvent] {
        let batches = Self.batches(stored)
        let envelopes = batches.map { EventCoding.envelope($0) }
        let sorted = batches.indices.sorted { x, y in
            guard let a = envelopes[x]?.order, let b = envelopes[y]?.order, a != b else { return x < y }
            return a < b
        }
        guard sorted != Array(batches.indices) else { return stored }
        var index = [UUID: Int]()
        for (position, envelope) in envelopes.enumerated() { if let envelope { index[envelope.id] = position } }
        func dependency(_ position: Int) -> Int? {
            let batch = batches[position]
            if batch.count == 1, let first = batch.first, case .headMoved(let move)? = try? EventCoding.domainEvent(first) {
                return index[move.to]
            }
            return envelopes[position]?.parent.flatMap { index[$0] }
        }
        var emitted = [Bool](repeating: false, count: batches.count), waiting = [Int: [Int]](), chosen = [Int]()
        func emit(_ position: Int) {
            emitted[position] = true
            chosen.append(position)
            for next in waiting.removeValue(forKey: position) ?? [] { emit(next) }
        }
        for position in sorted {
            if let before = dependency(position), !emitted[before] { waiting[before, default: []].append(position) } else { emit(position) }
        }
        for position in sorted where !emitted[position] { emit(position) }  // (never: dependencies point backwards in time)
        guard chosen != Array(batches.indices) else { return stored }
        var ordered = [StoredEvent]()
        ordered.reserveCapacity(stored.count)
        for position in chosen {
            for var event in batches[position] {
                event.version = UInt64(ordered.count + 1)
                ordered.append(event)
            }
        }
        return ordered
    }

    /// The creation's events, oldest first, each described for people.
    public func events(of name: String) throws -> [HistoryEntry] {
        let (history, events, _) = try load(name)
        return try events.map { try HistoryEntry($0, try EventCoding.domainEvent($0), in: history) }
    }

    // MARK: Editing

    /// Makes a creation from an image file: the name, the image blob and both events in one
    /// transaction.
    @discardableResult
    public func create(name: String, imageAt path: String) throws -> Creation {
        let (data, image, _) = try readImage(at: path)
        return try start(name, with: .importBaseImage(image), blobs: [data])
    }

    /// Makes a creation on a blank canvas.
    @discardableResult
    public func create(name: String, canvasWidth: Int, height: Int, background: Color) throws -> Creation {
        try start(name, with: .createCanvas(width: canvasWidth, height: height, background: background, maxPixels: compositor.decoder.maxPixels))
    }

    /// Appends a new creation's name and canvas in one batch: the first node of its history,
    /// which undo keeps.
    /// The gallery is not read: the name's claim, taken in the same transaction, is what
    /// keeps names unique, so the 10,000th creation costs what the first did.
    func start(_ name: String, with canvas: CreationCommand, blobs: [Data] = [], blobRefs: [String] = []) throws -> Creation {
        var creation = Creation(id: UUID())
        var events = try creation.decide(.create(name: name))
        creation = creation.evolve(events)
        let made = try creation.decide(canvas)
        creation = creation.evolve(made)
        events += made
        do {
            // The creation's first edit and its gallery membership land together, each the
            // first event of its own stream: no other creation's stream is read or waited on.
            let joined = try Membership(creation: creation.id).decide(.add(name: name, rank: GalleryRank.added(at: Self.nowMilliseconds)))
            try writing { _ in
                try store.append([
                    EventStore.StreamWrite(stream: creation.id, expectedVersion: 0, events: try EventCoding.newEvents(events, madeOn: nil)),
                    EventStore.StreamWrite(stream: Self.membershipStream(of: creation.id), expectedVersion: 0,
                                           events: try joined.map(Self.newEvent)),
                ], blobs: blobs, blobRefs: blobRefs, claim: [Self.nameClaim(name)])
            }
            return creation
        } catch StoreError.claimTaken {
            throw try nameTaken(name)
        }
    }

    /// Why a name's claim was taken: by a creation in the gallery, or by one in the trash.
    func nameTaken(_ name: String) throws -> DomainError {
        (try? entry(named: name))?.trashed == true ? .nameTakenInTrash(name) : .nameTaken(name)
    }

    /// The one write path of every stream — creations, gallery, garage, templates: read the
    /// state, decide, append with the version decided against (`attempt`, given the try
    /// number from 1), and when another process appended meanwhile, read and decide again.
    /// Writers in this process take turns, so reads never wait for them and a retry means
    /// another process.
    @discardableResult
    func writing<T>(_ attempt: (Int) throws -> T) throws -> T {
        writeLock.lock()
        defer { writeLock.unlock() }
        var tries = 0
        let start = ContinuousClock.now
        var random = SystemRandomNumberGenerator()
        while true {
            tries += 1
            do {
                return try attempt(tries)
            } catch StoreError.conflict {
                // Another process appended between this one's read and its append: decide
                // again on the newer state. A writer streaming edits (`memery apply`) can win
                // many times running, so each retry waits a random while that grows (up to
                // 20 ms), which lets it through between that writer's appends.
                guard ContinuousClock.now - start < Self.conflictPatience else {
                    throw MemeryError(.busy, "another writer kept changing the same creation for \(Self.conflictPatience) and this edit could not get in; nothing was stored: try again")
                }
                let ceiling = min(20_000, 250 << min(tries, 7))
                usleep(UInt32.random(in: 0...UInt32(ceiling), using: &random))
            }
        }
    }

    /// Reads and decodes an image file: its bytes, what it is, and its pixels.
    func readImage(at path: String) throws -> (data: Data, image: BaseImage, raster: Raster) {
        try decodeImage(try readImageFile(at: path), source: path)
    }

    /// Decodes a picture's bytes in a helper with memory and time limits: they come from
    /// outside. Errors name `source` as the person named the picture (a path, an upload).
    func decodeImage(_ data: Data, source: String, origin: PictureOrigin? = nil) throws -> (data: Data, image: BaseImage, raster: Raster) {
        try compositor.decoder.checkFileSize(data.count, source: source)
        let (kept, raster, info) = try IsolatedDecoder(decoder: compositor.decoder).decodeForKeeping(data, source: source)
        var image = Self.baseImage(info, of: kept, hash: BlobHash.of(kept), path: source)
        image.origin = origin
        return (kept, image, raster)
    }

    /// An image file's bytes, once it is known to be a file within the size limit.
    func readImageFile(at path: String) throws -> Data {
        if let problem = Self.problem(withImageFile: path) { throw RenderError.unreadable(path: path.isEmpty ? "\"\"" : path, reason: problem) }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int {
            try compositor.decoder.checkFileSize(size, source: path)
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RenderError.unreadable(path: path, reason: Self.reason(error))
        }
    }

    static func baseImage(_ info: ImageInfo, of data: Data, hash: String, path: String) -> BaseImage {
        BaseImage(blob: hash, width: info.width, height: info.height, format: info.format, sourceName: URL(fileURLWithPath: path).lastPathComponent)
    }

    /// Decides `command` against the creation named `name` and appends what it causes.
    /// Returns the new state and the events stored (none when nothing changed).
    @discardableResult
    public func edit(_ name: String, _ command: CreationCommand, blobs: [Data] = [], blobRefs: [String] = []) throws -> (creation: Creation, events: [RecordedEvent]) {
        let session = try session(name)
        let stored = try session.edit(command, blobs: blobs, blobRefs: blobRefs)
        return (session.state, stored)
    }

    /// Decides with `decide` against the creation's whole history and appends what it
    /// returns as one batch; on a conflict with another process, decides again.
    @discardableResult
    public func change(_ name: String, _ decide: (CreationHistory) throws -> [CreationEvent]) throws -> (history: CreationHistory, events: [RecordedEvent]) {
        let session = try session(name)
        let stored = try session.changeHistory(decide)
        return (try session.history(), stored)
    }

    /// Holds a creation open for a series of edits.
    public func session(_ name: String) throws -> CreationSession {
        try CreationSession(workspace: self, name: name)
    }

    /// The creation's head for editing: refused while it is in the trash.
    func headForEditing(_ name: String) throws -> CreationHead {
        let (head, entry) = try openHead(name)
        guard !entry.trashed else { throw DomainError.inTrash(name) }
        return head
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

    /// Sets or replaces the captions ("" removes one).
    @discardableResult
    public func setCaptions(_ name: String, top: String?, bottom: String?, style: TextStyleChanges = TextStyleChanges()) throws -> Creation {
        try edit(name, .setCaptions(top: top, bottom: bottom, style: style)).creation
    }

    /// Adds a free text box; returns its layer id.
    public func addText(_ name: String, _ text: String, box: Box? = nil, style: TextStyleChanges = .init()) throws -> String {
        let (creation, _) = try edit(name, .addText(role: .free, text: text, box: box, style: style))
        return creation.textLayers.last?.id ?? ""
    }

    /// Adds a sticker or photo from a file (stored with the edit); returns its layer id.
    public func addImage(_ name: String, imageAt path: String, at: Point? = nil, scale: Double = 1, rotation: Double = 0,
                         opacity: Double = 1, flip: FlipAxis? = nil) throws -> String {
        try session(name).addImage(imageAt: path, at: at, scale: scale, rotation: rotation, opacity: opacity, flip: flip)
    }

    /// The topmost layer at a canvas point, or nil.
    public func layer(_ name: String, at point: Point) throws -> Layer? {
        try creation(named: name).topmostLayer(at: point)
    }

    // MARK: Pictures

    func render(_ name: String, skipMissingFilters: Bool = false) throws -> Raster {
        try render(try creation(named: name), skipMissingFilters: skipMissingFilters)
    }

    /// The creation's picture; an animated one's first frame.
    func render(_ creation: Creation, skipMissingFilters: Bool = false) throws -> Raster {
        try compositor.render(creation, skipMissingFilters: skipMissingFilters, blob: storedBlob)
    }

    /// The creation's picture, encoded: at its own size, or scaled down to `width` pixels wide.
    /// An animated creation in GIF or WebP keeps every frame; in PNG or JPEG, its first.
    public func picture(of name: String, width: Int? = nil, format: ExportFormat,
                        quality: Int = ExportFormat.defaultQuality, skipMissingFilters: Bool = false) throws -> Picture {
        try picture(of: try creation(named: name), width: width, format: format, quality: quality, skipMissingFilters: skipMissingFilters)
    }

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

    /// Keeps up to `bytes` of decoded pictures between renders, for a long-lived process
    /// (`memery serve`): an edit's new preview does not decode its photo again. 0, the
    /// default, keeps nothing, so a one-shot command's peak memory is what it was.
    public func keepDecodedImages(upTo bytes: Int) {
        compositor.cache.setBudget(bytes)
    }

    /// What the decoded-picture cache holds and how often it served.
    var decodedImageStatistics: DecodedImageCache.Statistics { compositor.cache.statistics }

    /// How many frames the creation's base image holds: more than 1 when it is animated.
    public func frameCount(of creation: Creation) throws -> Int {
        try compositor.frameCount(creation, blob: storedBlob)
    }

    /// The bytes kept under a hash; a missing blob is damage to the store.
    func storedBlob(_ hash: String) throws -> Data {
        guard let data = try store.blob(hash) else { throw StoreError.missingBlob(hash: hash) }
        return data
    }

    /// Renders and writes the creation; the file is replaced whole or not at all.
    @discardableResult
    public func export(_ name: String, to path: String, width: Int? = nil, format: ExportFormat, quality: Int = ExportFormat.defaultQuality,
                       skipMissingFilters: Bool = false) throws -> Picture {
        let picture = try picture(of: name, width: width, format: format, quality: quality, skipMissingFilters: skipMissingFilters)
        try AtomicFile.write(picture.data, to: URL(fileURLWithPath: path))
        return picture
    }

    /// From a picture to a meme in one step: keeps the creation (named after the file, made
    /// unique) and writes the picture. Returns the creation's name and what was written.
    @discardableResult
    public func quick(imageAt path: String, top: String?, bottom: String?, style: TextStyleChanges = TextStyleChanges(),
                      output: String, format: ExportFormat, quality: Int = ExportFormat.defaultQuality) throws -> (name: String, picture: Picture) {
        // Nothing is kept of a quick meme that could not be written: the folder is checked
        // before anything is stored, and the creation purged if the write fails after.
        try Self.checkWritable(output)
        let (name, picture) = try quick(imageAt: path, top: top, bottom: bottom, style: style, format: format, quality: quality)
        do {
            try AtomicFile.write(picture.data, to: URL(fileURLWithPath: output))
        } catch {
            _ = try? purge(name)
            throw error
        }
        return (name, picture)
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

    /// `quick` without writing a file: the creation's name and its picture, encoded.
    ///
    /// Two cores share the work. A JPEG made into a JPEG is written while it is decoded (in
    /// the helper): rows are encoded as they come, each caption drawn once the rows under it
    /// are there (`StreamedJPEG`). Once the picture is decoded, the creation and its captions
    /// are stored on one core while the other finishes the meme from the same edits decided
    /// in memory. Nothing is returned before both are done, so what is written is as durable
    /// as before.
    public func quick(imageAt path: String, top: String?, bottom: String?, style: TextStyleChanges = TextStyleChanges(),
                      format: ExportFormat, quality: Int = ExportFormat.defaultQuality) throws -> (name: String, picture: Picture) {
        guard ExportFormat.qualityRange.contains(quality) else { throw RenderError.qualityOutOfRange(quality) }
        let hasCaptions = !(top ?? "").isEmpty || !(bottom ?? "").isEmpty
        let captions = try resolvingFonts(in: .setCaptions(top: top, bottom: bottom, style: style))  // before anything is stored
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.trimmingCharacters(in: .whitespacesAndNewlines)
        let base = Gallery.problem(withName: stem) == nil ? stem : "meme"
        let read = try readImageFile(at: path)
        // A drawing (SVG) is kept as the picture the helper draws of it.
        let data = IsolatedDecoder.isDrawing(read) ? try IsolatedDecoder(decoder: compositor.decoder).decodeForKeeping(read, source: path).data : read
        let hash = BlobHash.of(data)
        func edits(_ info: ImageInfo) -> [CreationCommand] {
            [.importBaseImage(Self.baseImage(info, of: data, hash: hash, path: path))] + (hasCaptions ? [captions] : [])
        }
        func planned(_ info: ImageInfo) throws -> Creation {
            var creation = Creation(id: UUID())
            for command in [.create(name: base)] + edits(info) { creation = creation.evolve(try creation.decide(command)) }
            return creation
        }

        // Unsafe, earned: written by the one storing task, read only after `storing.wait()`.
        nonisolated(unsafe) var stored: Result<String, Error> = .failure(DomainError.noCanvas)
        let storing = DispatchGroup()
        func store(_ info: ImageInfo) {  // on the other core
            let commands = edits(info)
            DispatchQueue.global().async(group: storing) { stored = Result { try self.store(named: base, commands, blobs: [data]) } }
        }
        let isolated = IsolatedDecoder(decoder: compositor.decoder)
        let picture = Result { () throws -> Picture? in
            let decoded: (raster: Raster, info: ImageInfo)
            if format == .jpeg, let size = IsolatedDecoder.sizeKnownBeforeDecoding(data),
               let streamer = try StreamedJPEG(try planned(ImageInfo(format: "jpeg", width: size.width, height: size.height)),
                                               width: size.width, height: size.height, quality: quality, compositor: compositor) {
                let result = try isolated.decode(data, source: path, expecting: size.width, size.height, streamingTo: streamer, whenDecoded: store)
                if result.streamed { return Picture(data: try streamer.finish(), format: format, frames: 1, framesInCreation: 1) }
                decoded = (result.raster, result.info)
            } else {
                decoded = try isolated.decode(data, source: path)
                store(decoded.info)
            }
            let creation = try planned(decoded.info)
            guard try compositor.frameCount(creation, blob: { _ in data }) == 1 else { return nil }  // an animation: drawn from the store
            let drawn = try compositor.compose(creation, drawingOn: decoded.raster)
            return Picture(data: try ImageEncoder.encode(drawn, as: format, quality: quality), format: format, frames: 1, framesInCreation: 1)
        }
        storing.wait()
        let finished = try picture.get()  // a picture that could not be decoded: nothing was stored
        let name = try stored.get()
        if let finished { return (name, finished) }
        return (name, try self.picture(of: try creation(named: name), format: format, quality: quality))
    }

    /// Stores a new creation named after `base` (made unique) and its first edits; returns
    /// its name.
    private func store(named base: String, _ edits: [CreationCommand], blobs: [Data]) throws -> String {
        var name = try uniqueName(from: base)
        while true {
            do {
                _ = try start(name, with: edits[0], blobs: blobs)
                break
            } catch DomainError.nameTaken, DomainError.nameTakenInTrash {
                name = try uniqueName(from: base)  // lost a race for the name
            }
        }
        for command in edits.dropFirst() { _ = try edit(name, command) }
        return name
    }

    public func verify() throws -> StoreCheck {
        let report = try store.verify()
        guard !report.isClean else { return StoreCheck(report) { _ in nil } }
        // A damaged creation's name is in its membership stream, apart from its history.
        return StoreCheck(report) { stream in
            WellKnownStreams.name(of: stream) ?? (try? self.loadMembership(stream))?.state.entry?.name
        }
    }

    /// Why a path cannot be read as a picture, before reading it: a directory, a device or
    /// a FIFO would otherwise give Foundation's jargon, or block, or never end.
    static func problem(withImageFile path: String) -> String? {
        if path.isEmpty { return "an empty path names no file" }
        var info = stat()
        guard stat(path, &info) == 0 else {
            switch errno {
            case ENOENT: return "no such file"
            case EACCES: return "permission denied"
            default: return String(cString: strerror(errno))
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "it is a directory, not an image file"
        default: return "it is not a regular file"
        }
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
