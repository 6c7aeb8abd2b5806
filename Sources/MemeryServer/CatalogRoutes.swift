import Foundation
import HTTPTypes
import Hummingbird
import Memery
import MemeryWeb
import NIOCore

/// What the editor offers beside creations: filters, fonts, the garage and templates.
struct CatalogRoutes {
    let workspace: Workspace
    /// Pictures from links and web search results (the page's "From a link", "From the web"),
    /// fetched as the settings say.
    let search: WebSearch

    func add(to router: Router<ServerContext>) {
        router.get("api/filters", use: filters)
        router.get("api/fonts", use: fonts)
        router.get("api/garage", use: garage)
        router.post("api/garage", use: upload)
        router.get("api/garage/:image/picture", use: garagePicture)
        router.get("api/templates", use: templates)
        router.get("api/stickers", use: stickers)
        router.get("api/stickers/:sticker/picture", use: stickerPicture)
    }

    @Sendable func filters(_ request: Request, context: ServerContext) async throws -> Response {
        let answer = try await workspace.reading { _ in
            FiltersAnswer(filters: FilterCatalog.filters.map(FilterAnswer.init), skipped: FilterCatalog.warnings)
        }
        return JSONAnswer.response(answer)
    }

    @Sendable func fonts(_ request: Request, context: ServerContext) async throws -> Response {
        let fonts = try await workspace.reading { $0.fonts() }
        return JSONAnswer.response(["fonts": fonts])
    }

    @Sendable func garage(_ request: Request, context: ServerContext) async throws -> Response {
        let items = try await workspace.reading { try $0.garage().items.map(GarageItemAnswer.init) }
        return JSONAnswer.response(["images": items])
    }

    /// Imports an uploaded picture (its bytes as the body) into the garage: `?filename=`,
    /// `?name=`, `?tags=a,b`. The same picture twice is kept once.
    @Sendable func upload(_ request: Request, context: ServerContext) async throws -> Response {
        if request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true {
            return try await download(request, context: context)
        }
        let query = request.uri.queryParameters
        let buffer = try await request.body.collect(upTo: context.bodyLimit)
        guard buffer.readableBytes > 0 else { throw APIError(.badRequest, "the upload is empty: send the picture's bytes as the body") }
        let data = Data(buffer.readableBytesView)
        let filename = query["filename"].map(String.init) ?? "upload"
        let name = query["name"].map(String.init)
        let tags = query["tags"].map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } } ?? []
        let item = try await workspace.editing { workspace in
            GarageItemAnswer(try workspace.addToGarage(imageData: data, sourceName: filename, name: name, tags: tags))
        }
        return JSONAnswer.response(item, status: .created)
    }

    /// A picture from a link into the garage: `{"url": "https://…", "name"?, "tags"?}`; the page
    /// then starts a creation from it or adds it as a layer. The download stops when the page
    /// that asked goes (its Cancel button aborts the request), and then nothing is stored.
    func download(_ request: Request, context: ServerContext) async throws -> Response {
        guard let fields = try await JSONAnswer.body(of: request, context: context) as? [String: Any],
              let link = fields["url"] as? String ?? fields["web"] as? String else {
            throw APIError(.badRequest, "send {\"url\": \"https://…\"} to take a picture from a link, {\"web\": REFERENCE} for a web search's result, or the picture's bytes to upload it")
        }
        let fromSearch = fields["url"] == nil
        let name = fields["name"] as? String
        let tags = fields["tags"] as? [String] ?? []
        let search = self.search
        let downloading = Task { () throws -> PictureBytes in
            fromSearch ? try await search.picture(link) : try await search.site.picture(link)
        }
        context.whenClientGone { downloading.cancel() }
        let picture: PictureBytes
        do {
            picture = try await downloading.value
        } catch let error as DownloadError {
            throw APIError(.unprocessableContent, error.description, kind: "download")
        } catch let error as WebSearchError {
            throw APIError(.unprocessableContent, error.description, kind: "download")
        }
        let item = try await workspace.editing { workspace in
            GarageItemAnswer(try workspace.perform(.garageAddPicture(picture, name: name, tags: tags), on: nil).garageItem!)
        }
        return JSONAnswer.response(item, status: .created)
    }

    /// The stickers that ship with Memery, by name.
    @Sendable func stickers(_ request: Request, context: ServerContext) async throws -> Response {
        JSONAnswer.response(["stickers": BundledStickers.names.map { ["name": $0] }])
    }

    /// A bundled sticker's PNG, for the sticker sheet; only the names listed are served.
    @Sendable func stickerPicture(_ request: Request, context: ServerContext) async throws -> Response {
        let reference = try context.parameters.require("sticker")
        let data = try BundledStickers.png(named: reference.removingPercentEncoding ?? reference)
        return BytesAnswer.response(data, type: "image/png", cache: "public, max-age=86400")
    }

    /// A garage image's own bytes, for thumbnails: `?width=` scales it down as PNG.
    @Sendable func garagePicture(_ request: Request, context: ServerContext) async throws -> Response {
        let reference = try context.parameters.require("image")
        let name = reference.removingPercentEncoding ?? reference
        let width = try CreationRoutes.integer(request.uri.queryParameters["width"], "width", in: 1...4096)
        let picture = try await workspace.reading { try $0.garagePicture(name, width: width) }
        return BytesAnswer.response(picture.data, type: picture.format.mimeType, cache: "private, max-age=3600")
    }

    @Sendable func templates(_ request: Request, context: ServerContext) async throws -> Response {
        let all = try await workspace.reading { try $0.templates().all.map(TemplateAnswer.init) }
        return JSONAnswer.response(["templates": all])
    }
}
