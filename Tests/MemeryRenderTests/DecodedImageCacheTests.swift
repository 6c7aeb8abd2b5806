import Foundation
import Testing
@testable import MemeryRender

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
