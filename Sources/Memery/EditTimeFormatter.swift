/// Edit times as ISO 8601 (`2026-11-27T03:44:28Z`) for a run of lines, each second
/// formatted once: edits come many to a second, and Foundation's format style was a fifth
/// of drawing a history of 5,000 edits. The text shows whole seconds, so the second alone
/// decides it.
public struct EditTimeFormatter {
    private var shownSecond: Int64?
    private var shownText = ""

    public init() {}

    /// `millis` since 1970, as `HistoryTreeText.time` writes it.
    public mutating func text(_ millis: Int64) -> String {
        // Floor division: -1 ms is the second before 1970, as the format style says
        // (written so that no time, however damaged its record, overflows).
        let (quotient, remainder) = millis.quotientAndRemainder(dividingBy: 1000)
        let second = remainder < 0 ? quotient - 1 : quotient
        if second != shownSecond { (shownSecond, shownText) = (second, HistoryTreeText.time(millis)) }
        return shownText
    }
}
