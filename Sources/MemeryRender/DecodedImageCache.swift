import CPangoCairo
import Foundation
import MemeryLocks

/// Decoded pictures a long-lived process keeps (`memery serve`), so that an edit's new
/// preview does not decode its 12-megapixel photo again: the pictures as decoded, a base
/// with its filters applied, and copies scaled down for previews; and text layers as set
/// (`TextLayerPixels`), so that it does not set and stroke the captions an edit left
/// alone. Bounded by bytes, text to an eighth of them so that it never pushes out more
/// than that of the pictures; the least recently used go first. A one-shot command keeps
/// nothing (a budget of 0).
///
/// Each caller gets a raster of its own over the kept pixels (`sharingPixels`): Cairo
/// surfaces are not to be shared between threads, their memory may be read by many. Kept
/// pixels are never drawn on.
public final class DecodedImageCache: Sendable {
    /// What is kept: a blob's picture, and which form of it.
    public struct Key: Hashable, Sendable {
        public var blob: String
        /// "" for the picture as decoded; otherwise what was done to it ("filters:…", "scaled:W").
        public var form: String
        /// A text layer as set on a picture's pixels, for no blob.
        var text: TextLayerPixels.Placement?

        public init(blob: String, form: String = "") {
            self.blob = blob
            self.form = form
        }

        init(text: TextLayerPixels.Placement) {
            blob = ""
            form = ""
            self.text = text
        }
    }

    /// Pixels and where their top-left corner goes on a bigger picture.
    struct Placed {
        var raster: Raster
        var x = 0, y = 0
    }

    private struct Entry {
        var raster: Raster
        var x: Int, y: Int
        var lastUse: UInt64
        var bytes: Int { raster.stride * raster.height }
    }

    /// Everything that changes, behind one lock.
    private struct State {
        var entries = [Key: Entry]()
        var clock: UInt64 = 0
        /// The entries' keys by last use, pictures and text apart: a hub keeps hundreds of
        /// captions, and each caption edit drops one.
        var pictureUses = UseOrder<Key>(), textUses = UseOrder<Key>()
        var budget: Int
        var bytes = 0
        var hits = 0
        var misses = 0
        var textHits = 0
        var textMisses = 0
        /// The part of `bytes` that text layers' pixels hold.
        var textBytes = 0

        /// Text pixels are cheap to make again beside a picture decoded: each at most a
        /// sixteenth of the budget, all together an eighth.
        var textEntryLimit: Int { budget / 16 }
        var textLimit: Int { budget / 8 }

        /// Drops the least recently used until `incoming` more bytes fit; for text, until
        /// they fit the text's share too, dropping text first.
        mutating func trim(toFit incoming: Int, text: Bool = false) {
            while text, textBytes + incoming > textLimit, let oldest = textUses.leastRecent() { drop(oldest.key, at: oldest.use) }
            while bytes + incoming > budget, let oldest = leastRecent() { drop(oldest.key, at: oldest.use) }
        }

        /// The least recently used entry of either kind.
        private mutating func leastRecent() -> (key: Key, use: UInt64)? {
            switch (pictureUses.leastRecent(), textUses.leastRecent()) {
            case (let picture?, let text?): picture.use < text.use ? picture : text
            case (let picture?, nil): picture
            case (nil, let text?): text
            case (nil, nil): nil
            }
        }

        /// Removes the entry the use order names; its use goes in any case, so that a key
        /// the dictionary cannot find again (one holding a NaN) cannot keep `trim` looping.
        private mutating func drop(_ key: Key, at use: UInt64) {
            remove(key)
            if key.text == nil { pictureUses.remove(at: use) } else { textUses.remove(at: use) }
        }

        /// Keeps `entry` under `key` (not kept yet), used now.
        mutating func keep(_ entry: Entry, for key: Key) {
            clock += 1
            var entry = entry
            entry.lastUse = clock
            entries[key] = entry
            bytes += entry.bytes
            if key.text == nil { pictureUses.insert(key, at: clock) } else { textBytes += entry.bytes; textUses.insert(key, at: clock) }
        }

        /// The kept entry under `key`, marked used now; nil when there is none.
        mutating func use(_ key: Key) -> Entry? {
            guard var entry = entries[key] else { return nil }
            if key.text == nil { pictureUses.remove(at: entry.lastUse) } else { textUses.remove(at: entry.lastUse) }
            clock += 1
            entry.lastUse = clock
            entries[key] = entry
            if key.text == nil { pictureUses.insert(key, at: clock) } else { textUses.insert(key, at: clock) }
            return entry
        }

        mutating func remove(_ key: Key) {
            guard let entry = entries.removeValue(forKey: key) else { return }
            if key.text == nil { pictureUses.remove(at: entry.lastUse) } else { textUses.remove(at: entry.lastUse) }
            bytes -= entry.bytes
            if key.text != nil { textBytes -= entry.bytes }
        }
    }
    private let state: Locked<State>

    /// What the cache holds and how it has served: for tests, benchmarks and logs.
    public struct Statistics: Sendable, Equatable {
        public var entries: Int
        public var bytes: Int
        public var budget: Int
        /// How often a picture was found, and how often it had to be made.
        public var hits: Int
        public var misses: Int
        /// The same for text layers' pixels, and the bytes they hold (part of `bytes`).
        public var textHits = 0
        public var textMisses = 0
        public var textBytes = 0
    }

    public var statistics: Statistics {
        state.withLock {
            Statistics(entries: $0.entries.count, bytes: $0.bytes, budget: $0.budget, hits: $0.hits, misses: $0.misses,
                       textHits: $0.textHits, textMisses: $0.textMisses, textBytes: $0.textBytes)
        }
    }

    public init(budget: Int = 0) {
        state = Locked(State(budget: max(0, budget)))
    }

    /// Keeps up to `bytes` of pixels from now on (0 keeps nothing), dropping what no longer fits.
    public func setBudget(_ bytes: Int) {
        state.withLock { state in
            state.budget = max(0, bytes)
            state.trim(toFit: 0, text: true)
        }
    }

    /// The picture kept under `key`, or the one `make` makes, kept when it fits the budget.
    /// Two callers missing at once both make it; the second one's is kept.
    public func raster(for key: Key, make: () throws -> Raster) throws -> Raster {
        try placed(for: key, make: { Placed(raster: try make()) })!.raster
    }

    /// `raster(for:make:)` for pixels placed on a bigger picture; nil (never kept) when
    /// `make` has nothing to place.
    func placed(for key: Key, make: () throws -> Placed?) throws -> Placed? {
        let found: Placed? = state.withLock { state in
            guard state.budget > 0, let entry = state.use(key) else { return nil }
            if key.text == nil { state.hits += 1 } else { state.textHits += 1 }
            return Placed(raster: entry.raster, x: entry.x, y: entry.y)
        }
        if var found {
            found.raster = try found.raster.sharingPixels()
            return found
        }
        guard var made = try make() else { return nil }
        let size = made.raster.stride * made.raster.height
        let kept: Bool = state.withLock { state in
            if key.text == nil { state.misses += 1 } else { state.textMisses += 1 }
            let text = key.text != nil
            guard state.budget > 0, size <= (text ? state.textEntryLimit : state.budget) else { return false }
            state.remove(key)
            state.trim(toFit: size, text: text)
            state.keep(Entry(raster: made.raster, x: made.x, y: made.y, lastUse: 0), for: key)
            return true
        }
        // The kept one is never handed out itself, not even to the thread that made it.
        if kept { made.raster = try made.raster.sharingPixels() }
        return made
    }
}

extension Raster {
    /// Another raster over these pixels, keeping this one alive: for a reader on another
    /// thread (Cairo surfaces are not shared between threads; their pixels may be read by many).
    func sharingPixels() throws -> Raster {
        drawing.withLock { $0 }?.willTouchPixels()
        return try Raster(wrapping: UnsafeMutableRawPointer(pixelBytes), width: width, height: height, stride: stride,
                          release: { withExtendedLifetime(self) {} })
    }
}
