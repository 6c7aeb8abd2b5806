import Foundation

/// A point in canvas pixels, origin top-left.
public struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x, y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// Parses `X,Y`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else { throw DomainError.invalidPoint(text) }
        self.init(x: x, y: y)
    }

    public var description: String { "\(DomainError.number(x)),\(DomainError.number(y))" }
}

/// Where a layer's content sits on the canvas: its centre, then rotation (degrees,
/// clockwise on screen), scale and mirroring about that centre.
public struct Transform: Sendable, Hashable, Codable {
    public var x, y: Double
    public var scale: Double
    public var rotation: Double
    public var flipH: Bool
    public var flipV: Bool

    public init(x: Double, y: Double, scale: Double = 1, rotation: Double = 0, flipH: Bool = false, flipV: Bool = false) {
        self.x = x; self.y = y; self.scale = scale; self.rotation = rotation; self.flipH = flipH; self.flipV = flipV
    }

    public static let scaleRange: ClosedRange<Double> = 0.01...100
    /// Where a layer's centre or a stroke's point may be, in canvas pixels.
    public static let coordinateRange: ClosedRange<Double> = -100_000...100_000

    /// Canvas point of a point in the content's own coordinates, [0, w] x [0, h].
    public func canvasPoint(_ local: Point, size: (w: Double, h: Double)) -> Point {
        var u = (local.x - size.w / 2) * scale, v = (local.y - size.h / 2) * scale
        if flipH { u = -u }
        if flipV { v = -v }
        let (c, s) = Angle.cosSin(rotation)
        return Point(x: x + u * c - v * s, y: y + u * s + v * c)
    }

    /// The content's own coordinates of a canvas point (nil when the scale is zero).
    public func localPoint(_ point: Point, size: (w: Double, h: Double)) -> Point {
        let (c, s) = Angle.cosSin(rotation)
        let dx = point.x - x, dy = point.y - y
        var u = dx * c + dy * s, v = -dx * s + dy * c
        if flipH { u = -u }
        if flipV { v = -v }
        return Point(x: u / scale + size.w / 2, y: v / scale + size.h / 2)
    }

    /// Moves the transform with the canvas under a rotation by `degrees` about `from`,
    /// landing on `to`.
    func rotated(by degrees: Double, from: Point, to: Point) -> Transform {
        let (c, s) = Angle.cosSin(degrees)
        let dx = x - from.x, dy = y - from.y
        var next = self
        next.x = to.x + dx * c - dy * s
        next.y = to.y + dx * s + dy * c
        next.rotation = Angle.normalized(rotation + degrees)
        return next
    }

    /// Turned about its own centre, as rotating one layer or the picture alone turns it.
    func turned(by degrees: Double) -> Transform {
        var next = self
        next.rotation = Angle.normalized(rotation + degrees)
        return next
    }

    /// Mirrored on screen about its own centre: left-right (h) or top-bottom (v) as the
    /// viewer sees it, whatever its rotation.
    func mirrored(_ axis: FlipAxis) -> Transform {
        var next = self
        switch axis {
        case .h: next.flipH.toggle()
        case .v: next.flipV.toggle()
        }
        next.rotation = Angle.normalized(-rotation)
        return next
    }

    /// Mirrored on screen about `pivot` (its own centre moves to the other side of it).
    func mirrored(_ axis: FlipAxis, about pivot: Point) -> Transform {
        var next = mirrored(axis)
        switch axis {
        case .h: next.x = 2 * pivot.x - x
        case .v: next.y = 2 * pivot.y - y
        }
        return next
    }

    /// Mirrors the transform with a canvas `width` x `height` across its vertical (h) or horizontal (v) axis.
    func flipped(_ axis: FlipAxis, width: Double, height: Double) -> Transform {
        var next = self
        switch axis {
        case .h: next.x = width - x; next.flipH.toggle()
        case .v: next.y = height - y; next.flipV.toggle()
        }
        next.rotation = Angle.normalized(-rotation)
        return next
    }
}

public enum FlipAxis: String, Sendable, Codable, CaseIterable { case h, v }

/// What a rotate or flip turns: the whole canvas with everything on it (the canvas resizes,
/// captions re-fit it), the base picture alone, or one layer (both turn about their centre).
public enum TurnTarget: Sendable, Equatable {
    case canvas
    case picture
    case layer(String)
}

enum Angle {
    /// Exact values at multiples of 90 degrees, so quarter turns stay pixel-exact.
    static func cosSin(_ degrees: Double) -> (Double, Double) {
        let turns = degrees / 90
        if turns == turns.rounded() {
            switch ((Int(turns) % 4) + 4) % 4 {
            case 0: return (1, 0)
            case 1: return (0, 1)
            case 2: return (-1, 0)
            default: return (0, -1)
            }
        }
        let radians = degrees * .pi / 180
        return (cos(radians), sin(radians))
    }

    /// Into (-180, 180].
    static func normalized(_ degrees: Double) -> Double {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d <= -180 { d += 360 }
        if d > 180 { d -= 360 }
        return d == 0 ? 0 : d  // no negative zero
    }
}
