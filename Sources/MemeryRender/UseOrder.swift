/// Keys by their last use, for a cache that drops the least recently used: finding it walks
/// up from the oldest use that may still be kept instead of looking at every entry. Uses are
/// a clock's ticks, each given once and increasing, so the walk never goes back, and its
/// steps over uses that were given up cost one lookup each, once.
struct UseOrder<Key> {
    private var keys = [UInt64: Key]()
    /// No kept use is older than this.
    private var oldest: UInt64 = 0

    var isEmpty: Bool { keys.isEmpty }

    /// `use` must be newer than every use given before.
    mutating func insert(_ key: Key, at use: UInt64) { keys[use] = key }

    mutating func remove(at use: UInt64) { keys[use] = nil }

    /// The least recently used key and its use.
    mutating func leastRecent() -> (key: Key, use: UInt64)? {
        guard !keys.isEmpty else { return nil }
        // Ends: the oldest kept use is at least `oldest`.
        while true {
            if let key = keys[oldest] { return (key, oldest) }
            oldest += 1
        }
    }
}
