import Foundation

/// A moment given by a person: a span ago (`45s`, `10m`, `2h`, `3d`, `1w`, optionally
/// followed by `ago`) or an ISO-8601 date and time (`2026-11-21T10:00:00Z`, a space for the
/// `T`, seconds and fractions optional, a zone `Z` or `+01:00`; without a zone it is local
/// time, and a plain date is local midnight). Anything else is refused, never read as the
/// nearest thing that parses.
public enum PointInTime {
    /// About ten thousand years.
    static let maxSecondsAgo: Double = 3.2e11

    /// `timeZone`: what a time without a zone is read in (the machine's, as a person means it).
    public static func parse(_ text: String, now: Date, timeZone: TimeZone = .current) throws -> Date {
        var trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasSuffix(" ago") { trimmed = String(trimmed.dropLast(4)).trimmingCharacters(in: .whitespaces) }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        if let unit = trimmed.last, let seconds = units[unit], let amount = Double(trimmed.dropLast()), amount >= 0, amount.isFinite {
            // Further back than any store can reach (and than a date can hold in milliseconds).
            guard amount * seconds <= maxSecondsAgo else { throw DomainError.invalidTime(DomainError.shortened(text)) }
            return now.addingTimeInterval(-amount * seconds)
        }
        if let date = instant(text.trimmingCharacters(in: .whitespaces), timeZone: timeZone) { return date }
        throw DomainError.invalidTime(text)
    }

    /// Reads `YYYY-MM-DD[(T| )hh:mm[:ss[.fff]][Z|±hh[:mm]]]` strictly: every field in range,
    /// nothing left over (Foundation's ISO-8601 reader took `2026-11-24T03:03:00` as midnight).
    static func instant(_ text: String, timeZone: TimeZone) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func take(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        var parts = DateComponents()
        guard let year = digits(4), take("-"), let month = digits(2), take("-"), let day = digits(2) else { return nil }
        (parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second, parts.nanosecond) = (year, month, day, 0, 0, 0, 0)
        var zone = timeZone
        if index < bytes.count {
            guard take("T") || take("t") || take(" "), let hour = digits(2), take(":"), let minute = digits(2) else { return nil }
            (parts.hour, parts.minute) = (hour, minute)
            if take(":") {
                guard let second = digits(2) else { return nil }
                parts.second = second
                if take(".") || take(",") {
                    let start = index
                    while index < bytes.count, (48...57).contains(bytes[index]), index - start < 9 { index += 1 }
                    guard index > start else { return nil }
                    let fraction = String(decoding: bytes[start..<index], as: UTF8.self)
                    parts.nanosecond = Int(fraction.padding(toLength: 9, withPad: "0", startingAt: 0))
                }
            }
            if take("Z") || take("z") {
                zone = TimeZone(secondsFromGMT: 0)!
            } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign = bytes[index] == UInt8(ascii: "+") ? 1 : -1
                index += 1
                guard let hours = digits(2), hours <= 18 else { return nil }
                var minutes = 0
                if index < bytes.count {
                    _ = take(":")
                    guard let m = digits(2), m < 60 else { return nil }
                    minutes = m
                }
                guard let offset = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60)) else { return nil }
                zone = offset
            }
        }
        guard index == bytes.count else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        parts.timeZone = zone
        guard let hour = parts.hour, let minute = parts.minute, let second = parts.second, hour < 24, minute < 60, second < 60,
              let date = calendar.date(from: parts) else { return nil }
        // February 30th would roll over to March: refused, not moved.
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        guard back.year == parts.year, back.month == parts.month, back.day == parts.day else { return nil }
        return date
    }
}
