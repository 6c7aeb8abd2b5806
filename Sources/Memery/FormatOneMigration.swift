public import Foundation
import MemeryCore
import MemeryStore

/// Store format 1 (Memery 0.1) to format 2: what the conversion changes, and its check.
///
/// - Every event gets an id, derived from its stream and version (`EventIdentity`).
/// - Every edit names the edit it was made on: in format 1 that was implied by the head when
///   it was appended, so the conversion follows each creation's head through the log.
/// - A move of the head (HeadMoved v1) named its target by stream version; v2 names it by
///   the target edit's id.
/// - The one gallery stream becomes a membership stream per creation; a place in the
///   gallery, an index among all entries, becomes a rank (`GalleryRank`) that gives the
///   same order. The note of a purge stays in the gallery stream.
/// - Names are compared with full Unicode case folding (`Straße` = `STRASSE`): where two
///   creations' names now collide, the later one is renamed (`STRASSE-2`) and the note says so.
/// Payloads otherwise stay as they were (older payload versions keep being upcast on read).
enum FormatOneMigration {
    static func run(_ old: EventStore, into new: EventStore) throws -> [String] {
        var heads = [UUID: UUID]()          // creation -> the edit at its head
        var edits = [UUID: [UInt64: UUID]]()  // creation -> version -> the edit holding it
        var openEdit = [UUID: (batch: UInt64, id: UUID, parent: UUID?)]()
        var made = [UUID: Int]()               // creation -> the order it joined the gallery in
        var gallery = Gallery()                 // as converted so far, for ranks
        var membershipVersions = [UUID: UInt64]()
        var purged = [UUID]()
        var creations = Set<UUID>()
        let oldClaims = try old.allClaims()
        var renames = [(id: UUID, from: String, to: String)]()

        try old.copyEvents(into: new, claims: {
            // Names: claimed again under the folded key, the creation made first keeping a name.
            var claims = oldClaims.filter { !$0.key.hasPrefix(GalleryIndex.nameClaimPrefix) }
            let entries = gallery.all.sorted { made[$0.id] ?? 0 < made[$1.id] ?? 0 }
            for entry in entries {
                var name = entry.name
                if let holder = claims[GalleryIndex.nameClaim(name)], holder != entry.id {
                    name = Gallery.uniqueName(from: name) { claims[GalleryIndex.nameClaim($0)] != nil }
                    renames.append((entry.id, entry.name, name))
                }
                claims[GalleryIndex.nameClaim(name)] = entry.id
            }
            return claims
        }) { event in
            var event = event
            if event.isPurged { return event }
            if event.stream == WellKnownStreams.gallery {
                let converted = try convert(event, in: gallery)
                if case .added(let entry) = converted, made[entry.id] == nil { made[entry.id] = made.count }
                gallery.evolve(converted)
                var stream = GalleryIndex.membershipStream(of: converted.id)
                if case .purged(let id) = converted {
                    purged.append(id)
                    stream = WellKnownStreams.gallery  // the note of a purge stays (renumbered)
                }
                membershipVersions[stream, default: 0] += 1
                event.stream = stream
                event.version = membershipVersions[stream]!
                event.type = converted.type
                event.schemaVersion = converted.schemaVersion
                event.payload = try converted.encodedPayload()
                return event
            }
            guard WellKnownStreams.name(of: event.stream) == nil else { return event }
            let stream = event.stream
            creations.insert(stream)
            if event.type == "HeadMoved" {
                let move = try CreationEvent.HeadMoved.FormatOne.decode(event.payload)
                // A move to a version that holds no edit changed nothing in 0.1; its target
                // stays one no edit has.
                let target = edits[stream]?[move.to] ?? EventIdentity.formatOneID(stream: stream, version: move.to)
                if edits[stream]?[move.to] != nil { heads[stream] = target }
                let moved = CreationEvent.headMoved(.init(to: target, cause: move.cause))
                event.payload = try moved.encodedPayload()
                event.schemaVersion = moved.schemaVersion
                event.parent = nil
                openEdit[stream] = nil
                return event
            }
            if openEdit[stream]?.batch != event.batch {
                openEdit[stream] = (event.batch, event.id, heads[stream])
                heads[stream] = event.id
            }
            let edit = openEdit[stream]!
            edits[stream, default: [:]][event.version] = edit.id
            event.parent = edit.parent
            return event
        }
        // A purged creation's membership goes too (its name was in it).
        if !purged.isEmpty { try new.purge(purged.map(GalleryIndex.membershipStream)) }
        for rename in renames {
            try new.append([EventStore.StreamWrite(stream: GalleryIndex.membershipStream(of: rename.id), expectedVersion: nil,
                                                   events: [try EventCoding.newEvent(GalleryEvent.renamed(id: rename.id, name: rename.to))])])
        }
        try check(new, creations: creations, heads: heads)
        return renames.map {
            "\"\($0.from)\" was renamed \"\($0.to)\" (another creation's name is the same when case is ignored)"
        }
    }

    /// A format-1 gallery event as format 2 has it: an entry added at the end gets a rank
    /// after every other (its time's, when the clock allows), a move to an index the rank
    /// between the entries it lands between.
    private static func convert(_ event: StoredEvent, in gallery: Gallery) throws -> GalleryEvent {
        let old: GalleryEvent.FormatOne
        do {
            old = try GalleryEvent.FormatOne.decode(type: event.type, schemaVersion: event.schemaVersion, payload: event.payload)
        } catch let error as EventDecodingError {
            throw StoreError.damaged(sequence: event.sequence, reason: error.description)
        }
        func last(_ entries: [Gallery.Entry]) -> String? { entries.last?.rank }
        func after(_ rank: String?) -> String {
            let stamp = GalleryRank.added(at: event.timeMilliseconds)
            return rank.map { $0 < stamp ? stamp : GalleryRank.between($0, nil) } ?? stamp
        }
        switch old {
        case .event(let converted): return converted
        case let .added(id, name): return .added(.init(id: id, name: name, rank: after(last(gallery.all))))
        case let .reordered(id, index):
            let others = gallery.all.filter { $0.id != id }
            let at = min(index, others.count)
            let low = at > 0 ? others[at - 1].rank : nil
            return .placed(id: id, rank: at < others.count ? GalleryRank.between(low, others[at].rank) : after(low))
        }
    }

    /// Every creation replays in the new store to the head it had in the old one.
    private static func check(_ new: EventStore, creations: Set<UUID>, heads: [UUID: UUID]) throws {
        for id in creations {
            let stored = try new.events(in: id)
            guard !stored.isEmpty else { continue }  // purged
            var history = CreationHistory(id: id)
            for batch in HistoryOrdering.batches(stored) {
                guard let envelope = EventCoding.envelope(batch) else { continue }
                history.apply(try batch.map(EventCoding.domainEvent), envelope)
            }
            let head = history.head.map { history.nodes[$0].id }
            guard head == heads[id] else {
                throw StoreError.damaged(sequence: nil, reason: "creation \(id.uuidString.lowercased()) does not replay to its head after migration")
            }
        }
    }
}
