import MemeryCore
/// What can go wrong with pixels, each naming the image and what to do.
public enum RenderError: Error, Equatable, Codable, CustomStringConvertible {
    /// Bytes whose signature names no accepted format (or that no installed loader reads).
    case unsupportedFormat(source: String, known: [String])
    /// The loader started but the data is corrupt or cut short.
    case corrupt(source: String, format: String?, reason: String)
    /// The declared size is over the pixel limit; refused before decoding pixels.
    case tooLarge(source: String, width: Int, height: Int, limit: Int)
    case empty(source: String)
    /// A file that is certainly no picture (text, a web page, a PDF): `kind` says what it is.
    case notAPicture(source: String, kind: String)
    /// A format Memery does not accept by default (an icon, a wrapper): `why` says why.
    case notAccepted(source: String, kind: String, format: String, why: String)
    /// A variant of an accepted format that the decoder is known to draw wrong.
    case wrongVariant(source: String, kind: String, reason: String)
    /// The decoder does not read a feature the file uses (not damage): `feature` says which,
    /// in the decoder's words when nothing plainer is known.
    case unsupportedFeature(source: String, format: String?, feature: String)
    /// A declared size with no pixels, or a side longer than can be drawn.
    case badSize(source: String, width: Int, height: Int, reason: String)
    case tooManyFrames(source: String, frames: Int, limit: Int)
    /// Frames times the canvas: what rendering an animation costs.
    case tooMuchAnimation(source: String, frames: Int, width: Int, height: Int, limit: Int)
    case unreadable(path: String, reason: String)
    /// The decoder used more processor time than a picture may (the helper was stopped).
    case decodeTooSlow(source: String, seconds: Int)
    /// The decoder asked for more memory than a picture within the limits needs.
    case decodeTooHungry(source: String, megabytes: Int)
    /// The decoder crashed on it (in the helper process; nothing else was harmed).
    case decoderCrashed(source: String, signal: Int32)
    /// The helper process that decodes pictures from outside could not be used.
    case decoderUnavailable(reason: String)
    case encodeFailed(format: String, reason: String)
    case writeFailed(path: String, reason: String)
    case outOfMemory(width: Int, height: Int)
    /// The file is bigger than any picture within the pixel limit can be.
    case fileTooLarge(source: String, bytes: Int, limit: Int)
    case qualityOutOfRange(Int)
    /// A picture with a side longer than the format can hold (WebP: 16,383 px), refused
    /// before any work.
    case tooLongForFormat(format: String, width: Int, height: Int, limit: Int)
    /// No installed colour emoji font draws every character of an emoji sticker.
    case emojiUnavailable(String)

    /// A format as people write it: PNG, JPEG, WebP, ...
    static func formatName(_ format: String) -> String { format == "webp" ? "WebP" : format.uppercased() }

    public var description: String {
        switch self {
        case let .unsupportedFormat(source, known):
            return "\(source) is not in an image format Memery accepts (\(known.map { $0.uppercased() }.joined(separator: ", "))); convert it to PNG, or set MEMERY_IMAGE_FORMATS=all to let the installed decoders try the others they read"
        case let .corrupt(source, format, reason):
            let kind = format.map { "\(Self.formatName($0)) " } ?? ""
            return "\(source) is a damaged \(kind)image: \(reason)"
        case let .tooLarge(source, width, height, limit):
            let megapixels = Double(width) * Double(height) / 1_000_000
            return "\(source) declares \(width)x\(height) pixels (\(String(format: "%.0f", megapixels)) megapixels), over the limit of \(limit / 1_000_000) megapixels; set MEMERY_MAX_MEGAPIXELS to allow more"
        case let .notAPicture(source, kind):
            return "\(source) is \(kind), not a picture: choose a picture (PNG, JPEG, WebP or GIF, as a phone or a camera saves them)"
        case .empty(let source):
            return "\(source) is empty (0 bytes)"
        case let .notAccepted(source, kind, format, why):
            return "\(source) is \(kind), which Memery does not accept by default (\(why)); convert it to PNG, or set MEMERY_IMAGE_FORMATS=\(format) to let the installed decoder try"
        case let .wrongVariant(source, kind, reason):
            return "\(source) is a \(kind) picture Memery refuses: \(reason); convert it to PNG (or set MEMERY_IMAGE_FORMATS=all to decode it anyway)"
        case let .unsupportedFeature(source, format, feature):
            let kind = format.map { "the \(Self.formatName($0)) format" } ?? "its format"
            return "\(source) uses a feature of \(kind) that the decoder does not read (\(feature)); convert it to PNG"
        case let .badSize(source, width, height, reason):
            return "\(source) declares \(width)x\(height) pixels: \(reason)"
        case let .tooManyFrames(source, frames, limit):
            return "\(source) holds \(frames) frames, more than the \(limit) Memery decodes in one animation; set MEMERY_MAX_FRAMES to allow more"
        case let .tooMuchAnimation(source, frames, width, height, limit):
            let megapixels = Double(frames) * Double(width) * Double(height) / 1_000_000
            return "\(source) holds \(frames) frames of \(width)x\(height) (\(String(format: "%.0f", megapixels)) megapixels in all), over the limit of \(limit / 1_000_000) megapixels for an animation; set MEMERY_MAX_ANIMATION_MEGAPIXELS to allow more"
        case let .fileTooLarge(source, bytes, limit):
            return "\(source) is \(bytes >> 20) MB, larger than any picture within the pixel limit can be (\(limit >> 20) MB), so it was not read; set MEMERY_MAX_MEGAPIXELS to allow larger pictures"
        case let .unreadable(path, reason):
            return "cannot read \(path): \(reason)"
        case let .decodeTooSlow(source, seconds):
            return "\(source) took more than \(seconds) s of processor time to decode and was given up; it is probably made to hurt decoders (convert it to PNG, or set MEMERY_DECODE_SECONDS to allow longer)"
        case let .decodeTooHungry(source, megabytes):
            return "\(source) needed more than \(megabytes) MB of memory to decode, more than any picture within the limits needs, and was given up; it is probably damaged or made to hurt decoders"
        case let .decoderCrashed(source, signal):
            return "the decoder crashed on \(source) (signal \(signal)); the file is probably damaged (nothing was stored; convert it to PNG with another program)"
        case .decoderUnavailable(let reason):
            return "pictures cannot be imported: \(reason)"
        case let .encodeFailed(format, reason):
            return "could not encode \(format.uppercased()): \(reason)"
        case let .writeFailed(path, reason):
            return "cannot write \(path): \(reason)"
        case let .outOfMemory(width, height):
            return "not enough memory for a \(width)x\(height) image"
        case let .tooLongForFormat(format, width, height, limit):
            return "\(Self.formatName(format)) holds at most \(limit) pixels a side and this picture is \(width)x\(height): export it as PNG or JPEG, or at a smaller width"
        case .emojiUnavailable(let text):
            return "the emoji font (Noto Color Emoji) does not draw \(text): choose another emoji, or install fonts-noto-color-emoji"
        case .qualityOutOfRange(let quality):
            return "quality must be between \(ExportFormat.qualityRange.lowerBound) and \(ExportFormat.qualityRange.upperBound), got \(quality)"
        }
    }
}
