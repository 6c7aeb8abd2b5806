public import Foundation
import MemeryCore
import MemeryStore

/// What a pull's page did to the store.
public struct IncomingResult: Sendable {
    /// Events stored now; and those the store had (its own coming back, or sent twice).
    public var stored = 0
    public var skipped = 0
    /// The local sequences the page's events were stored at (not to be pushed back).
    public var sequences: [UInt64] = []
    /// Creations whose history the page changed (made, edited, moved), by id.
    public var creations: Set<UUID> = []
    /// Names given a suffix because two machines used them for different creations.
    public var renamed: [(from: String, to: String)] = []
    /// Creations purged here because another machine purged them: their names, and how
    /// many edits each had here.
    public var purged: [(name: String, edits: Int)] = []
    /// Appends another machine made to creations purged here: not stored.
    public var dropped = 0
    /// Names given here that lost to a later rename made on another machine.
    public var lostRenames: [(mine: String, kept: String)] = []
    /// Creations (by name) that got edits beside edits this store has: both lines are kept
    /// as branches of the history.
    public var branched: [String] = []
}

/// The store's side of a pull: events from the hub stored as their writers made them, and
/// what two machines may have done at once settled (a name two creations took, a creation
/// one machine purged while another edited it, edits side by side made branches).
extension StoreSync {
    /// Stores a page of events from the hub, in one transaction: each append as its writer
    /// made it, with the pictures `picture` gives (those the store lacks). Events already
    /// here are skipped. Then settles what two machines may have done at once: a name two
    /// creations took gets a suffix on the later one; a creation another machine purged is
    /// purged here.
    /// `fromHub` says which of the store's own sequences came from the hub before: an edit
    /// beside one of those is not "edited here".
    public func incoming(_ events: [SyncEvent], fromHub: (UInt64) -> Bool = { _ in false }, picture: (String) throws -> Data) throws -> IncomingResult {
        var result = IncomingResult()
        try turns.take { _ in
            var appends = [ImportedAppend]()
            var names = [UUID: String]()  // creations' names as the page goes
            // A creation purged here stays purged: what another machine made to it meanwhile
            // (offline) is dropped, never stored beside its tombstones.
            let purgedHere = try purgedStreams()
            var purges = [UUID](), named = [UUID]()
            // Every name a creation had or is given in the page, and its name before it.
            var touched = [UUID: Set<String>](), before = [UUID: String]()
            let lastBefore = try store.lastSequence()
            var index = events.startIndex
            while index < events.endIndex {
                var end = index
                while end < events.endIndex, events[end].batch == events[index].batch { end += 1 }
                let whole = events[index..<end]
                index = end
                let batch = whole.filter { !purgedHere.contains($0.stream) }
                if batch.count < whole.count { result.dropped += 1 }
                guard !batch.isEmpty else { continue }
                var writes = [EventStore.StreamWrite]()
                for event in batch {
                    let new = NewEvent(id: event.id, parent: event.parent, type: event.type, schemaVersion: event.schemaVersion, payload: Data(event.payload.utf8))
                    if let last = writes.indices.last, writes[last].stream == event.stream {
                        writes[last].events.append(new)
                    } else {
                        writes.append(.init(stream: event.stream, expectedVersion: nil, events: [new]))
                    }
                }
                var owner = batch.first!.stream, claims = [String](), release = [String]()
                for event in batch where GalleryEvent.types.contains(event.type) {
                    let gallery = try GalleryEvent.decode(type: event.type, schemaVersion: event.schemaVersion, payload: Data(event.payload.utf8))
                    switch gallery {
                    case .added(let entry):
                        owner = entry.id
                        named.append(entry.id)
                        claims.append(GalleryIndex.nameClaim(entry.name))
                        names[entry.id] = entry.name
                        touched[entry.id, default: []].insert(entry.name)
                    case .renamed(let id, let name):
                        owner = id
                        named.append(id)
                        if let old = try names[id] ?? galleryIndex.entry(id: id)?.name {
                            release.append(GalleryIndex.nameClaim(old))
                            touched[id, default: []].insert(old)
                            if before[id] == nil && names[id] == nil { before[id] = old }
                        }
                        claims.append(GalleryIndex.nameClaim(name))
                        names[id] = name
                        touched[id, default: []].insert(name)
                    case .purged(let id):
                        purges.append(id)
                    default: break
                    }
                }
                var blobs = [Data](), refs = [String]()
                for hash in Set(batch.flatMap(\.blobs)).sorted() {
                    if try store.blob(hash) != nil { refs.append(hash) } else { blobs.append(try picture(hash)) }
                }
                let time = Date(timeIntervalSince1970: Double(batch.first!.time) / 1000)
                appends.append(ImportedAppend(writes: writes, time: time, blobs: blobs, blobRefs: refs, owner: owner,
                                              claimIfFree: claims, release: release.filter { !claims.contains($0) }))
            }
            // Only a creation this store already had can get a branch beside its own edits:
            // a first sync of thousands of creations loads no history for the note.
            var known = Set<UUID>()
            for stream in Set(events.filter { Self.isCreationEvent($0.type) }.map(\.stream)) where try store.version(of: stream) > 0 {
                known.insert(stream)
            }
            let report = try store.importAppends(appends)
            result.stored = report.stored.count
            result.skipped = report.skipped
            result.sequences = report.stored.map(\.sequence)
            result.creations = Set(report.stored.filter { Self.isCreationEvent($0.type) }.map(\.stream))
            // Every creation the page names gets its name's claim, or a suffix when another
            // holds it; checked even for a page stored before (a sync killed between storing
            // and settling settles when the page comes again).
            var settled = Set<UUID>()
            for id in named where settled.insert(id).inserted {
                guard let entry = try galleryIndex.membership(id).entry else { continue }
                // Of two renames the later wins on every machine (Membership folds by stamp):
                // the names this creation does not have after all are let go.
                for name in touched[id] ?? [] where GalleryIndex.nameClaim(name) != GalleryIndex.nameClaim(entry.name) {
                    try store.releaseClaim(GalleryIndex.nameClaim(name), heldBy: id)
                }
                result.renamed += try settleName(GalleryIndex.nameClaim(entry.name), wanted: id)
                if let was = before[id], was != entry.name, try renamedHere(id, to: was, through: lastBefore, fromHub: fromHub) {
                    result.lostRenames.append((was, entry.name))
                }
            }
            // An edit that came in beside one this store has (the same parent, or a parent
            // this store had moved on from) makes a branch: say so.
            for id in result.creations where known.contains(id) {
                let imported = Set(report.stored.filter { $0.stream == id }.map(\.id))
                let (history, stored) = try creations.loadHistory(id)
                let sequences = Dictionary(stored.map { ($0.id, $0.sequence) }, uniquingKeysWith: { first, _ in first })
                // A sibling this store wrote itself: not one pulled now or in an earlier sync.
                let forked = history.nodes.contains { node in
                    guard imported.contains(node.id), let parent = node.parent else { return false }
                    return history.nodes[parent].children.contains { child in
                        let edit = history.nodes[child].id
                        guard !imported.contains(edit), let sequence = sequences[edit] else { return false }
                        return !fromHub(sequence)
                    }
                }
                if forked, let name = try galleryIndex.entry(id: id)?.name { result.branched.append(name) }
            }
            for id in purges {
                guard let entry = try galleryIndex.entry(id: id) else { continue }
                let edits = Set(try store.events(in: id).map(\.batch)).count
                try store.purge([id, GalleryIndex.membershipStream(of: id)])
                result.purged.append((entry.name, edits))
            }
        }
        return result
    }

    /// True when this store's own rename (not one pulled) gave creation `id` the name `name`.
    private func renamedHere(_ id: UUID, to name: String, through sequence: UInt64, fromHub: (UInt64) -> Bool) throws -> Bool {
        let renames = try store.events(in: GalleryIndex.membershipStream(of: id)).filter { $0.type == "CreationRenamed" && $0.sequence <= sequence }
        guard let last = renames.last(where: { event in
            if case .renamed(_, let given)? = try? EventCoding.galleryEvent(event) { return given == name }
            return false
        }) else { return false }
        return !fromHub(last.sequence)
    }

    /// Two creations want one name: the one that joined the gallery later gets the first
    /// free suffix (`cat-2`), so both machines end with the same names.
    private func settleName(_ claim: String, wanted: UUID) throws -> [(from: String, to: String)] {
        guard let holder = try store.owner(ofClaim: claim), holder != wanted,
              let held = try galleryIndex.membership(holder).entry, let arriving = try galleryIndex.membership(wanted).entry,
              GalleryIndex.nameClaim(arriving.name) == claim else {
            _ = try store.takeClaim(claim, for: wanted)
            return []
        }
        func joined(_ id: UUID) throws -> (Int64, String) {
            let first = try store.events(in: GalleryIndex.membershipStream(of: id)).first
            return (first?.timeMilliseconds ?? 0, (first?.id ?? id).uuidString)
        }
        let later = try joined(wanted) > joined(holder) ? (wanted, arriving.name) : (holder, held.name)
        let name = try galleryIndex.uniqueName(from: later.1)
        if later.0 == wanted {
            try galleryIndex.change(wanted, .rename(name), claim: [GalleryIndex.nameClaim(name)])
        } else {
            try galleryIndex.change(holder, .rename(name), claim: [GalleryIndex.nameClaim(name)], release: [claim])
            _ = try store.takeClaim(claim, for: wanted)
        }
        return [(later.1, name)]
    }

    /// The streams of every creation this store purged (or took a purge of): the gallery
    /// stream keeps each purge's note.
    public func purgedStreams() throws -> Set<UUID> {
        var streams = Set<UUID>()
        for event in try store.events(in: WellKnownStreams.gallery) where event.type == "CreationPurged" {
            if case .purged(let id) = try? GalleryEvent.decode(type: event.type, schemaVersion: event.schemaVersion, payload: event.payload) {
                streams.formUnion([id, GalleryIndex.membershipStream(of: id)])
            }
        }
        return streams
    }
}
