import Foundation

/// How a text layer looks. Meme style by default: Bebas Neue, upper case, white on a black
/// round-joined outline whose width follows the size.
public struct TextStyle: Sendable, Hashable, Codable {
    public enum Alignment: String, Sendable, Codable, CaseIterable { case left, center, right }

    /// A font family; fallback for other scripts and emoji is the renderer's business.
    public var font: String
    /// The largest size in canvas pixels; the renderer shrinks the text until it fits its box.
    public var maxSize: Double
    public var fill: Color
    public var outline: Color
    /// Outline width in canvas pixels; nil means one eighth of the size that was fitted.
    public var outlineWidth: Double?
    public var align: Alignment
    public var uppercase: Bool

    public init(font: String = TextStyle.defaultFont, maxSize: Double, fill: Color = .white,
                outline: Color = .black, outlineWidth: Double? = nil, align: Alignment = .center,
                uppercase: Bool = true) {
        self.font = font; self.maxSize = maxSize; self.fill = fill; self.outline = outline
        self.outlineWidth = outlineWidth; self.align = align; self.uppercase = uppercase
    }

    public static let defaultFont = "Bebas Neue"
    public static let sizeRange: ClosedRange<Double> = 4...2000
    public static let outlineWidthRange: ClosedRange<Double> = 0...200

    /// The meme default for a canvas: a size that reads well on that picture.
    public static func meme(canvasHeight: Int) -> TextStyle {
        TextStyle(maxSize: max(16, (Double(canvasHeight) / 7).rounded()))
    }

    func validate() throws {
        guard !font.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw DomainError.invalidName(font, reason: "a font family needs a name")
        }
        guard Self.sizeRange.contains(maxSize) else {
            throw DomainError.outOfRange(field: "size", value: maxSize, range: Self.sizeRange)
        }
        if let outlineWidth, !Self.outlineWidthRange.contains(outlineWidth) {
            throw DomainError.outOfRange(field: "outline width", value: outlineWidth, range: Self.outlineWidthRange)
        }
    }
}
