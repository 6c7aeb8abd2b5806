import CPangoCairo
import Foundation
import MemeryLocks

/// Decoded pictures a long-lived process keeps (`memery serve`), so that an edit's new
/// preview does not decode its 12-megapixel photo again: the pictures as decoded, a base
/// with its filters applied, and copies scaled down for previews. Bounded by bytes; the
/// least recently used go first. A one-shot command keeps nothing (a budget of 0), so its
/// peak memory is what it was.
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

        public init(blob: String, form: String = "") {
            self.blob = blob
            self.form = form
        }
    }

    private struct Entry {
        var raster: Raster
        var lastUse: UInt64
        var bytes: Int { raster.stride * raster.height }
    }

    /// Everything that changes, behind one lock.
    private struct State {
        var entries = [Key: Entry]()
        var clock: UInt64 = 0
        var budget: Int
        var bytes = 0
        var hits = 0
        var misses = 0

        /// Drops the least recently used until `incoming` more bytes fit.
        mutating func trim(toFit incoming: Int) {
            while bytes + incoming > budget, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                entries.removeValue(forKey: oldest.key)
                bytes -= oldest.value.bytes
            }
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
    }

    public var statistics: Statistics {
        state.withLock { Statistics(entries: $0.entries.count, bytes: $0.bytes, budget: $0.budget, hits: $0.hits, misses: $0.misses) }
    }

    public init(budget: Int = 0) {
        state = Locked(State(budget: max(0, budget)))
    }

    /// Keeps up to `bytes` of pixels from now on (0 keeps nothing), dropping what no longer fits.
    public func setBudget(_ bytes: Int) {
        state.withLock { state in
            state.budget = max(0, bytes)
            state.trim(toFit: 0)
        }
    }

    /// The picture kept under `key`, or the one `make` makes, kept when it fits the budget.
    /// Two callers missing at once both make it; the second one's is kept.
    public func raster(for key: Key, make: () throws -> Raster) throws -> Raster {
        let found: Raster? = state.withLock { state in
            guard state.budget > 0, var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            state.hits += 1
            return entry.raster
        }
        if let found { return try found.sharingPixels() }
        let made = try make()
        let size = made.stride * made.height
        let kept: Bool = state.withLock { state in
            state.misses += 1
            guard state.budget > 0, size <= state.budget else { return false }
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.bytes }
            state.trim(toFit: size)
            state.clock += 1
            state.entries[key] = Entry(raster: made, lastUse: state.clock)
            state.bytes += size
            return true
        }
        // The kept one is never handed out itself, not even to the thread that made it.
        return kept ? try made.sharingPixels() : made
    }
}

extension Raster {
    /// Another raster over these pixels, keeping this one alive: for a reader on another
    /// thread (Cairo surfaces are not shared between threads; their pixels may be read by many).
    func sharingPixels() throws -> Raster {
        cairo_surface_flush(surface)
        guard let pixels = cairo_image_surface_get_data(surface) else { throw RenderError.outOfMemory(width: width, height: height) }
        return try Raster(wrapping: UnsafeMutableRawPointer(pixels), width: width, height: height, stride: stride,
                          release: { withExtendedLifetime(self) {} })
    }
}
