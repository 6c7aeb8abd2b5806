import MemeryCore

/// A stored picture as answers show it: its hash, size, format, the file it came from and,
/// for a picture from the web, where (`origin`). `frames` only for a creation's base image.
public struct PictureAnswer: Encodable, Sendable, Equatable {
    public var blob: String
    public var width: Int
    public var height: Int
    public var format: String
    @Nullable public var sourceName: String?
    @Nullable public var origin: OriginAnswer?
    public var frames: Int?

    public init(_ image: BaseImage, frames: Int? = nil) {
        blob = image.blob; width = image.width; height = image.height; format = image.format
        sourceName = image.sourceName
        origin = image.origin.map(OriginAnswer.init)
        self.frames = frames
    }
}

/// Where a picture from the web came from, and its licence, as its credit needs them.
public struct OriginAnswer: Encodable, Sendable, Equatable {
    public var url: String
    @Nullable public var title: String?
    @Nullable public var author: String?
    @Nullable public var licence: String?
    @Nullable public var licenceURL: String?
    @Nullable public var page: String?

    public init(_ origin: PictureOrigin) {
        url = origin.url; title = origin.title; author = origin.author
        licence = origin.licence; licenceURL = origin.licenceURL; page = origin.page
    }
}
