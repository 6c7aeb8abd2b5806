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
    /// Outline width in canvas pixels; nil means a twentieth of the size that was fitted.
    public var outlineWidth: Double?
    public var align: Alignment
    public var uppercase: Bool

    public init(font: String = TextStyle.defaultFont, maxSize: Double, fill: Color = .white,
                outline: Color = .black, outlineWidth: Double? = nil, align: Alignment = .center,
                uppercase: Bool = true) {
        self.font = font; self.maxSize = maxSize; self.fill = fill; self.outline = outline
        self.outlineWidth = outlineWidth; self.align = align; self.uppercase = uppercase
    }

    /// The condensed meme face: Impact's look, upper case only.
    public static let defaultFont = "Bebas Neue"
    /// Bebas Neue has no lower-case letters, so text kept as typed (`caps` off) in the default
    /// face is set in this heavy mixed-case face instead.
    public static let mixedCaseFont = "Lato"

    /// The family text is set in: the style's own, except mixed case in the default face.
    public var face: String { !uppercase && font == Self.defaultFont ? Self.mixedCaseFont : font }
    public static let sizeRange: ClosedRange<Double> = 4...2000
    public static let outlineWidthRange: ClosedRange<Double> = 0...200

    /// The meme default for a canvas: a size that reads well on that picture.
    public static func meme(canvasHeight: Int) -> TextStyle {
        TextStyle(maxSize: max(16, (Double(canvasHeight) / 7).rounded()))
    }

    /// A size Memery chose (the default on a very tall canvas: 15000 px / 7 is 2143) kept within
    /// what a person may give; a size given is left for `validate` to judge. Used in decide,
    /// never in evolve, so stored histories replay as they were.
    func keepingChosenSize(given: Double?) -> TextStyle {
        guard given == nil else { return self }
        var kept = self
        kept.maxSize = Swift.min(Self.sizeRange.upperBound, Swift.max(Self.sizeRange.lowerBound, maxSize))
        return kept
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
