import Foundation

/// Wikimedia Commons (commons.wikimedia.org): freely licensed media, no key needed. Its
/// MediaWiki API: a search in the File namespace as a generator, with each file's URLs, size,
/// type and licence metadata (prop=imageinfo, iiprop=url|size|mime|extmetadata).
public struct CommonsProvider: WebImageProvider {
    public let name = "commons"
    public let label = "Wikimedia Commons"
    public var base: String

    public init(base: String = "https://commons.wikimedia.org") { self.base = base.hasSuffix("/") ? String(base.dropLast()) : base }

    /// Only pictures Memery decodes; Commons' File namespace also holds videos, sounds, PDFs.
    static let pictureTypes: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp"]

    struct Answer: Decodable {
        struct Query: Decodable { var pages: [Page]? }
        var query: Query?
    }
    struct Page: Decodable {
        var title: String
        var index: Int?
        var missing: Bool?
        var imageinfo: [Info]?
    }
    struct Info: Decodable {
        var url: String?
        var descriptionurl: String?
        var thumburl: String?
        var mime: String?
        var width: Int?
        var height: Int?
        var extmetadata: [String: Field]?
    }
    struct Field: Decodable { var value: String? }

    public func search(_ words: String, count: Int, site: PictureDownloader) async throws -> [WebImage] {
        let pages = try await query(site, [
            .init(name: "generator", value: "search"), .init(name: "gsrsearch", value: words),
            .init(name: "gsrnamespace", value: "6"), .init(name: "gsrlimit", value: String(count)),
        ])
        return pages.sorted { ($0.index ?? 0) < ($1.index ?? 0) }.compactMap(image)
    }

    public func image(id: String, site: PictureDownloader) async throws -> WebImage {
        guard id.hasPrefix("File:"), !id.contains("|") else { throw WebSearchError.noSuchImage(reference: "\(name):\(id)") }
        guard let found = try await query(site, [.init(name: "titles", value: id)]).compactMap(image).first else {
            throw WebSearchError.noSuchImage(reference: "\(name):\(id)")
        }
        return found
    }

    func query(_ site: PictureDownloader, _ items: [URLQueryItem]) async throws -> [Page] {
        var query = URLComponents(string: base + "/w/api.php")!
        query.queryItems = [
            .init(name: "action", value: "query"), .init(name: "format", value: "json"), .init(name: "formatversion", value: "2"),
            .init(name: "prop", value: "imageinfo"), .init(name: "iiprop", value: "url|size|mime|extmetadata"),
            .init(name: "iiurlwidth", value: "320"),
        ] + items
        let data = try await site.answer(query.string!)
        do { return try JSONDecoder().decode(Answer.self, from: data).query?.pages ?? [] } catch {
            throw UnexpectedAnswer(provider: label, detail: "\(error)".prefix(200).description)
        }
    }

    /// A file as a WebImage; nil for one that is not a picture Memery takes, or has no link.
    func image(_ page: Page) -> WebImage? {
        guard page.missing != true, let info = page.imageinfo?.first, let url = info.url, let mime = info.mime,
              Self.pictureTypes.contains(mime), url.hasPrefix("https://") || url.hasPrefix("http://") else { return nil }
        let meta = info.extmetadata ?? [:]
        let fileName = String(page.title.dropFirst("File:".count))
        let title = meta["ObjectName"]?.value.map(Self.plainText)?.nonEmpty ?? (fileName as NSString).deletingPathExtension
        return WebImage(provider: name, id: page.title, title: title, author: meta["Artist"]?.value.map(Self.plainText)?.nonEmpty,
                        licence: meta["LicenseShortName"]?.value.map(Self.plainText)?.nonEmpty ?? "see its page",
                        licenceURL: meta["LicenseUrl"]?.value?.nonEmpty, page: info.descriptionurl ?? url, imageURL: url,
                        thumbnailURL: info.thumburl, width: info.width, height: info.height)
    }

    /// Commons' metadata is HTML ("<a href=…>Jane</a>"): the text a person reads.
    static func plainText(_ html: String) -> String {
        var text = html.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        for (entity, character) in [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " ")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
