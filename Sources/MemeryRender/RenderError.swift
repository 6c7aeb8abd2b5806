import MemeryCore
/// What can go wrong with pixels, each naming the image and what to do.
public enum RenderError: Error, Equatable, CustomStringConvertible {
    /// No installed loader reads these bytes.
    case unsupportedFormat(source: String, known: [String])
    /// The loader started but the data is corrupt or cut short.
    case corrupt(source: String, format: String?, reason: String)
    /// The declared size is over the pixel limit; refused before decoding pixels.
    case tooLarge(source: String, width: Int, height: Int, limit: Int)
    case empty(source: String)
    case unreadable(path: String, reason: String)
    case encodeFailed(format: String, reason: String)
    case writeFailed(path: String, reason: String)
    case outOfMemory(width: Int, height: Int)
    case qualityOutOfRange(Int)

    public var description: String {
        switch self {
        case let .unsupportedFormat(source, known):
            return "\(source) is not an image format the installed decoders read (they read: \(known.joined(separator: ", ")))"
        case let .corrupt(source, format, reason):
            let kind = format.map { "\($0.uppercased()) " } ?? ""
            return "\(source) is a damaged \(kind)image: \(reason)"
        case let .tooLarge(source, width, height, limit):
            let megapixels = Double(width) * Double(height) / 1_000_000
            return "\(source) declares \(width)x\(height) pixels (\(String(format: "%.0f", megapixels)) megapixels), over the limit of \(limit / 1_000_000) megapixels; set MEMERY_MAX_MEGAPIXELS to allow more"
        case .empty(let source):
            return "\(source) is empty (0 bytes)"
        case let .unreadable(path, reason):
            return "cannot read \(path): \(reason)"
        case let .encodeFailed(format, reason):
            return "could not encode \(format.uppercased()): \(reason)"
        case let .writeFailed(path, reason):
            return "cannot write \(path): \(reason)"
        case let .outOfMemory(width, height):
            return "not enough memory for a \(width)x\(height) image"
        case .qualityOutOfRange(let quality):
            return "quality must be between \(ExportFormat.qualityRange.lowerBound) and \(ExportFormat.qualityRange.upperBound), got \(quality)"
        }
    }
}
