import Foundation
import Testing
import MemeryCore
@testable import MemeryPixels
@testable import MemeryRender
import MemeryTestSupport

/// The decoded-picture cache: what it keeps, what it drops first, and what it never keeps.
@Suite struct DecodedImageCacheTests {
    /// 100x100 ARGB: 40,000 bytes each.
    func picture() throws -> Raster { try Raster(width: 100, height: 100) }

    @Test func theLeastRecentlyUsedGoesFirst() throws {
        let cache = DecodedImageCache(budget: 80_000)
        var made = [String]()
        func get(_ blob: String) throws { _ = try cache.raster(for: .init(blob: blob)) { made.append(blob); return try picture() } }
        try get("a"); try get("b")
        try get("a")  // a is now more recent than b
        try get("c")  // no room for three: b goes
        try get("a"); try get("c")
        #expect(made == ["a", "b", "c"], "a and c were kept")
        try get("b")
        #expect(made == ["a", "b", "c", "b"], "b was dropped and made again")
        let statistics = cache.statistics
        #expect(statistics.entries == 2 && statistics.bytes == 80_000 && statistics.hits == 3 && statistics.misses == 4)
    }

    /// The order the cache drops by: the least recently used first, whatever was used,
    /// given up or added meanwhile.
    @Test func theUseOrderGivesTheLeastRecentlyUsed() {
        var order = UseOrder<String>()
        #expect(order.leastRecent() == nil && order.isEmpty)
        order.insert("a", at: 1); order.insert("b", at: 2); order.insert("c", at: 3)
        #expect(order.leastRecent()?.key == "a")
        order.remove(at: 1)
        #expect(order.leastRecent()?.key == "b")
        order.remove(at: 2); order.insert("b", at: 7)  // b used again
        #expect(order.leastRecent()?.key == "c" && order.leastRecent()?.use == 3)
        order.remove(at: 3)
        #expect(order.leastRecent()?.key == "b")
        order.remove(at: 7)
        #expect(order.leastRecent() == nil)
        order.insert("d", at: 12)
        #expect(order.leastRecent()?.key == "d")
        // Far apart (a million ticks of the other kind between): found at once, not tick by tick.
        order.insert("e", at: 1_000_012)
        order.remove(at: 12)
        #expect(order.leastRecent()?.key == "e" && order.leastRecent()?.use == 1_000_012)
    }

    /// Pictures and text layers' pixels go by one clock: whichever was used least recently
    /// goes first, of either kind.
    @Test func theLeastRecentlyUsedGoesFirstOfEitherKind() throws {
        func text(_ words: String) -> DecodedImageCache.Key {
            .init(text: .init(layer: TextContent(role: .free, text: words, width: 10, height: 10, style: .meme(canvasHeight: 300)),
                              legible: 1, matrix: [1, 0, 0, 1, 0, 0], clip: []))
        }
        // 80,000 bytes: two pictures of 40,000, or one and a 30x30 text (3,600) but not both.
        func run(_ steps: [(DecodedImageCache.Key, Bool)]) throws -> (made: [String], cache: DecodedImageCache) {
            let cache = DecodedImageCache(budget: 80_000)
            var made = [String]()
            for (key, isText) in steps {
                _ = try cache.placed(for: key) {
                    made.append(isText ? key.text!.layer.text : key.blob)
                    return .init(raster: isText ? try Raster(width: 30, height: 30) : try picture())
                }
            }
            return (made, cache)
        }
        let a = DecodedImageCache.Key(blob: "a"), b = DecodedImageCache.Key(blob: "b"), t = text("t")
        // a, t, then b: a is the oldest and goes; t is still kept.
        var (made, cache) = try run([(a, false), (t, true), (b, false), (t, true), (a, false)])
        #expect(made == ["a", "t", "b", "a"], "t was kept, a dropped and made again")
        #expect(cache.statistics.textHits == 1 && cache.statistics.bytes <= 80_000)
        // a used again after t: then t is the oldest and goes, and a stays.
        (made, cache) = try run([(a, false), (t, true), (a, false), (b, false), (a, false), (t, true)])
        #expect(made == ["a", "t", "b", "t"], "a was kept, t dropped and made again")
        #expect(cache.statistics.hits == 2 && cache.statistics.bytes <= 80_000)
    }

    /// Thousands of uses, additions and budget changes in a seeded random order, each
    /// compared with a plain list kept in order of use: what is made again, what is kept
    /// and the bytes held agree after every step.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theCacheAgreesWithAListKeptInOrderOfUse(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        func text(_ words: String) -> DecodedImageCache.Key {
            .init(text: .init(layer: TextContent(role: .free, text: words, width: 10, height: 10, style: .meme(canvasHeight: 300)),
                              legible: 1, matrix: [1, 0, 0, 1, 0, 0], clip: []))
        }
        // Pictures of 800 to 6,000 bytes and text of 200 to 1,600 (the largest past a text
        // entry's limit, a sixteenth, at the budgets of 6,000 and 20,000); twelve of each kind.
        let keys: [(key: DecodedImageCache.Key, name: String, width: Int, isText: Bool)] =
            (0..<12).map { (DecodedImageCache.Key(blob: "p\($0)"), "p\($0)", [20, 50, 100, 150][$0 % 4], false) }
            + (0..<12).map { (text("t\($0)"), "t\($0)", [5, 10, 20, 40][$0 % 4], true) }
        var budget = 20_000
        let cache = DecodedImageCache(budget: budget)
        // The reference: oldest use first.
        var kept = [(name: String, bytes: Int, isText: Bool)]()
        func drop(while full: () -> Bool, text: Bool) {
            while full(), let oldest = kept.firstIndex(where: { !text || $0.isText }) { kept.remove(at: oldest) }
        }
        for step in 0..<4_000 {
            if random.next() % 100 == 0 {
                budget = [0, 6_000, 20_000, 40_000][Int(random.next() % 4)]
                cache.setBudget(budget)
                drop(while: { kept.filter(\.isText).map(\.bytes).reduce(0, +) > budget / 8 }, text: true)
                drop(while: { kept.map(\.bytes).reduce(0, +) > budget }, text: false)
            } else {
                let chosen = keys[Int(random.next() % UInt64(keys.count))]
                var made = false
                let placed = try cache.placed(for: chosen.key) {
                    made = true
                    return .init(raster: try Raster(width: chosen.width, height: 10))
                }
                let bytes = try #require(placed).raster.stride * 10
                if let found = kept.firstIndex(where: { $0.name == chosen.name }), budget > 0 {
                    #expect(!made, "step \(step): \(chosen.name) was kept, yet made again")
                    kept.append(kept.remove(at: found))
                } else {
                    #expect(made, "step \(step): \(chosen.name) was not kept, yet not made")
                    if budget > 0, bytes <= (chosen.isText ? budget / 16 : budget) {
                        if chosen.isText { drop(while: { kept.filter(\.isText).map(\.bytes).reduce(0, +) + bytes > budget / 8 }, text: true) }
                        drop(while: { kept.map(\.bytes).reduce(0, +) + bytes > budget }, text: false)
                        kept.append((chosen.name, bytes, chosen.isText))
                    }
                }
            }
            let statistics = cache.statistics
            let expected = (kept.count, kept.map(\.bytes).reduce(0, +), kept.filter(\.isText).map(\.bytes).reduce(0, +))
            #expect(statistics.entries == expected.0 && statistics.bytes == expected.1 && statistics.textBytes == expected.2,
                    "step \(step): \(statistics) against \(kept.map(\.name))")
            if statistics.entries != expected.0 || statistics.bytes != expected.1 || statistics.textBytes != expected.2 { return }
        }
    }

    @Test func nothingIsKeptWithoutABudgetOrPastIt() throws {
        let none = DecodedImageCache()
        var made = 0
        for _ in 0..<3 { _ = try none.raster(for: .init(blob: "a")) { made += 1; return try picture() } }
        #expect(made == 3 && none.statistics.entries == 0, "a one-shot command keeps nothing")
        let small = DecodedImageCache(budget: 39_999)
        for _ in 0..<2 { _ = try small.raster(for: .init(blob: "a")) { made += 1; return try picture() } }
        #expect(made == 5 && small.statistics.bytes == 0, "a picture bigger than the whole budget is not kept")
        let kept = DecodedImageCache(budget: 1 << 20)
        _ = try kept.raster(for: .init(blob: "a")) { try picture() }
        kept.setBudget(0)
        #expect(kept.statistics.entries == 0 && kept.statistics.bytes == 0, "a budget of 0 drops what was kept")
    }

    @Test func formsOfOnePictureAreKeptApart() throws {
        let cache = DecodedImageCache(budget: 1 << 20)
        let full = try cache.raster(for: .init(blob: "a")) { try picture() }
        let small = try cache.raster(for: .init(blob: "a", form: " scaled:50")) { try full.scaled(toWidth: 50) }
        #expect(full.width == 100 && small.width == 50 && cache.statistics.entries == 2)
        let again = try cache.raster(for: .init(blob: "a", form: " scaled:50")) { Issue.record("made twice"); return try picture() }
        #expect(again.width == 50)
    }

    /// What is handed out shares the kept pixels: a reader sees what was kept.
    @Test func callersShareTheKeptPixels() throws {
        let cache = DecodedImageCache(budget: 1 << 20)
        let first = try cache.raster(for: .init(blob: "a")) {
            let red = try picture()
            red.withMutablePixels { pixels, stride in
                for y in 0..<100 { for x in 0..<100 { UnsafeMutableRawPointer(pixels + y * stride + x * 4).storeBytes(of: UInt32(0xffff_0000), as: UInt32.self) } }
            }
            return red
        }
        let second = try cache.raster(for: .init(blob: "a")) { try picture() }
        #expect(first !== second)
        #expect(second.pixel(x: 50, y: 50) == (255, 0, 0, 255))
    }
}
