import Foundation

/// Everything that happens to the gallery: the creations, their names, the trash,
/// favourites and the order a person gave them. Each creation's events live in a membership
/// stream of its own (see `Membership`), apart from its history, so undo never renames or
/// deletes, and creations made at once — in two processes, on two machines — never contend
/// for one stream. A purge is noted in the well-known gallery stream.
public enum GalleryEvent: Sendable, Equatable {
    case added(Entry)
    case renamed(id: UUID, name: String)
    case trashed(id: UUID)
    case restored(id: UUID)
    case purged(id: UUID)
    case favorite(id: UUID, favorite: Bool)
    /// The creation's new rank: where it sorts among all entries (`GalleryRank`).
    case placed(id: UUID, rank: String)

    public struct Entry: Sendable, Equatable, Codable {
        public var id: UUID
        public var name: String
        public var favorite = false
        public var trashed = false
        /// Where it sorts (`GalleryRank`); entries of one rank keep the order they arrived in.
        public var rank: String
        /// When each field was last set (folded from stored events): a change older than the
        /// one a field shows is ignored, so machines that got two changes in either order
        /// end alike. Nil for an entry not folded from the store.
        public var stamps: Stamps?
        public init(id: UUID, name: String, rank: String) { self.id = id; self.name = name; self.rank = rank }

        public struct Stamps: Sendable, Equatable, Codable {
            public var name: GalleryStamp
            public var trash: GalleryStamp
            public var favorite: GalleryStamp
            public var rank: GalleryStamp
            init(_ stamp: GalleryStamp) { name = stamp; trash = stamp; favorite = stamp; rank = stamp }
        }

        /// What a person sees: the stamps are how it came to be, not what it is.
        public static func == (a: Entry, b: Entry) -> Bool {
            a.id == b.id && a.name == b.name && a.favorite == b.favorite && a.trashed == b.trashed && a.rank == b.rank
        }

        /// Applies a change of one field when it is newer than the field's last (or when
        /// either has no stamp: a change just decided here is the newest); true when applied.
        @discardableResult
        mutating func change(_ field: WritableKeyPath<Stamps, GalleryStamp>, at stamp: GalleryStamp?, _ apply: (inout Entry) -> Void) -> Bool {
            if let stamp, let current = stamps?[keyPath: field] {
                guard current < stamp else { return false }
                stamps?[keyPath: field] = stamp
            }
            apply(&self)
            return true
        }

        /// Folds a change of this entry (not an add or a purge); true when it changed something.
        @discardableResult
        public mutating func apply(_ event: GalleryEvent, at stamp: GalleryStamp?) -> Bool {
            switch event {
            case .added, .purged: return false
            case .renamed(_, let name): return change(\.name, at: stamp) { $0.name = name }
            case .trashed: return change(\.trash, at: stamp) { $0.trashed = true }
            case .restored: return change(\.trash, at: stamp) { $0.trashed = false }
            case .favorite(_, let favorite): return change(\.favorite, at: stamp) { $0.favorite = favorite }
            case .placed(_, let rank): return change(\.rank, at: stamp) { $0.rank = rank }
            }
        }

        /// A new entry as an add makes it, stamped when folded from the store.
        static func added(_ entry: Entry, at stamp: GalleryStamp?) -> Entry {
            var entry = entry
            entry.stamps = stamp.map(Stamps.init)
            return entry
        }
    }

    /// The creation the event is about.
    public var id: UUID {
        switch self {
        case .added(let entry): entry.id
        case .renamed(let id, _), .trashed(let id), .restored(let id), .purged(let id), .favorite(let id, _), .placed(let id, _): id
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
        case .placed: "GalleryReordered"
        }
    }

    public static let types: Set<String> = ["GalleryEntryAdded", "CreationRenamed", "CreationTrashed", "CreationRestored",
                                            "CreationPurged", "FavoriteChanged", "GalleryReordered"]
    /// Version 1 of these two (store format 1) placed entries by index in one gallery stream;
    /// version 2 places each by its rank. Format 1 stores are converted when migrated
    /// (`FormatOne`), since an index means something only in the whole gallery.
    static let newest = ["GalleryEntryAdded": 2, "GalleryReordered": 2]
    public var schemaVersion: Int { Self.newest[type] ?? 1 }

    private struct Payload: Codable {
        var id: UUID
        var name: String?
        var favorite: Bool?
        var rank: String?
    }

    public func encodedPayload() throws -> Data {
        let encoder = SortedJSONEncoder()
        switch self {
        case .added(let e): return try encoder.encode(Payload(id: e.id, name: e.name, rank: e.rank))
        case let .renamed(id, name): return try encoder.encode(Payload(id: id, name: name))
        case .trashed(let id), .restored(let id), .purged(let id): return try encoder.encode(Payload(id: id))
        case let .favorite(id, favorite): return try encoder.encode(Payload(id: id, favorite: favorite))
        case let .placed(id, rank): return try encoder.encode(Payload(id: id, rank: rank))
        }
    }

    public static func decode(type: String, schemaVersion: Int, payload: Data) throws -> GalleryEvent {
        guard types.contains(type) else { throw EventDecodingError.unknownType(type) }
        let newest = Self.newest[type] ?? 1
        guard schemaVersion == newest else { throw EventDecodingError.unsupportedVersion(type: type, version: schemaVersion, newest: newest) }
        let p: Payload
        do { p = try PayloadJSONDecoder().decode(Payload.self, from: payload) } catch {
            throw EventDecodingError.malformed(type: type, detail: String(describing: error))
        }
        func need<T>(_ value: T?) throws -> T {
            guard let value else { throw EventDecodingError.malformed(type: type, detail: "a field is missing") }
            return value
        }
        func rank() throws -> String {
            let rank = try need(p.rank)
            guard GalleryRank.isValid(rank) else { throw EventDecodingError.malformed(type: type, detail: "rank \"\(rank.prefix(40))\" is not a rank") }
            return rank
        }
        switch type {
        case "GalleryEntryAdded": return .added(Entry(id: p.id, name: try need(p.name), rank: try rank()))
        case "CreationRenamed": return .renamed(id: p.id, name: try need(p.name))
        case "CreationTrashed": return .trashed(id: p.id)
        case "CreationRestored": return .restored(id: p.id)
        case "CreationPurged": return .purged(id: p.id)
        case "FavoriteChanged": return .favorite(id: p.id, favorite: try need(p.favorite))
        default: return .placed(id: p.id, rank: try rank())
        }
    }

    /// The gallery events of store format 1, for its migration: an entry added at the end of
    /// the one gallery stream, and a move to an index among all entries.
    public enum FormatOne: Sendable, Equatable {
        case added(id: UUID, name: String)
        case reordered(id: UUID, index: Int)
        case event(GalleryEvent)

        private struct Payload: Codable { var id: UUID; var name: String?; var index: Int? }

        public static func decode(type: String, schemaVersion: Int, payload: Data) throws -> FormatOne {
            guard schemaVersion == 1, type == "GalleryEntryAdded" || type == "GalleryReordered" else {
                return .event(try GalleryEvent.decode(type: type, schemaVersion: schemaVersion, payload: payload))
            }
            do {
                let p = try PayloadJSONDecoder().decode(Payload.self, from: payload)
                if type == "GalleryEntryAdded", let name = p.name { return .added(id: p.id, name: name) }
                if type == "GalleryReordered", let index = p.index, index >= 0 { return .reordered(id: p.id, index: index) }
                throw EventDecodingError.malformed(type: type, detail: "a field is missing")
            } catch let error as EventDecodingError { throw error } catch {
                throw EventDecodingError.malformed(type: type, detail: String(describing: error))
            }
        }
    }
}

/// The gallery: the creations in the order a person keeps them, the trash, the favourites,
/// and a browsing position (current, next, previous, random, at an index). A projection of
/// every creation's membership stream: entries sorted by rank, those of one rank in the
/// order they arrived.
public struct Gallery: Sendable, Equatable {
    public typealias Entry = GalleryEvent.Entry

    /// Every creation not purged, trashed ones included, in the person's order.
    public private(set) var all: [Entry] = []
    /// The browsing position in `entries`.
    public private(set) var currentIndex: Int?

    public init() {}

    /// A gallery of entries already in order (a fold's or a snapshot's).
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

    private mutating func follow(_ id: UUID?) {
        let visible = entries
        if let id, let index = visible.firstIndex(where: { $0.id == id }) {
            currentIndex = index
        } else {
            currentIndex = visible.isEmpty ? nil : min(currentIndex ?? 0, visible.count - 1)
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

    // MARK: Order

    /// The rank that puts a shown creation at a position as `memery list` numbers them (1
    /// first), between the shown creations that will be its neighbours; nil when it is there
    /// already. `now` places a move to the end before creations added later.
    public func rank(moving id: UUID, to position: Int, now milliseconds: Int64) throws -> String? {
        guard let entry = entry(id: id) else { throw DomainError.noSuchCreation(id.uuidString) }
        guard !entry.trashed else { throw DomainError.inTrash(entry.name) }
        let visible = entries
        guard let from = visible.firstIndex(where: { $0.id == id }) else { throw DomainError.noSuchCreation(entry.name) }
        guard (1...max(1, visible.count)).contains(position) else {
            throw DomainError.outOfRange(field: "position", value: Double(position), range: 1...Double(visible.count))
        }
        guard position - 1 != from else { return nil }
        let others = visible.filter { $0.id != id }
        let low = position >= 2 ? others[position - 2].rank : nil
        guard position - 1 < others.count else { return GalleryRank.end(after: low, now: milliseconds) }
        return GalleryRank.between(low, others[position - 1].rank)
    }

    // MARK: Evolving

    public mutating func evolve(_ event: GalleryEvent, at stamp: GalleryStamp? = nil) {
        let keep = current?.id
        switch event {
        case .added(let added):
            if entry(id: added.id) == nil { place(Entry.added(added, at: stamp)) }
        case .purged(let id):
            all.removeAll { $0.id == id }
        case .placed(let id, _):
            if let from = all.firstIndex(where: { $0.id == id }) {
                var entry = all[from]
                if entry.apply(event, at: stamp) {
                    all.remove(at: from)
                    place(entry)
                }
            }
        case .renamed(let id, _), .trashed(let id), .restored(let id), .favorite(let id, _):
            update(id) { $0.apply(event, at: stamp) }
        }
        follow(keep)
    }

    /// Inserts after every entry of a lower or equal rank: arrival order among equals.
    private mutating func place(_ entry: Entry) {
        if let last = all.last, last.rank > entry.rank {
            var low = 0, high = all.count
            while low < high {
                let middle = (low + high) / 2
                if all[middle].rank <= entry.rank { low = middle + 1 } else { high = middle }
            }
            all.insert(entry, at: low)
        } else {
            all.append(entry)
        }
    }

    /// Folds events into a list of entries in one pass, for loading a gallery of any size:
    /// `evolve` keeps the browsing position after each event, which costs a pass over the
    /// entries per event. Gives the same entries as evolving one event at a time.
    public static func fold(_ entries: [Entry], _ events: [GalleryEvent]) -> [Entry] {
        fold(entries, events.map { ($0, nil) })
    }

    /// The same, each event with its stamp (its append's time and id): an older change than
    /// a field shows is ignored, so the order events arrived in does not matter.
    public static func fold(_ entries: [Entry], _ events: [(GalleryEvent, GalleryStamp?)]) -> [Entry] {
        guard !events.isEmpty else { return entries }
        // Each entry with the moment it last took its place; sorted by rank, then that.
        var placed = [UUID: (entry: Entry, arrival: Int)](minimumCapacity: entries.count + events.count)
        for (index, entry) in entries.enumerated() { placed[entry.id] = (entry, index) }
        var arrival = entries.count
        func update(_ id: UUID, _ change: (inout Entry) -> Void) {
            guard var item = placed[id] else { return }
            change(&item.entry)
            placed[id] = item
        }
        for (event, stamp) in events {
            switch event {
            case .added(let added):
                if placed[added.id] == nil { placed[added.id] = (Entry.added(added, at: stamp), arrival); arrival += 1 }
            case .renamed(let id, _), .trashed(let id), .restored(let id), .favorite(let id, _):
                update(id) { $0.apply(event, at: stamp) }
            case .purged(let id): placed[id] = nil
            case .placed(let id, _):
                guard var item = placed[id], item.entry.apply(event, at: stamp) else { continue }
                item.arrival = arrival
                arrival += 1
                placed[id] = item
            }
        }
        return placed.values.sorted { ($0.entry.rank, $0.arrival) < ($1.entry.rank, $1.arrival) }.map(\.entry)
    }

    /// The version of the gallery snapshots' format: the entries as JSON, with their ranks,
    /// covering the log up to a global sequence.
    public static let snapshotFormat = 4  // 4: entries carry their fields' stamps

    private mutating func update(_ id: UUID, _ change: (inout Entry) -> Void) {
        guard let index = all.firstIndex(where: { $0.id == id }) else { return }
        change(&all[index])
    }
}

/// When a gallery change was made: its time (milliseconds since 1970), then its event's id
/// to break ties. Every machine orders two changes of one field alike, and the later wins.
public struct GalleryStamp: Sendable, Equatable, Codable, Comparable {
    public var time: Int64
    public var id: UUID
    public init(time: Int64, id: UUID) { self.time = time; self.id = id }

    public static func < (a: GalleryStamp, b: GalleryStamp) -> Bool {
        a.time != b.time ? a.time < b.time : a.id.uuidString < b.id.uuidString
    }
}

/// A gallery position that is not there.
public enum GalleryError: Error, Equatable, CustomStringConvertible {
    case indexOutOfRange(Int, count: Int)

    public var description: String {
        switch self {
        case let .indexOutOfRange(index, count):
            return count == 0 ? "the gallery is empty: there is no creation \(index)"
                : "there is no creation at index \(index): the gallery has \(count) (0 to \(count - 1))"
        }
    }
}
