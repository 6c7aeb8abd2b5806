import Foundation

/// A moment given by a person: a span ago (`45s`, `10m`, `2h`, `3d`, `1w`, optionally
/// followed by `ago`) or an ISO-8601 instant (`2026-11-21T10:00:00Z`, with a zone offset
/// or fractional seconds, or a plain date, read as midnight UTC).
public enum PointInTime {
    /// About ten thousand years.
    static let maxSecondsAgo: Double = 3.2e11

    public static func parse(_ text: String, now: Date) throws -> Date {
        var trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasSuffix(" ago") { trimmed = String(trimmed.dropLast(4)).trimmingCharacters(in: .whitespaces) }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        if let unit = trimmed.last, let seconds = units[unit], let amount = Double(trimmed.dropLast()), amount >= 0, amount.isFinite {
            // Further back than any store can reach (and than a date can hold in milliseconds).
            guard amount * seconds <= maxSecondsAgo else { throw DomainError.invalidTime(DomainError.shortened(text)) }
            return now.addingTimeInterval(-amount * seconds)
        }
        let original = text.trimmingCharacters(in: .whitespaces)
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: original) { return date }
        }
        throw DomainError.invalidTime(text)
    }
}
