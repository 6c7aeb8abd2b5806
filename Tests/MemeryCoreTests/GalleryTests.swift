import Foundation
import MemeryCore
import MemeryTestSupport
import Testing

@Suite struct GalleryTests {
    func gallery(_ names: [String]) -> Gallery {
        var gallery = Gallery()
        for name in names { gallery.evolve(.added(.init(id: UUID(), name: name))) }
        return Gallery(gallery.all)
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

    @Test func insertPutsAnEntryAtAPositionAndKeepsTheCurrentOne() throws {
        var g = gallery(["a", "b"])
        g.next()  // at b
        try g.insert(.init(id: UUID(), name: "new"), at: 0)
        #expect(names(g.entries) == ["new", "a", "b"])
        #expect(g.current?.name == "b")
        try g.insert(.init(id: UUID(), name: "end"), at: 3)
        #expect(names(g.entries) == ["new", "a", "b", "end"])
        #expect(throws: GalleryError.insertOutOfRange(9, count: 4)) { try g.insert(.init(id: UUID(), name: "x"), at: 9) }
        // Inserting an entry already there moves it.
        let a = try g.at(1)
        try g.insert(a, at: 3)
        #expect(names(g.entries) == ["new", "b", "end", "a"])
    }

    @Test func removeTakesAnEntryOutAndMovesOnWhenItWasCurrent() throws {
        var g = gallery(["a", "b", "c"])
        g.next()  // at b
        #expect(try g.remove(at: 1).name == "b")
        #expect(names(g.entries) == ["a", "c"])
        #expect(g.current?.name == "c", "the next one takes the removed one's place")
        #expect(throws: GalleryError.indexOutOfRange(5, count: 2)) { try g.remove(at: 5) }
        _ = try g.remove(at: 1)
        _ = try g.remove(at: 0)
        #expect(g.current == nil && g.entries.isEmpty)
    }

    @Test func favouritesTrashAndOrderFollowTheEvents() throws {
        var g = gallery(["a", "b", "c", "d"])
        let ids = g.entries.map(\.id)
        g.evolve(.favorite(id: ids[2], favorite: true))
        #expect(names(g.favourites) == ["c"])
        #expect(try g.decideFavorite(ids[2], true).isEmpty)
        g.evolve(.trashed(id: ids[1]))
        #expect(names(g.entries) == ["a", "c", "d"])
        #expect(names(g.trash) == ["b"])
        #expect(g.entry(named: "B")?.trashed == true, "a trashed creation keeps its name")
        #expect(throws: DomainError.alreadyTrashed("b")) { try g.decideTrash(ids[1]) }
        for event in try g.decideMove(ids[3], to: 1) { g.evolve(event) }
        #expect(names(g.entries) == ["d", "a", "c"])
        for event in try g.decideMove(ids[3], to: 3) { g.evolve(event) }
        #expect(names(g.entries) == ["a", "c", "d"])
        #expect(throws: DomainError.outOfRange(field: "position", value: 4, range: 1...3)) { try g.decideMove(ids[0], to: 4) }
        g.evolve(.restored(id: ids[1]))
        #expect(names(g.entries) == ["a", "b", "c", "d"])
        #expect(throws: DomainError.notTrashed("b")) { try g.decideRestore(ids[1]) }
        g.evolve(.purged(id: ids[1]))
        #expect(g.entry(named: "b") == nil)
    }

    @Test func renamesKeepNamesUnique() throws {
        var g = gallery(["cat", "dog"])
        let cat = g.entries[0].id
        #expect(throws: DomainError.nameTaken("DOG")) { try g.decideRename(cat, to: "DOG") }
        #expect(throws: DomainError.self) { try g.decideRename(cat, to: " ") }
        for event in try g.decideRename(cat, to: "Cat") { g.evolve(event) }
        #expect(g.entries[0].name == "Cat")
        #expect(g.uniqueName(from: "cat") == "cat-2")
    }

    @Test func eventsRoundTripThroughJSON() throws {
        let id = UUID()
        for event: GalleryEvent in [.added(.init(id: id, name: "n")), .renamed(id: id, name: "m"), .trashed(id: id), .restored(id: id),
                                    .purged(id: id), .favorite(id: id, favorite: true), .reordered(id: id, index: 3)] {
            #expect(try GalleryEvent.decode(type: event.type, schemaVersion: 1, payload: try event.encodedPayload()) == event)
        }
        #expect(throws: EventDecodingError.self) { try GalleryEvent.decode(type: "CreationRenamed", schemaVersion: 1, payload: Data(#"{"id":"\#(id.uuidString)"}"#.utf8)) }
    }

    /// Loading folds in one pass; it must give the entries evolving one event at a time gives.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func foldingInOnePassEqualsEvolvingEventByEvent(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var ids = [UUID]()
        var events = [GalleryEvent]()
        for step in 0..<2_000 {
            let pick = ids.isEmpty ? nil : ids[Int(rng.next() % UInt64(ids.count))]
            switch (rng.next() % 9, pick) {
            case (0...2, _), (_, nil):
                let id = UUID(); ids.append(id); events.append(.added(.init(id: id, name: "c\(step)")))
            case (3, let id?): events.append(.renamed(id: id, name: "r\(step)"))
            case (4, let id?): events.append(.trashed(id: id))
            case (5, let id?): events.append(.restored(id: id))
            case (6, let id?): events.append(.favorite(id: id, favorite: rng.next() % 2 == 0))
            case (7, let id?): events.append(.reordered(id: id, index: Int(rng.next() % UInt64(ids.count + 2))))
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

