import Foundation
import HTTPTypes
import Hummingbird
import Memery
import MemeryWeb
import NIOCore

/// The editor's "From the web": openly licensed pictures found on Openverse and Wikimedia
/// Commons, each provider's results or its problem, with thumbnails fetched through this
/// server (the page's content policy keeps images to its own origin). Only thumbnails a search
/// answered with can be fetched: the address is a number this server gave, never a URL the
/// page sends. Taking one is `POST /api/garage {"web": REFERENCE}` (CatalogRoutes).
struct WebSearchRoutes {
    let search: WebSearch
    let thumbnails = WebThumbnails()

    func add(to router: Router<ServerContext>) {
        router.get("api/web/search", use: find)
        router.get("api/web/thumbnails/:thumbnail", use: thumbnail)
    }

    @Sendable func find(_ request: Request, context: ServerContext) async throws -> Response {
        let words = (request.uri.queryParameters["q"].map(String.init) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(words.count) else { throw APIError(.badRequest, "search for 1 to 200 characters, e.g. ?q=grumpy+cat") }
        var answer = WebSearchAnswer(web: [])
        for outcome in await search.search(words, count: 20) {
            var images = [WebSearchAnswer.Found]()
            for image in outcome.images {
                let thumbnail = await thumbnails.remember(image.thumbnailURL ?? image.imageURL)
                images.append(.init(reference: image.reference, title: image.title, author: image.author ?? "", licence: image.licence,
                                    licenceURL: image.licenceURL ?? "", page: image.page, thumbnail: "/api/web/thumbnails/\(thumbnail)",
                                    width: image.width ?? 0, height: image.height ?? 0))
            }
            answer.web.append(.init(provider: outcome.provider, label: outcome.label, problem: outcome.problem ?? "", images: images))
        }
        return JSONAnswer.response(answer)
    }

    @Sendable func thumbnail(_ request: Request, context: ServerContext) async throws -> Response {
        guard let number = context.parameters.get("thumbnail", as: Int.self), let url = await thumbnails.url(number) else {
            throw APIError(.notFound, "no such thumbnail: search again")
        }
        if let kept = await thumbnails.kept(url) { return BytesAnswer.response(kept.data, type: kept.type, cache: "private, max-age=3600") }
        var small = search.site
        small.maxBytes = 4 << 20
        let got: PictureDownloader.Download
        do { got = try await small.download(url) } catch let error as DownloadError {
            throw APIError(.badGateway, error.description, kind: "download")
        }
        // Served only as the picture formats a browser shows, judged by the bytes.
        guard let type = BrowserPictures.mediaType(of: got.data) else { throw APIError(.badGateway, "\(url) did not give a picture") }
        await thumbnails.keep(url, data: got.data, type: type)
        return BytesAnswer.response(got.data, type: type, cache: "private, max-age=3600")
    }
}

/// The thumbnail addresses searches answered with, by number: the most recent 2,000; and the
/// thumbnails fetched, by address, up to 32 MB (the oldest go first), so that searching again
/// or scrolling back does not ask the provider again.
actor WebThumbnails {
    private var urls = [Int: String]()
    private var next = 0
    private var fetched = [String: (data: Data, type: String)]()
    private var fetchedOrder = [String]()
    private var fetchedBytes = 0
    static let keptBytes = 32 << 20

    func kept(_ url: String) -> (data: Data, type: String)? { fetched[url] }

    func keep(_ url: String, data: Data, type: String) {
        guard fetched[url] == nil, data.count <= Self.keptBytes else { return }
        fetched[url] = (data, type)
        fetchedOrder.append(url)
        fetchedBytes += data.count
        while fetchedBytes > Self.keptBytes, !fetchedOrder.isEmpty {
            let oldest = fetchedOrder.removeFirst()
            fetchedBytes -= fetched.removeValue(forKey: oldest)?.data.count ?? 0
        }
    }

    func remember(_ url: String) -> Int {
        next += 1
        urls[next] = url
        urls[next - 2_000] = nil
        return next
    }

    func url(_ number: Int) -> String? { urls[number] }
}
