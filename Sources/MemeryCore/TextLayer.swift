/// A block of text on the canvas: a top or bottom caption, or a free text box.
public struct TextLayer: Sendable, Hashable, Codable {
    public enum Role: String, Sendable, Codable, CaseIterable {
        case top, bottom, free
    }

    public var id: String
    public var role: Role
    public var text: String
    public var box: Box
    public var style: TextStyle

    public init(id: String, role: Role, text: String, box: Box, style: TextStyle) {
        self.id = id; self.role = role; self.text = text; self.box = box; self.style = style
    }

    /// The default box for a caption: the full width less a margin, a quarter of the height,
    /// against the top or bottom edge.
    public static func captionBox(_ role: Role, width: Int, height: Int) -> Box {
        let w = Double(width), h = Double(height)
        let marginX = (w * 0.03).rounded(), marginY = (h * 0.02).rounded()
        let boxHeight = (h * 0.25).rounded()
        switch role {
        case .top: return Box(x: marginX, y: marginY, w: w - 2 * marginX, h: boxHeight)
        case .bottom: return Box(x: marginX, y: h - marginY - boxHeight, w: w - 2 * marginX, h: boxHeight)
        case .free: return Box(x: (w * 0.1).rounded(), y: (h * 0.375).rounded(), w: (w * 0.8).rounded(), h: boxHeight)
        }
    }
}
