import Foundation

/// An sRGB colour with straight (not premultiplied) alpha, written as `#RRGGBB` or `#RRGGBBAA`.
public struct Color: Sendable, Hashable, Codable, CustomStringConvertible {
    public var red, green, blue, alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    public static let white = Color(red: 255, green: 255, blue: 255)
    public static let black = Color(red: 0, green: 0, blue: 0)

    /// Parses a colour as people type one: a CSS name (`red`, `rebeccapurple`, `transparent`)
    /// or `#RGB`, `#RRGGBB`, `#RRGGBBAA`.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let named = CSSColorNames.color(named: trimmed) { self = named } else { try self.init(hex: trimmed) }
    }

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA` (the `#` is optional).
    public init(hex: String) throws {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        if digits.count == 3 { digits = Substring(digits.map { "\($0)\($0)" }.joined()) }
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else {
            throw DomainError.invalidColor(hex)
        }
        if digits.count == 6 {
            self.init(red: UInt8(value >> 16 & 0xff), green: UInt8(value >> 8 & 0xff), blue: UInt8(value & 0xff))
        } else {
            self.init(red: UInt8(value >> 24), green: UInt8(value >> 16 & 0xff),
                      blue: UInt8(value >> 8 & 0xff), alpha: UInt8(value & 0xff))
        }
    }

    public var hex: String { withHexBytes { String(decoding: $0, as: UTF8.self) } }

    /// The UTF-8 of `hex` (lowercase, the alpha only when not opaque), made without a String:
    /// the JSON encoder writes it as it is, and a state holds two colours per text layer.
    func withHexBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 9) { buffer in
            func put(_ channel: UInt8, at index: Int) {
                buffer[index] = JSONLeafBytes.hexDigit(channel >> 4)
                buffer[index + 1] = JSONLeafBytes.hexDigit(channel & 0x0f)
            }
            buffer[0] = UInt8(ascii: "#")
            put(red, at: 1)
            put(green, at: 3)
            put(blue, at: 5)
            if alpha != 255 { put(alpha, at: 7) }
            return try body(UnsafeBufferPointer(rebasing: buffer[..<(alpha == 255 ? 7 : 9)]))
        }
    }

    public var description: String { hex }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(hex: text)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
