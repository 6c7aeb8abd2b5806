import Foundation

/// Where a creation sits in the gallery: a fraction between 0 and 1 written as the decimal
/// digits after its point ("5" is 0.5, "25" is 0.25), compared as strings. There is always
/// another rank between two, so a move writes one event about the creation moved and none
/// about its neighbours, and creations added or moved on two machines merge without
/// renumbering. A rank never ends in 0 (0.50 would be 0.5 written longer and sort apart).
public enum GalleryRank {
    /// The rank of a creation added at `milliseconds` since 1970: the time as 14 digits and
    /// a 5, so a creation added later sorts after one added earlier, and after one that was
    /// moved to the end before it was added.
    public static func added(at milliseconds: Int64) -> String {
        let clamped = max(0, min(milliseconds, 99_999_999_999_999))
        let digits = String(clamped)
        return String(repeating: "0", count: 14 - digits.count) + digits + "5"
    }

    /// A rank strictly between `low` and `high` (nil: the start and the end), as short as it can be.
    /// `low` must sort before `high`.
    public static func between(_ low: String?, _ high: String?) -> String {
        let a = digits(low ?? ""), b = high.map(digits)
        if let b, !(compare(a, b)) { return String(low ?? "") + "5" }  // not in order: after low
        return String(midpoint(a, b).map { Character(String($0)) })
    }

    /// The rank that puts a creation at the end of a gallery whose last rank is `last`, now:
    /// before any creation added after this moment.
    public static func end(after last: String?, now milliseconds: Int64) -> String {
        let stamp = added(at: milliseconds)
        guard let last else { return stamp }
        return last < stamp ? between(last, stamp) : between(last, nil)
    }

    /// Whether a stored rank is one this type makes: digits, at least one, not ending in 0.
    public static func isValid(_ rank: String) -> Bool {
        !rank.isEmpty && rank.utf8.allSatisfy { (48...57).contains($0) } && rank.utf8.last != 48
    }

    private static func digits(_ rank: String) -> [Int] { rank.utf8.map { Int($0) - 48 } }

    /// a < b as fractions.
    private static func compare(_ a: [Int], _ b: [Int]) -> Bool { a.lexicographicallyPrecedes(b) }

    /// The midpoint search of fractional indexing (as Figma and Rocicorp's fractional-indexing
    /// do it, in base 10): keep the common prefix, then take a digit between the first
    /// that differ, or the high one's first digit when it has more, or recurse past low.
    private static func midpoint(_ a: [Int], _ b: [Int]?) -> [Int] {
        if let b {
            var n = 0
            while n < b.count, (n < a.count ? a[n] : 0) == b[n] { n += 1 }
            if n > 0 { return Array(b[..<n]) + midpoint(n < a.count ? Array(a[n...]) : [], Array(b[n...])) }
        }
        let low = a.first ?? 0, high = b?.first ?? 10
        if high - low > 1 { return [(low + high) / 2] }
        if let b, b.count > 1 { return [b[0]] }
        return [low] + midpoint(Array(a.dropFirst()), nil)
    }
}
