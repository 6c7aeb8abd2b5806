/// The formats Memery writes.
public enum ExportFormat: String, Sendable, CaseIterable {
    case png, jpeg, webp

    /// The format a file name's extension asks for, if any.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The usual extension of a file in this format.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }

    public static let qualityRange = 1...100
    public static let defaultQuality = 90
}
