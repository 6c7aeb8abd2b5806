import Foundation
import MemeryCore
import MemeryTestSupport
import Testing

@Suite struct GalleryTests {
    func gallery(_ names: [String]) -> Gallery {
        var gallery = Gallery()
        for (index, name) in names.enumerated() {
            gallery.evolve(.added(.init(id: UUID(), name: name, rank: GalleryRank.added(at: 1_700_000_000_000 + Int64(index)))))
        }
        return Gallery(gallery.all)
    }

    func membership(_ gallery: Gallery, _ id: UUID) -> Membership { Membership(creation: id, entry: gallery.entry(id: id)) }

    /// Decides with the creation's membership and folds the events into the gallery.
    func apply(_ command: Membership.Command, _ id: UUID, to gallery: inout Gallery) throws {
        for event in try membership(gallery, id).decide(command) { gallery.evolve(event) }
    }

    func names(_ entries: [Gallery.Entry]) -> [String] { entries.map(\.name) }

    @Test func currentStartsAtTheFirstAndIsNilWhenEmpty() {
        #expect(gallery(["a", "b"]).current?.name == "a")
        #expect(Gallery().current == nil)
        #expect(gallery(["a", "b"]).count == 2)
    }

    @Test func nextAndPreviousWrapAround() {
        var g = gallery(["a", "b", "c"])
        #expect(g.next()?.name == "b")
        #expect(g.next()?.name == "c")
        #expect(g.next()?.name == "a", "past the last comes the first")
        #expect(g.previous()?.name == "c", "before the first comes the last")
        #expect(g.previous()?.name == "b")
        var empty = Gallery()
        #expect(empty.next() == nil && empty.previous() == nil)
    }

    @Test func randomPicksAnotherCreationWhenThereIsOne() {
        var g = gallery(["a", "b", "c"])
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<50 {
            let before = g.current?.id
            let pick = g.random(using: &rng)
            #expect(pick != nil && pick?.id != before)
            #expect(g.current == pick)
        }
        var one = gallery(["only"])
        #expect(one.random()?.name == "only")
        var empty = Gallery()
        #expect(empty.random() == nil)
    }

    @Test func atIsBoundsChecked() throws {
        let g = gallery(["a", "b"])
        #expect(try g.at(1).name == "b")
        #expect(throws: GalleryError.indexOutOfRange(2, count: 2)) { try g.at(2) }
        #expect(throws: GalleryError.indexOutOfRange(-1, count: 2)) { try g.at(-1) }
        #expect(GalleryError.indexOutOfRange(2, count: 2).description == "there is no creation at index 2: the gallery has 2 (0 to 1)")
        #expect(throws: GalleryError.indexOutOfRange(0, count: 0)) { try Gallery().at(0) }
    }

    @Test func favouritesTrashAndOrderFollowTheEvents() throws {
        var g = gallery(["a", "b", "c", "d"])
        let ids = g.entries.map(\.id)
        try apply(.favorite(true), ids[2], to: &g)
        #expect(names(g.favourites) == ["c"])
        #expect(try membership(g, ids[2]).decide(.favorite(true)).isEmpty, "already a favourite: nothing to store")
        try apply(.trash, ids[1], to: &g)
        #expect(names(g.entries) == ["a", "c", "d"])
        #expect(names(g.trash) == ["b"])
        #expect(g.entry(named: "B")?.trashed == true, "a trashed creation keeps its name")
        #expect(throws: DomainError.alreadyTrashed("b")) { try membership(g, ids[1]).decide(.trash) }
        #expect(throws: DomainError.inTrash("b")) { try g.rank(moving: ids[1], to: 1, now: 0) }
        try apply(.place(rank: try #require(try g.rank(moving: ids[3], to: 1, now: 0))), ids[3], to: &g)
        #expect(names(g.entries) == ["d", "a", "c"])
        try apply(.place(rank: try #require(try g.rank(moving: ids[3], to: 3, now: 1_800_000_000_000))), ids[3], to: &g)
        #expect(names(g.entries) == ["a", "c", "d"])
        try apply(.place(rank: try #require(try g.rank(moving: ids[3], to: 2, now: 0))), ids[3], to: &g)
        #expect(names(g.entries) == ["a", "d", "c"])
        #expect(try g.rank(moving: ids[3], to: 2, now: 0) == nil, "already there")
        #expect(throws: DomainError.outOfRange(field: "position", value: 4, range: 1...3)) { try g.rank(moving: ids[0], to: 4, now: 0) }
        try apply(.restore, ids[1], to: &g)
        #expect(names(g.entries) == ["a", "d", "b", "c"], "a restored creation comes back at its rank, after d moved to second place")
        #expect(throws: DomainError.notTrashed("b")) { try membership(g, ids[1]).decide(.restore) }
        g.evolve(.purged(id: ids[1]))
        #expect(g.entry(named: "b") == nil)
        #expect(throws: DomainError.self) { try membership(g, ids[1]).decide(.trash) }
    }

    @Test func aMoveToTheEndStaysBeforeCreationsAddedLater() throws {
        var g = gallery(["a", "b"])
        let a = g.entries[0].id
        try apply(.place(rank: try #require(try g.rank(moving: a, to: 2, now: 1_700_000_000_500))), a, to: &g)
        g.evolve(.added(.init(id: UUID(), name: "later", rank: GalleryRank.added(at: 1_700_000_000_600))))
        #expect(names(g.entries) == ["b", "a", "later"])
    }

    @Test func renamesCheckTheNameAndAddingTwiceIsRefused() throws {
        var g = gallery(["cat", "dog"])
        let cat = g.entries[0].id
        #expect(throws: DomainError.self) { try membership(g, cat).decide(.rename(" ")) }
        try apply(.rename("Cat"), cat, to: &g)
        #expect(g.entries[0].name == "Cat")
        #expect(try membership(g, cat).decide(.rename("Cat")).isEmpty)
        #expect(g.uniqueName(from: "cat") == "cat-2")
        #expect(throws: DomainError.nameTaken("Cat")) { try membership(g, cat).decide(.add(name: "x", rank: "5")) }
        #expect(throws: DomainError.self) { try Membership(creation: UUID()).decide(.add(name: "-x", rank: "5")) }
    }

    @Test func eventsRoundTripThroughJSON() throws {
        let id = UUID()
        for event: GalleryEvent in [.added(.init(id: id, name: "n", rank: "017000000000005")), .renamed(id: id, name: "m"), .trashed(id: id),
                                    .restored(id: id), .purged(id: id), .favorite(id: id, favorite: true), .placed(id: id, rank: "35")] {
            #expect(try GalleryEvent.decode(type: event.type, schemaVersion: event.schemaVersion, payload: try event.encodedPayload()) == event)
        }
        #expect(throws: EventDecodingError.self) { try GalleryEvent.decode(type: "CreationRenamed", schemaVersion: 1, payload: Data(#"{"id":"\#(id.uuidString)"}"#.utf8)) }
        #expect(throws: EventDecodingError.self, "a rank must be digits not ending in 0") {
            try GalleryEvent.decode(type: "GalleryReordered", schemaVersion: 2, payload: Data(#"{"id":"\#(id.uuidString)","rank":"50"}"#.utf8))
        }
        // Format 1's index-based events are read only by the migration.
        #expect(throws: EventDecodingError.self) { try GalleryEvent.decode(type: "GalleryReordered", schemaVersion: 1, payload: Data(#"{"id":"\#(id.uuidString)","index":2}"#.utf8)) }
        #expect(try GalleryEvent.FormatOne.decode(type: "GalleryReordered", schemaVersion: 1, payload: Data(#"{"id":"\#(id.uuidString)","index":2}"#.utf8))
                == .reordered(id: id, index: 2))
        #expect(try GalleryEvent.FormatOne.decode(type: "CreationTrashed", schemaVersion: 1, payload: Data(#"{"id":"\#(id.uuidString)"}"#.utf8))
                == .event(.trashed(id: id)))
    }

    @Test func aRankLiesBetweenAnyTwoAndStaysShort() {
        #expect(GalleryRank.between(nil, nil) == "5")
        #expect(GalleryRank.between("5", nil) == "7")
        #expect(GalleryRank.between(nil, "5") == "2")
        #expect(GalleryRank.between("1", "2") == "15")
        #expect(GalleryRank.between("05", "1") == "07")
        #expect(GalleryRank.added(at: 1_700_000_000_123) == "017000000001235")
        var rng = SeededGenerator(seed: 11)
        var ranks = ["5"]
        for _ in 0..<3_000 {
            let at = Int(rng.next() % UInt64(ranks.count + 1))
            let rank = GalleryRank.between(at > 0 ? ranks[at - 1] : nil, at < ranks.count ? ranks[at] : nil)
            #expect(GalleryRank.isValid(rank))
            if at > 0 { #expect(ranks[at - 1] < rank) }
            if at < ranks.count { #expect(rank < ranks[at]) }
            ranks.insert(rank, at: at)
        }
        #expect(ranks.map(\.count).max()! < 40, "3,000 random insertions keep ranks short")
        // Always between the same two: one digit longer each time or so.
        var low = "1", high = "2"
        for _ in 0..<100 { low = GalleryRank.between(low, high); #expect(low < high) }
        #expect(low.count <= 110)
    }

    /// Loading folds in one pass; it must give the entries evolving one event at a time gives.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func foldingInOnePassEqualsEvolvingEventByEvent(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var ids = [UUID]()
        var events = [GalleryEvent]()
        // Few distinct ranks, so that ties (kept in arrival order) are common.
        func randomRank() -> String { ["3", "5", "55", "7"][Int(rng.next() % 4)] }
        for step in 0..<2_000 {
            let pick = ids.isEmpty ? nil : ids[Int(rng.next() % UInt64(ids.count))]
            switch (rng.next() % 9, pick) {
            case (0...2, _), (_, nil):
                let id = UUID(); ids.append(id); events.append(.added(.init(id: id, name: "c\(step)", rank: randomRank())))
            case (3, let id?): events.append(.renamed(id: id, name: "r\(step)"))
            case (4, let id?): events.append(.trashed(id: id))
            case (5, let id?): events.append(.restored(id: id))
            case (6, let id?): events.append(.favorite(id: id, favorite: rng.next() % 2 == 0))
            case (7, let id?): events.append(.placed(id: id, rank: randomRank()))
            case (_, let id?): events.append(.purged(id: id)); ids.removeAll { $0 == id }
            }
        }
        var evolved = Gallery()
        events.forEach { evolved.evolve($0) }
        #expect(Gallery.fold([], events) == evolved.all)
        // From a part-way fold (a snapshot) and the rest: the same.
        let half = Gallery.fold([], Array(events.prefix(1_000)))
        #expect(Gallery.fold(half, Array(events.dropFirst(1_000))) == evolved.all)
    }
}

