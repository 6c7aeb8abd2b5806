import Foundation
import MemeryCore
import Testing
@testable import MemeryPixels
@testable import MemeryRender

/// Emoji stickers: drawn in colour by the emoji font (bootstrap installs
/// fonts-noto-color-emoji), on a transparent background; anything else is refused by name.
@Suite struct EmojiPictureTests {
    @Test func anEmojiIsDrawnInColourOnTransparency() throws {
        let picture = try EmojiPicture.render("😂")
        #expect((200...320).contains(picture.width) && (200...320).contains(picture.height), "\(picture.width)x\(picture.height)")
        #expect(picture.pixel(x: 0, y: 0).a == 0, "transparent around the face")
        // The face is yellow: somewhere near the middle red and green are high and blue low.
        let middle = (picture.width / 3..<2 * picture.width / 3).map { picture.pixel(x: $0, y: picture.height / 3) }
        #expect(middle.contains { $0.a == 255 && $0.r > 200 && $0.g > 150 && $0.b < 100 }, "a yellow face, not a black outline glyph")
    }

    @Test func flagsSkinTonesAndSequencesAreOnePicture() throws {
        let one = try EmojiPicture.render("👍")
        let toned = try EmojiPicture.render("👍🏽")
        #expect(abs(one.width - toned.width) < 8, "the tone modifies the hand, it is not a second picture")
        let two = try EmojiPicture.render("🇬🇧🔥")
        #expect(two.width > one.width * 3 / 2, "two emoji side by side")
    }

    @Test(arguments: ["", "abc", "1", "😂 lol", "😂😂😂😂😂😂😂😂😂", "\u{FE0F}",
                      "👍" + String(repeating: "\u{1F3FD}", count: 50_000), String(repeating: "👨\u{200D}", count: 40) + "👧"])
    func whatIsNotOneToEightEmojiIsRefused(_ text: String) throws {
        #expect(throws: DomainError.self) { try EmojiPicture.render(text) }
    }

    @Test func aDigitAskedToBeAnEmojiIsOne() throws {
        #expect(try EmojiPicture.render("1️⃣").width > 100)
        #expect(try EmojiPicture.render("❤️").width > 100)
    }
}
