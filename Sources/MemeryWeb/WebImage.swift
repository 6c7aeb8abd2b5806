import MemeryCore

/// One picture found by a web search, with what crediting it needs.
public struct WebImage: Sendable, Equatable, Codable {
    /// The provider's name ("openverse", "commons") and its own id for the picture.
    public var provider: String
    public var id: String
    public var title: String
    public var author: String?
    /// The licence's short name ("CC BY-SA 4.0", "Public domain") and where it is written out.
    public var licence: String
    public var licenceURL: String?
    /// The page that shows the picture with its credits.
    public var page: String
    /// The picture itself, and a small copy for a list of results.
    public var imageURL: String
    public var thumbnailURL: String?
    public var width: Int?
    public var height: Int?

    /// How a person names it to Memery: `memery new NAME --from-web openverse:ID`.
    public var reference: String { "\(provider):\(id)" }

    /// What is kept with the picture once taken: the link and its credits.
    /// Each part kept to 500 characters: a site's words go into the picture's event for good.
    public var origin: PictureOrigin {
        func clip(_ text: String) -> String { text.count > 500 ? String(text.prefix(499)) + "…" : text }
        return PictureOrigin(url: imageURL, title: clip(title), author: author.map(clip), licence: clip(licence),
                             licenceURL: licenceURL.map(clip), page: clip(page))
    }
}

/// A place to search for openly licensed pictures. Adding one (Unsplash with a key, say) is one
/// file: a type with a name that answers these two, listed in `WebSearch.standard`.
public protocol WebImageProvider: Sendable {
    /// The name in references ("openverse") and the name people read ("Openverse").
    var name: String { get }
    var label: String { get }
    /// Up to `count` pictures for `words`, best first. `site` fetches within Memery's limits.
    func search(_ words: String, count: Int, site: PictureDownloader) async throws -> [WebImage]
    /// One picture by the provider's id, as a search gave it.
    func image(id: String, site: PictureDownloader) async throws -> WebImage
}

/// A provider's answer that is not what its documentation says.
struct UnexpectedAnswer: Error, CustomStringConvertible {
    var provider: String
    var detail: String
    var description: String { "\(provider) answered in a form Memery does not understand (\(detail))" }
}
