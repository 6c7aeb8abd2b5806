/// What may be drawn as an emoji sticker: one to eight emoji, each a picture character
/// (😂, 👍🏽, 🇬🇧, 👨‍👩‍👧, ❤️, 1️⃣), nothing else. Anything else would come out of the
/// emoji font as a box or as plain text.
public enum Emoji {
    public static let maxCount = 8
    /// The longest family or flag sequence is under 10 code points: anything longer is not
    /// one emoji but a way to make the shaper work (one Character may hold any number).
    public static let maxScalarsEach = 12

    public static func check(_ text: String) throws {
        guard text.unicodeScalars.count <= maxCount * maxScalarsEach else {
            throw DomainError.notAnEmoji(DomainError.shortened(text, limit: 24))
        }
        let characters = Array(text)
        guard (1...maxCount).contains(characters.count), characters.allSatisfy({ isEmoji($0) && $0.unicodeScalars.count <= maxScalarsEach }) else {
            throw DomainError.notAnEmoji(DomainError.shortened(text, limit: 24))
        }
    }

    /// A character shown as a picture: one with emoji presentation of its own, or a text
    /// character asked to be shown as one (U+FE0F), or a flag's pair of regional indicators.
    static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, first.properties.isEmoji else { return false }
        return scalars.contains { $0.properties.isEmojiPresentation } || scalars.contains("\u{FE0F}")
    }
}
