/// The picture a creation starts from, stored as a content-addressed blob.
public struct BaseImage: Sendable, Hashable, Codable {
    /// SHA-256 of the file's bytes, as hex.
    public var blob: String
    /// Size after EXIF orientation is applied, in pixels.
    public var width: Int
    public var height: Int
    /// The decoder's name for the format, e.g. "jpeg".
    public var format: String
    /// The file name it was imported from, for people to read.
    public var sourceName: String?
    /// The link it was downloaded from (and its credits), when it came from the web. Older
    /// builds read the event without it.
    public var origin: PictureOrigin?

    public init(blob: String, width: Int, height: Int, format: String, sourceName: String? = nil, origin: PictureOrigin? = nil) {
        self.blob = blob; self.width = width; self.height = height; self.format = format; self.sourceName = sourceName
        self.origin = origin
    }
}
