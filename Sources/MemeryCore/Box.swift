import Foundation

/// A rectangle in canvas pixels, origin top-left.
public struct Box: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x, y, w, h: Double

    public init(x: Double, y: Double, w: Double, h: Double) {
        self.x = x; self.y = y; self.w = w; self.h = h
    }

    /// Parses `X,Y,W,H`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
              [x, y, w, h].allSatisfy(\.isFinite) else {
            throw DomainError.invalidBox(text)
        }
        self.init(x: x, y: y, w: w, h: h)
    }

    /// "53,234.1,564,100": whole pixels as integers, others to two decimals at most (a box
    /// moved on screen lands on 234.10000000000002, which no one wants to read).
    public var description: String {
        [x, y, w, h].map { value in
            guard abs(value) < 1e13 else { return DomainError.number(value) }  // as typed: 1e+308
            let rounded = (value * 100).rounded() / 100
            return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
        }.joined(separator: ",")
    }
}

