/// Keys by their last use, for a cache that drops the least recently used: finding it walks
/// up from the oldest use that may still be kept instead of looking at every entry. Uses are
/// a clock's ticks, each given once and increasing, so the walk never goes back. A walk
/// longer than the keys kept (ticks given to the other kind of entry, or hits, piled up
/// since) asks the keys for their oldest instead: one call never costs more than a pass
/// over the keys, and it runs under the cache's lock.
struct UseOrder<Key> {
    private var keys = [UInt64: Key]()
    /// No kept use is older than this.
    private var oldest: UInt64 = 0
    /// The newest use given, to check that each is newer.
    private var newest: UInt64 = 0

    var isEmpty: Bool { keys.isEmpty }

    /// `use` must be newer than every use given before.
    mutating func insert(_ key: Key, at use: UInt64) {
        assert(use > newest, "a use older than one given before")
        if keys.isEmpty { oldest = use }
        newest = use
        keys[use] = key
    }

    mutating func remove(at use: UInt64) { keys[use] = nil }

    /// The least recently used key and its use.
    mutating func leastRecent() -> (key: Key, use: UInt64)? {
        guard !keys.isEmpty else { return nil }
        for _ in 0...keys.count {
            if let key = keys[oldest] { return (key, oldest) }
            oldest += 1
        }
        guard let use = keys.keys.min(), let key = keys[use] else { return nil }
        oldest = use
        return (key, use)
    }
}
