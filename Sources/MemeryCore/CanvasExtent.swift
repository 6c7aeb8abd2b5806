import Foundation

/// Room to add on each side of the canvas, in pixels.
public struct CanvasMargins: Sendable, Equatable, CustomStringConvertible {
    public var left, top, right, bottom: Int

    public init(left: Int = 0, top: Int = 0, right: Int = 0, bottom: Int = 0) {
        self.left = left; self.top = top; self.right = right; self.bottom = bottom
    }

    public var isZero: Bool { left == 0 && top == 0 && right == 0 && bottom == 0 }
    public var description: String { "left \(left), top \(top), right \(right), bottom \(bottom)" }

    /// One side at most: the same bound as a canvas's side.
    public static let range: ClosedRange<Double> = 0...Canvas.sizeRange.upperBound
}

extension Canvas {
    /// The most pixels a canvas may grow to: the limit on an imported picture
    /// (`ImageDecoder.defaultMaxPixels`), so anything the store holds can be decoded again.
    public static let defaultMaxPixels = 100_000_000

    /// The colour new room gets when none is named: the canvas's own when it has one, white
    /// on a photo's (transparent) canvas, as meme makers add white space for a caption.
    public var extensionBackground: Color { background.alpha > 0 ? background : .white }

    /// `side + a + b`, held within Int32's range: a canvas from another machine may say any
    /// size, and neither evolve nor decide may trap on its sum.
    public static func sum(_ side: Int, _ a: Int, _ b: Int = 0) -> Int {
        Int(Swift.min(Double(Int32.max), Swift.max(Double(Int32.min), Double(side) + Double(a) + Double(b))))
    }

    /// `a - b`, held the same way.
    public static func difference(_ a: Int, _ b: Int) -> Int {
        Int(Swift.min(Double(Int32.max), Swift.max(Double(Int32.min), Double(a) - Double(b))))
    }
}

extension Creation {
    /// The box holding what is drawn on the canvas, besides the top and bottom captions
    /// (they belong to the canvas and re-fit it): the base picture and every visible layer,
    /// turned layers by their turned corners, drawings by their strokes' reach. Nil when
    /// there is nothing of the kind.
    public var contentBounds: Box? {
        var points: [Point] = []
        if let baseImage {
            points += corners(of: basePlacement, w: Double(baseImage.width), h: Double(baseImage.height))
        }
        for layer in layers where layer.opacity > 0 {
            switch layer.content {
            case .text(let text) where text.role != .free:
                continue
            case .drawing(let drawing):
                for stroke in drawing.strokes where !stroke.erase {
                    let reach = stroke.width / 2
                    for p in stroke.points {
                        for (dx, dy) in [(-reach, -reach), (reach, -reach), (-reach, reach), (reach, reach)] {
                            points.append(layer.transform.canvasPoint(Point(x: p.x + dx, y: p.y + dy), size: layer.size))
                        }
                    }
                }
            default:
                let (w, h) = layer.size
                points += corners(of: layer.transform, w: w, h: h)
            }
        }
        let finite = points.filter { $0.x.isFinite && $0.y.isFinite }
        guard let minX = finite.map(\.x).min(), let maxX = finite.map(\.x).max(),
              let minY = finite.map(\.y).min(), let maxY = finite.map(\.y).max() else { return nil }
        return Box(x: minX, y: minY, w: maxX - minX, h: maxY - minY)
    }

    private func corners(of transform: Transform, w: Double, h: Double) -> [Point] {
        [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: 0, y: h), Point(x: w, y: h)]
            .map { transform.canvasPoint($0, size: (w, h)) }
    }

    /// The events that grow the canvas by `margins`, refusing a side out of range or a canvas
    /// past `maxPixels`.
    func extending(by margins: CanvasMargins, background: Color?, maxPixels: Int) throws -> [CreationEvent] {
        for (side, value) in [("left", margins.left), ("top", margins.top), ("right", margins.right), ("bottom", margins.bottom)] {
            guard CanvasMargins.range.contains(Double(value)) else {
                throw DomainError.outOfRange(field: "room on the \(side)", value: Double(value), range: CanvasMargins.range)
            }
        }
        guard let canvas else { throw DomainError.noCanvas }
        let colour = background ?? canvas.extensionBackground
        if margins.isZero && colour == canvas.background { return [] }
        try checkSize(width: Canvas.sum(canvas.width, margins.left, margins.right), height: Canvas.sum(canvas.height, margins.top, margins.bottom),
                      maxPixels: maxPixels)
        return [.canvasExtended(.init(left: margins.left, top: margins.top, right: margins.right, bottom: margins.bottom, background: colour))]
    }

    /// Grows or trims the canvas to the content (`contentBounds`) with `margin` pixels
    /// around it: room added where the content reaches past an edge, a crop where the
    /// canvas reaches past the content.
    func fittingToContent(margin: Int, background: Color?, maxPixels: Int) throws -> [CreationEvent] {
        try checkMargin(margin)
        guard let canvas else { throw DomainError.noCanvas }
        guard let bounds = contentBounds else { throw DomainError.nothingToFit }
        let m = Double(margin)
        // Whole pixels, outward; clamped so a layer far away cannot ask for an absurd canvas
        // before the size check names the size.
        func whole(_ value: Double, _ rule: FloatingPointRoundingRule) -> Int {
            Int(max(-4_000_000, min(4_000_000, value.rounded(rule))))
        }
        let left = whole(bounds.x - m, .down), top = whole(bounds.y - m, .down)
        let right = whole(bounds.x + bounds.w + m, .up), bottom = whole(bounds.y + bounds.h + m, .up)
        let newWidth = max(1, right - left), newHeight = max(1, bottom - top)
        try checkSize(width: newWidth, height: newHeight, maxPixels: maxPixels)
        let grow = CanvasMargins(left: max(0, -left), top: max(0, -top),
                                 right: max(0, Canvas.difference(right, canvas.width)), bottom: max(0, Canvas.difference(bottom, canvas.height)))
        var events: [CreationEvent] = []
        var grownWidth = canvas.width, grownHeight = canvas.height
        if !grow.isZero {
            let extend = CreationEvent.CanvasExtended(left: grow.left, top: grow.top, right: grow.right, bottom: grow.bottom,
                                                      background: background ?? canvas.extensionBackground)
            events.append(.canvasExtended(extend))
            grownWidth = Canvas.sum(grownWidth, grow.left, grow.right)
            grownHeight = Canvas.sum(grownHeight, grow.top, grow.bottom)
        }
        let crop = CreationEvent.CanvasCropped(x: left + grow.left, y: top + grow.top, width: newWidth, height: newHeight)
        if crop.x != 0 || crop.y != 0 || crop.width != grownWidth || crop.height != grownHeight {
            events.append(.canvasCropped(crop))
        }
        return events
    }

    private func checkMargin(_ margin: Int) throws {
        guard CanvasMargins.range.contains(Double(margin)) else {
            throw DomainError.outOfRange(field: "margin", value: Double(margin), range: CanvasMargins.range)
        }
    }

    private func checkSize(width: Int, height: Int, maxPixels: Int) throws {
        let side = Int(Canvas.sizeRange.upperBound)
        // Sides first: both are then small enough to multiply.
        guard width <= side, height <= side, width >= 1, height >= 1, width * height <= maxPixels else {
            throw DomainError.canvasTooLarge(width: width, height: height, maxPixels: maxPixels, maxSide: side)
        }
    }
}
