/// Edit times as ISO 8601 (`2026-11-27T03:44:28Z`) for a run of lines, each second
/// formatted once: edits come many to a second, and Foundation's format style was a fifth
/// of drawing a history of 5,000 edits. The text shows whole seconds, so the second alone
/// decides it.
public struct EditTimeFormatter {
    private var shownSecond: Int64?
    private var shownText = ""
    private var shownBytes = [UInt8]()

    public init() {}

    /// `millis` since 1970, as `HistoryTreeText.time` writes it.
    public mutating func text(_ millis: Int64) -> String {
        if Self.second(millis) != shownSecond { show(millis) }
        return shownText
    }

    /// The same text, appended as UTF-8.
    public mutating func append(_ millis: Int64, to bytes: inout [UInt8]) {
        if Self.second(millis) != shownSecond { show(millis) }
        shownBytes.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
    }

    private mutating func show(_ millis: Int64) {
        (shownSecond, shownText) = (Self.second(millis), HistoryTreeText.time(millis))
        shownBytes = Array(shownText.utf8)
    }

    /// Floor division: -1 ms is the second before 1970, as the format style says (written so
    /// that no time, however damaged its record, overflows).
    private static func second(_ millis: Int64) -> Int64 {
        let (quotient, remainder) = millis.quotientAndRemainder(dividingBy: 1000)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
