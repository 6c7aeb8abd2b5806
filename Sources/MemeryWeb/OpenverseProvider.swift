import Foundation

/// Openverse (api.openverse.org): openly licensed pictures from Flickr, museums and others, no
/// key needed. Its API: GET /v1/images/?q=WORDS&page_size=N, and GET /v1/images/ID/ for one.
public struct OpenverseProvider: WebImageProvider {
    public let name = "openverse"
    public let label = "Openverse"
    public var base: String

    public init(base: String = "https://api.openverse.org") { self.base = base.hasSuffix("/") ? String(base.dropLast()) : base }

    struct Page: Decodable { var results: [Result] }
    struct Result: Decodable {
        var id: String
        var title: String?
        var foreign_landing_url: String?
        var url: String?
        var creator: String?
        var license: String
        var license_version: String?
        var license_url: String?
        var thumbnail: String?
        var width: Int?
        var height: Int?
    }

    public func search(_ words: String, count: Int, site: PictureDownloader) async throws -> [WebImage] {
        var query = URLComponents(string: base + "/v1/images/")!
        query.queryItems = [.init(name: "q", value: words), .init(name: "page_size", value: String(count)), .init(name: "mature", value: "false")]
        let page = try decode(Page.self, try await site.answer(query.string!))
        return page.results.compactMap(image)
    }

    public func image(id: String, site: PictureDownloader) async throws -> WebImage {
        // Openverse ids are UUIDs: anything else is refused before it becomes part of a path.
        guard !id.isEmpty, id.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { throw WebSearchError.noSuchImage(reference: "\(name):\(id)") }
        guard let found = image(try decode(Result.self, try await site.answer("\(base)/v1/images/\(id)/"))) else {
            throw WebSearchError.noSuchImage(reference: "\(name):\(id)")
        }
        return found
    }

    func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do { return try JSONDecoder().decode(type, from: data) } catch { throw UnexpectedAnswer(provider: label, detail: "\(error)".prefix(200).description) }
    }

    /// A result as a WebImage; nil for one without a picture's link.
    func image(_ result: Result) -> WebImage? {
        guard let url = result.url, url.hasPrefix("https://") || url.hasPrefix("http://") else { return nil }
        return WebImage(provider: name, id: result.id, title: result.title?.nonEmpty ?? "Untitled", author: result.creator?.nonEmpty,
                        licence: Self.licenceName(result.license, version: result.license_version), licenceURL: result.license_url,
                        page: result.foreign_landing_url ?? url, imageURL: url, thumbnailURL: result.thumbnail,
                        width: result.width, height: result.height)
    }

    /// Openverse's licence codes as people write them: "by-sa", "2.0" → "CC BY-SA 2.0".
    static func licenceName(_ code: String, version: String?) -> String {
        switch code.lowercased() {
        case "cc0": return "CC0 " + (version ?? "1.0")
        case "pdm": return "Public Domain Mark " + (version ?? "1.0")
        default: return "CC " + code.uppercased() + (version.map { " " + $0 } ?? "")
        }
    }
}

extension String {
    var nonEmpty: String? {
        let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
