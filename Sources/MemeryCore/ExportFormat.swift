/// The formats Memery writes.
public enum ExportFormat: String, Sendable, CaseIterable {
    case png, jpeg, webp, gif

    /// The format a file name's extension asks for, if any.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "webp": self = .webp
        case "gif": self = .gif
        default: return nil
        }
    }

    /// The usual extension of a file in this format.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        case .gif: "gif"
        }
    }

    /// Whether the format can hold an animation (GIF and WebP can).
    /// The media type of the format's files, for HTTP.
    public var mimeType: String { "image/\(rawValue)" }

    public var holdsAnimation: Bool { self == .gif || self == .webp }

    /// The format as people write it: PNG, JPEG, WebP, GIF.
    public var displayName: String { self == .webp ? "WebP" : rawValue.uppercased() }

    public static let qualityRange = 1...100
    public static let defaultQuality = 90
}
