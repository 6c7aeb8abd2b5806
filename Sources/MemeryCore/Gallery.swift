import Foundation

/// Everything that happens to the gallery: the list of creations, their names, the trash,
/// favourites and the order a person gave them. These events live in the gallery's own
/// stream, apart from each creation's history, so undo never renames or deletes.
public enum GalleryEvent: Sendable, Equatable {
    case added(Entry)
    case renamed(id: UUID, name: String)
    case trashed(id: UUID)
    case restored(id: UUID)
    case purged(id: UUID)
    case favorite(id: UUID, favorite: Bool)
    /// The creation's new place among all entries (trashed ones included), 0 first.
    case reordered(id: UUID, index: Int)

    public struct Entry: Sendable, Equatable, Codable {
        public var id: UUID
        public var name: String
        public var favorite = false
        public var trashed = false
        public init(id: UUID, name: String) { self.id = id; self.name = name }
    }

    /// The creation the event is about.
    public var id: UUID {
        switch self {
        case .added(let entry): entry.id
        case .renamed(let id, _), .trashed(let id), .restored(let id), .purged(let id), .favorite(let id, _), .reordered(let id, _): id
        }
    }

    public var type: String {
        switch self {
        case .added: "GalleryEntryAdded"
        case .renamed: "CreationRenamed"
        case .trashed: "CreationTrashed"
        case .restored: "CreationRestored"
        case .purged: "CreationPurged"
        case .favorite: "FavoriteChanged"
        case .reordered: "GalleryReordered"
        }
    }

    public static let types: Set<String> = ["GalleryEntryAdded", "CreationRenamed", "CreationTrashed", "CreationRestored",
                                            "CreationPurged", "FavoriteChanged", "GalleryReordered"]
    public var schemaVersion: Int { 1 }

    private struct Payload: Codable {
        var id: UUID
        var name: String?
        var favorite: Bool?
        var index: Int?
    }

    public func encodedPayload() throws -> Data {
        let encoder = SortedJSONEncoder()
        switch self {
        case .added(let e): return try encoder.encode(Payload(id: e.id, name: e.name))
        case let .renamed(id, name): return try encoder.encode(Payload(id: id, name: name))
        case .trashed(let id), .restored(let id), .purged(let id): return try encoder.encode(Payload(id: id))
        case let .favorite(id, favorite): return try encoder.encode(Payload(id: id, favorite: favorite))
        case let .reordered(id, index): return try encoder.encode(Payload(id: id, index: index))
        }
    }

    public static func decode(type: String, schemaVersion: Int, payload: Data) throws -> GalleryEvent {
        guard types.contains(type) else { throw EventDecodingError.unknownType(type) }
        guard schemaVersion == 1 else { throw EventDecodingError.unsupportedVersion(type: type, version: schemaVersion, newest: 1) }
        let p: Payload
        do { p = try PayloadJSONDecoder().decode(Payload.self, from: payload) } catch {
            throw EventDecodingError.malformed(type: type, detail: String(describing: error))
        }
        func need<T>(_ value: T?) throws -> T {
            guard let value else { throw EventDecodingError.malformed(type: type, detail: "a field is missing") }
            return value
        }
        switch type {
        case "GalleryEntryAdded": return .added(Entry(id: p.id, name: try need(p.name)))
        case "CreationRenamed": return .renamed(id: p.id, name: try need(p.name))
        case "CreationTrashed": return .trashed(id: p.id)
        case "CreationRestored": return .restored(id: p.id)
        case "CreationPurged": return .purged(id: p.id)
        case "FavoriteChanged": return .favorite(id: p.id, favorite: try need(p.favorite))
        default: return .reordered(id: p.id, index: try need(p.index))
        }
    }
}

/// The gallery: the creations in the order a person keeps them, the trash, the favourites,
/// and a browsing position (current, next, previous, random, at an index).
public struct Gallery: Sendable, Equatable {
    public typealias Entry = GalleryEvent.Entry

    /// Every creation not purged, trashed ones included, in the person's order.
    public private(set) var all: [Entry] = []
    /// The browsing position in `entries`.
    public private(set) var currentIndex: Int?

    public init() {}

    public init(_ entries: [Entry]) {
        all = entries
        currentIndex = self.entries.isEmpty ? nil : 0
    }

    /// The creations shown: not in the trash.
    public var entries: [Entry] { all.filter { !$0.trashed } }
    public var trash: [Entry] { all.filter(\.trashed) }
    public var favourites: [Entry] { entries.filter(\.favorite) }
    public var count: Int { entries.count }

    // MARK: Browsing

    public var current: Entry? { currentIndex.flatMap { entries.indices.contains($0) ? entries[$0] : nil } }

    /// Moves to the next creation, wrapping from the last to the first.
    @discardableResult
    public mutating func next() -> Entry? { step(1) }

    /// Moves to the previous creation, wrapping from the first to the last.
    @discardableResult
    public mutating func previous() -> Entry? { step(-1) }

    private mutating func step(_ delta: Int) -> Entry? {
        let count = entries.count
        guard count > 0 else { currentIndex = nil; return nil }
        currentIndex = ((currentIndex ?? (delta > 0 ? -1 : count)) + delta + count) % count
        return current
    }

    /// Moves to a creation picked at random (another than the current one when there are two or more).
    @discardableResult
    public mutating func random<G: RandomNumberGenerator>(using generator: inout G) -> Entry? {
        let count = entries.count
        guard count > 0 else { currentIndex = nil; return nil }
        var pick = Int.random(in: 0..<count, using: &generator)
        if count > 1, pick == currentIndex { pick = (pick + 1 + Int.random(in: 0..<(count - 1), using: &generator)) % count }
        currentIndex = pick
        return current
    }

    @discardableResult
    public mutating func random() -> Entry? {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// The creation at a position among `entries`, 0 first.
    public func at(_ index: Int) throws -> Entry {
        guard entries.indices.contains(index) else { throw GalleryError.indexOutOfRange(index, count: entries.count) }
        return entries[index]
    }

    /// Puts a creation at a position among `entries` (0...count); the current one stays current.
    public mutating func insert(_ entry: Entry, at index: Int) throws {
        guard (0...entries.count).contains(index) else { throw GalleryError.insertOutOfRange(index, count: entries.count) }
        let keep = current?.id
        all.removeAll { $0.id == entry.id }
        let visible = entries
        let position = index < visible.count ? all.firstIndex { $0.id == visible[index].id } ?? all.count : all.count
        all.insert(entry, at: position)
        follow(keep)
    }

    /// Takes the creation at a position among `entries` out of the gallery.
    @discardableResult
    public mutating func remove(at index: Int) throws -> Entry {
        let entry = try at(index)
        let keep = current?.id
        all.removeAll { $0.id == entry.id }
        follow(keep == entry.id ? nil : keep, fallback: index)
        return entry
    }

    private mutating func follow(_ id: UUID?, fallback: Int? = nil) {
        let visible = entries
        if let id, let index = visible.firstIndex(where: { $0.id == id }) {
            currentIndex = index
        } else if visible.isEmpty {
            currentIndex = nil
        } else {
            currentIndex = min(fallback ?? 0, visible.count - 1)
        }
    }

    // MARK: Names

    /// Any entry, trashed or not: a trashed creation keeps its name until it is purged.
    public func entry(named name: String) -> Entry? {
        let key = Self.key(name)
        return all.first { Self.key($0.name) == key }
    }

    public func entry(id: UUID) -> Entry? { all.first { $0.id == id } }

    /// The form names are compared in: full Unicode case folding (`Straße` and `STRASSE`
    /// are one name, as are `ﬁle` and `FILE`), then canonical composition, so that an
    /// accent typed as one character or two is the same name too.
    public static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCanonicalMapping
    }

    /// The first of `base`, `base-2`, `base-3`, ... that no creation uses.
    public func uniqueName(from base: String) -> String {
        Self.uniqueName(from: base) { entry(named: $0) != nil }
    }

    /// The first of `base`, `base-2`, `base-3`, ... for which `taken` says no.
    public static func uniqueName(from base: String, taken: (String) throws -> Bool) rethrows -> String {
        if try !taken(base) { return base }
        var n = 2
        while try taken("\(base)-\(n)") { n += 1 }
        return "\(base)-\(n)"
    }

    public static let maxNameLength = 200

    /// Why a name cannot be used, or nil when it can.
    public static func problem(withName name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "a name needs at least one visible character" }
        if trimmed != name { return "it starts or ends with white space" }
        if name.count > maxNameLength { return "it is longer than \(maxNameLength) characters" }
        if name.hasPrefix("-") { return "it starts with '-', which reads as an option" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "it contains a control character"
        }
        return nil
    }

    // MARK: Deciding and evolving

    public func decideRename(_ id: UUID, to name: String) throws -> [GalleryEvent] {
        guard let entry = entry(id: id) else { throw DomainError.noSuchCreation(id.uuidString) }
        if let reason = Self.problem(withName: name) { throw DomainError.invalidName(name, reason: reason) }
        if let other = self.entry(named: name), other.id != id { throw DomainError.nameTaken(name) }
        return entry.name == name ? [] : [.renamed(id: id, name: name)]
    }

    public func decideTrash(_ id: UUID) throws -> [GalleryEvent] {
        guard let entry = entry(id: id) else { throw DomainError.noSuchCreation(id.uuidString) }
        guard !entry.trashed else { throw DomainError.alreadyTrashed(entry.name) }
        return [.trashed(id: id)]
    }

    public func decideRestore(_ id: UUID) throws -> [GalleryEvent] {
        guard let entry = entry(id: id) else { throw DomainError.noSuchCreation(id.uuidString) }
        guard entry.trashed else { throw DomainError.notTrashed(entry.name) }
        return [.restored(id: id)]
    }

    public func decideFavorite(_ id: UUID, _ favorite: Bool) throws -> [GalleryEvent] {
        guard let entry = entry(id: id) else { throw DomainError.noSuchCreation(id.uuidString) }
        return entry.favorite == favorite ? [] : [.favorite(id: id, favorite: favorite)]
    }

    /// Moves a shown creation to a position as `memery list` numbers them (1 first).
    public func decideMove(_ id: UUID, to position: Int) throws -> [GalleryEvent] {
        guard let entry = entry(id: id) else { throw DomainError.noSuchCreation(id.uuidString) }
        guard !entry.trashed else { throw DomainError.inTrash(entry.name) }
        let visible = entries
        guard let from = visible.firstIndex(where: { $0.id == id }) else { throw DomainError.noSuchCreation(entry.name) }
        guard (1...max(1, visible.count)).contains(position) else {
            throw DomainError.outOfRange(field: "position", value: Double(position), range: 1...Double(visible.count))
        }
        guard position - 1 != from else { return [] }
        // The index among all entries that puts it at that position among the shown ones.
        var rest = all.filter { $0.id != id }
        let target = visible.filter { $0.id != id }
        let anchor = position - 1 < target.count ? rest.firstIndex { $0.id == target[position - 1].id } ?? rest.count : rest.count
        rest.insert(visible[from], at: anchor)
        return [.reordered(id: id, index: anchor)]
    }

    public mutating func evolve(_ event: GalleryEvent) {
        let keep = current?.id
        switch event {
        case .added(let added):
            if entry(id: added.id) == nil { all.append(added) }
        case let .renamed(id, name):
            update(id) { $0.name = name }
        case .trashed(let id):
            update(id) { $0.trashed = true }
        case .restored(let id):
            update(id) { $0.trashed = false }
        case .purged(let id):
            all.removeAll { $0.id == id }
        case let .favorite(id, favorite):
            update(id) { $0.favorite = favorite }
        case let .reordered(id, index):
            if let from = all.firstIndex(where: { $0.id == id }) {
                let entry = all.remove(at: from)
                all.insert(entry, at: max(0, min(index, all.count)))
            }
        }
        follow(keep)
    }

    /// Folds events into a list of entries in one pass, for loading a gallery of any size:
    /// `evolve` keeps the browsing position after each event, which costs a pass over the
    /// entries per event. Gives the same entries as evolving one event at a time.
    public static func fold(_ entries: [Entry], _ events: [GalleryEvent]) -> [Entry] {
        var list: [Entry?] = entries
        var position = [UUID: Int](minimumCapacity: entries.count + events.count)
        for (index, entry) in entries.enumerated() { position[entry.id] = index }
        func update(_ id: UUID, _ change: (inout Entry) -> Void) {
            guard let index = position[id], var entry = list[index] else { return }
            change(&entry)
            list[index] = entry
        }
        for event in events {
            switch event {
            case .added(let added):
                if position[added.id] == nil { position[added.id] = list.count; list.append(added) }
            case let .renamed(id, name): update(id) { $0.name = name }
            case .trashed(let id): update(id) { $0.trashed = true }
            case .restored(let id): update(id) { $0.trashed = false }
            case let .favorite(id, favorite): update(id) { $0.favorite = favorite }
            case .purged(let id):
                if let index = position.removeValue(forKey: id) { list[index] = nil }
            case let .reordered(id, index):
                // Rare: compact, move, and number the entries again.
                var compact = list.compactMap { $0 }
                guard let from = compact.firstIndex(where: { $0.id == id }) else { continue }
                let entry = compact.remove(at: from)
                compact.insert(entry, at: max(0, min(index, compact.count)))
                list = compact
                position.removeAll(keepingCapacity: true)
                for (offset, entry) in compact.enumerated() { position[entry.id] = offset }
            }
        }
        return list.compactMap { $0 }
    }

    /// One creation's entry after `event`, for reading one entry without the whole gallery
    /// (nil: not in the gallery). Gives what `fold` gives for that creation.
    public static func evolve(_ entry: Entry?, of id: UUID, _ event: GalleryEvent) -> Entry? {
        guard event.id == id else { return entry }
        switch event {
        case .added(let added): return entry ?? added
        case .purged: return nil
        case .reordered: return entry
        case .renamed, .trashed, .restored, .favorite:
            return fold(entry.map { [$0] } ?? [], [event]).first
        }
    }

    /// The version of the gallery snapshots' format: the entries as JSON, and beside them
    /// one row per entry (its JSON) for reading one entry alone.
    public static let snapshotFormat = 2

    private mutating func update(_ id: UUID, _ change: (inout Entry) -> Void) {
        guard let index = all.firstIndex(where: { $0.id == id }) else { return }
        change(&all[index])
    }
}

/// A gallery position that is not there.
public enum GalleryError: Error, Equatable, CustomStringConvertible {
    case indexOutOfRange(Int, count: Int)
    case insertOutOfRange(Int, count: Int)

    public var description: String {
        switch self {
        case let .indexOutOfRange(index, count):
            return count == 0 ? "the gallery is empty: there is no creation \(index)"
                : "there is no creation at index \(index): the gallery has \(count) (0 to \(count - 1))"
        case let .insertOutOfRange(index, count):
            return "cannot insert at index \(index): use 0 to \(count)"
        }
    }
}
