import Foundation
import HTTPTypes
import Hummingbird
import MemeryHTTP
import Memery
import NIOCore

/// `/api/creations`: the gallery, a creation's state, its edits, history and pictures.
struct CreationRoutes {
    let workspace: Workspace

    func add(to router: Router<ServerContext>) {
        let api = router.group("api/creations")
        api.get(use: list)
        api.post(use: create)
        api.get(":name", use: show)
        api.post(":name/edits", use: edits)
        api.get(":name/history", use: history)
        api.get(":name/hit", use: hit)
        api.get(":name/render", use: render)
        api.get(":name/export", use: export)
        api.get(":name/preview", use: preview)
        api.get(":name/text-preview", use: textPreview)
    }

    // MARK: The gallery

    /// The gallery in its order: `?favorites=true`, `?trash=true`, `?search=words` (in the
    /// name or in any text on the creation).
    @Sendable func list(_ request: Request, context: ServerContext) async throws -> Response {
        let query = request.uri.queryParameters
        let trash = Self.flag(query["trash"]), favorites = Self.flag(query["favorites"])
        let search = query["search"].map { String($0).lowercased().trimmingCharacters(in: .whitespaces) } ?? ""
        let listed = try await workspace.reading { workspace -> [CreationSummary] in
            let gallery = try workspace.gallery()
            let shown = trash ? gallery.trash : favorites ? gallery.favourites : gallery.entries
            return try shown.compactMap { entry -> CreationSummary? in
                let head = try workspace.head(of: entry)
                if !search.isEmpty {
                    let words = ([entry.name] + head.state.textLayers.compactMap { $0.text?.text }).joined(separator: "\n").lowercased()
                    guard words.contains(search) else { return nil }
                }
                return CreationSummary(head).marked(entry)
            }
        }
        return JSONAnswer.response(CreationsAnswer(creations: listed))
    }

    /// A new creation: an uploaded picture (its bytes as the body, `?name=` optional,
    /// `?filename=` for its source name), or JSON naming a canvas, a garage image or a
    /// template: `{"name": "...", "canvas": "600x400", "background": "#fff"}`.
    @Sendable func create(_ request: Request, context: ServerContext) async throws -> Response {
        let query = request.uri.queryParameters
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        let created: String
        if contentType.hasPrefix("application/json") {
            guard var fields = try await JSONAnswer.body(of: request, context: context) as? [String: Any] else {
                throw APIError(.badRequest, "send a JSON object: {\"name\": ..., and one of \"canvas\", \"garage\" or \"template\"}")
            }
            let name = fields.removeValue(forKey: "name") as? String
            fields["op"] = "new"
            let edit = try EditBody.edit(from: fields)
            created = try await workspace.editing { workspace in
                let chosen = try name ?? workspace.freeName(from: "untitled")
                return try workspace.perform(edit, on: chosen).creation ?? chosen
            }
        } else {
            let buffer = try await request.body.collect(upTo: context.bodyLimit)
            guard buffer.readableBytes > 0 else {
                throw APIError(.badRequest, "the upload is empty: send the picture's bytes, or JSON for a canvas, a garage image or a template")
            }
            let data = Data(buffer.readableBytesView)
            let filename = query["filename"].map(String.init) ?? "upload"
            let name = query["name"].map(String.init)
            created = try await workspace.editing { workspace in
                let chosen = try name ?? workspace.freeName(from: filename)
                return try workspace.create(name: chosen, imageData: data, sourceName: filename).name
            }
        }
        var response = try await detail(created)
        response.status = .created
        response.headers[.location] = "/api/creations/\(Self.pathSegment(created))"
        return response
    }

    // MARK: One creation

    @Sendable func show(_ request: Request, context: ServerContext) async throws -> Response {
        try await detail(try context.parameters.creationName())
    }

    func detail(_ name: String) async throws -> Response {
        let body = try await workspace.reading { workspace -> CreationDetail in
            let entry = try workspace.entry(named: name)
            let head = try workspace.head(of: entry)
            return CreationDetail(head, frames: try workspace.frameCount(of: head.state)).marked(entry)
                .moving(try workspace.headMoves(of: entry))
        }
        return JSONAnswer.response(body)
    }

    /// One edit or a list, in `memery apply`'s JSON, applied in order, each durable before
    /// the next. `expectedVersion` (in the object, or beside `"edits": [...]`) refuses the
    /// lot with 409 when the creation has moved on since.
    @Sendable func edits(_ request: Request, context: ServerContext) async throws -> Response {
        let name = try context.parameters.creationName()
        let (edits, expected) = try EditBody.parse(try await JSONAnswer.body(of: request, context: context))
        let answer = try await workspace.editing { workspace -> EditsAnswer in
            func stale(_ error: StaleVersion) -> APIError {
                APIError(.conflict, error.description, kind: "stale", version: error.current)
            }
            // Checked here for every kind of edit, and again by the store in the first
            // edit's own append (another process may edit between the two).
            let current = try workspace.head(of: name).streamVersion
            if let expected, expected != current { throw stale(StaleVersion(expected: expected, current: current, name: name)) }
            var results = [EditResult]()
            var creation = name
            for (index, edit) in edits.enumerated() {
                do {
                    let result = try workspace.perform(edit, on: creation, expectingVersion: index == 0 ? expected : nil)
                    creation = result.creation ?? creation
                    results.append(result)
                } catch let error as StaleVersion {
                    throw stale(error)
                } catch {
                    guard index > 0 else { throw error }
                    // The edits before it are stored: say so with the failure.
                    var failure = APIError(engine: error) ?? APIError(failure: error)
                    failure.message = "edit \(index + 1) of \(edits.count) was refused, the \(index) before it were stored: \(failure.message)"
                    failure.applied = index
                    // The version is extra: failing to read it must not hide the failure.
                    failure.version = try? workspace.head(of: creation).streamVersion
                    throw failure
                }
            }
            let head = try workspace.head(of: creation)
            return EditsAnswer(creation: creation, version: head.streamVersion, head: head.headVersion,
                               changed: results.contains(where: \.changed), results: results)
        }
        return JSONAnswer.response(answer)
    }

    /// The history tree; `?since=EVENTS&tip=ID` (what the page already has): only what came
    /// after, marked `since`, or the whole tree when that part is not this tree's.
    @Sendable func history(_ request: Request, context: ServerContext) async throws -> Response {
        let name = try context.parameters.creationName()
        let since = try Self.integer(request.uri.queryParameters["since"], "since", in: 0...Int.max).map(UInt64.init)
        let tip = request.uri.queryParameters["tip"].map(String.init)
        let tree = try await workspace.reading { HistoryTreeAnswer(try $0.history(of: name), since: since, tip: tip) }
        return JSONAnswer.response(tree)
    }

    /// The topmost layer at a canvas point, as the engine decides: `?x=&y=`.
    @Sendable func hit(_ request: Request, context: ServerContext) async throws -> Response {
        let name = try context.parameters.creationName()
        let query = request.uri.queryParameters
        guard let x = query["x"].flatMap({ Double(String($0)) }), let y = query["y"].flatMap({ Double(String($0)) }), x.isFinite, y.isFinite else {
            throw APIError(.badRequest, "give the canvas point as ?x=NUMBER&y=NUMBER")
        }
        let layer = try await workspace.reading { workspace -> LayerAnswer? in
            let creation = try workspace.creation(named: name)
            guard let layer = creation.topmostLayer(at: Point(x: x, y: y)),
                  let position = creation.layers.firstIndex(where: { $0.id == layer.id }) else { return nil }
            return LayerAnswer(layer, position: position + 1)
        }
        return JSONAnswer.response(LayerHitAnswer(layer: layer))
    }

    // MARK: Pictures

    /// The picture at preview size: `?width=` (at most the creation's), `?format=auto|png|jpeg|webp|gif`
    /// (auto, the default: JPEG when the picture is opaque, PNG otherwise), `?version=` (a
    /// past state: immutable, cached for good). The ETag names the state shown.
    @Sendable func render(_ request: Request, context: ServerContext) async throws -> Response {
        let name = try context.parameters.creationName()
        let query = request.uri.queryParameters
        let format = query["format"] == "auto" ? nil : try Self.format(query["format"], default: nil)
        let width = try Self.integer(query["width"], "width", in: 1...65_536)
        let quality = try Self.integer(query["quality"], "quality", in: 1...100) ?? 90
        let version = try Self.integer(query["version"], "version", in: 1...Int.max).map(UInt64.init)
        let shown = try await workspace.reading { try $0.shownState(of: name, afterEvent: version) }
        let tag = "\"\(shown.id.uuidString.lowercased())-\(shown.node)-\(width.map(String.init) ?? "full")-\(format?.rawValue ?? "auto")-\(quality)\""
        var headers = HTTPFields()
        headers[.eTag] = tag
        headers[.cacheControl] = version == nil ? "no-cache" : "private, max-age=31536000, immutable"
        if EntityTag.matches(request.headers, tag) { return Response(status: .notModified, headers: headers) }
        let picture = try await workspace.reading(cancelledBy: context.renderCancellation()) {
            try $0.preview(of: shown, width: width, format: format, quality: quality)
        }
        return BytesAnswer.response(picture.data, type: picture.format.mimeType, cache: "no-cache", headers: headers)
    }

    /// The picture as a filter would leave it, stored nowhere: `?filter=ID&set=KEY=VALUE…`
    /// (repeated), `&layer=ID` or `&canvas=true`, `&width=`, `&format=`. With `?position=N`
    /// instead of a filter: the filter applied at N with its settings changed by `set`.
    @Sendable func preview(_ request: Request, context: ServerContext) async throws -> Response {
        let name = try context.parameters.creationName()
        let query = request.uri.queryParameters
        let filter = query["filter"].map(String.init)
        let position = try Self.integer(query["position"], "position", in: 1...Int.max)
        guard (filter?.isEmpty ?? true) != (position == nil) else {
            throw APIError(.badRequest, "name the filter to preview (?filter=ID) or an applied one by its place (?position=N), one of them")
        }
        let settings = query.getAll("set").map { String($0) }
        let layer = query["layer"].map(String.init)
        let canvas = Self.flag(query["canvas"])
        if position != nil, layer != nil || query["canvas"] != nil {
            throw APIError(.badRequest, "an applied filter keeps the layer it was applied to: give ?position=N without &layer or &canvas")
        }
        let width = try Self.integer(query["width"], "width", in: 1...65_536)
        let format = query["format"] == "auto" ? nil : try Self.format(query["format"], default: nil)
        let picture = try await workspace.reading(cancelledBy: context.renderCancellation()) {
            if let position { return try $0.filters.preview(name, position: position, settings: settings, width: width, format: format) }
            return try $0.filters.preview(name, filter: filter ?? "", settings: settings, layer: layer, canvas: canvas, width: width, format: format)
        }
        return BytesAnswer.response(picture.data, type: picture.format.mimeType, cache: "no-store")
    }

    /// The picture as words being typed would leave it, stored nowhere: `?text=WORDS` with
    /// `&caption=top|bottom` or `&layer=ID`, `&width=`, `&format=`.
    @Sendable func textPreview(_ request: Request, context: ServerContext) async throws -> Response {
        let name = try context.parameters.creationName()
        let query = request.uri.queryParameters
        guard let text = query["text"].map(String.init) else { throw APIError(.badRequest, "give the words: ?text=WORDS") }
        let place: TypedPlace
        switch (query["caption"].map(String.init), query["layer"].map(String.init)) {
        case (let caption?, nil):
            guard let position = TypedPlace.CaptionPosition(rawValue: caption) else {
                throw APIError(.badRequest, "caption must be top or bottom, got \"\(caption)\"")
            }
            place = .caption(position)
        case (nil, let layer?): place = .layer(layer)
        default: throw APIError(.badRequest, "say where the words go: &caption=top, &caption=bottom or &layer=ID (one of them)")
        }
        let width = try Self.integer(query["width"], "width", in: 1...65_536)
        let format = query["format"] == "auto" ? nil : try Self.format(query["format"], default: nil)
        let picture = try await workspace.reading(cancelledBy: context.renderCancellation()) {
            try $0.preview(of: name, typing: text, into: place, width: width, format: format)
        }
        return BytesAnswer.response(picture.data, type: picture.format.mimeType, cache: "no-store")
    }

    /// The picture at full size as a download: `?format=png|jpeg|webp|gif&quality=1..100`.
    @Sendable func export(_ request: Request, context: ServerContext) async throws -> Response {
        let name = try context.parameters.creationName()
        let query = request.uri.queryParameters
        let format = try Self.format(query["format"], default: .png)
        let quality = try Self.integer(query["quality"], "quality", in: 1...100) ?? ExportFormat.defaultQuality
        let picture = try await workspace.reading(cancelledBy: context.renderCancellation()) { try $0.picture(of: name, format: format, quality: quality) }
        var headers = HTTPFields()
        let filename = name.replacingOccurrences(of: "\"", with: "'") + "." + format.fileExtension
        headers[.contentDisposition] = "attachment; filename=\"\(filename.unicodeScalars.allSatisfy(\.isASCII) ? filename : "memery.\(format.rawValue)")\"; filename*=UTF-8''\(filename.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "memery")"
        if let note = picture.note { headers[HTTPField.Name("Memery-Note")!] = note }
        return BytesAnswer.response(picture.data, type: format.mimeType, cache: "no-store", headers: headers)
    }

    // MARK: Reading the query

    static func flag(_ value: Substring?) -> Bool { value.map { ["true", "1", "yes"].contains($0.lowercased()) } ?? false }

    static func integer(_ value: Substring?, _ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value else { return nil }
        guard let number = Int(value), range.contains(number) else {
            throw APIError(.badRequest, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound == Int.max ? "…" : String(range.upperBound)), got \"\(value)\"")
        }
        return number
    }

    static func format(_ value: Substring?, default fallback: ExportFormat) throws -> ExportFormat {
        guard let value else { return fallback }
        return try format(value, default: nil) ?? fallback
    }

    static func format(_ value: Substring?, default fallback: ExportFormat?) throws -> ExportFormat? {
        guard let value else { return fallback }
        guard let format = ExportFormat(pathExtension: String(value)) else {
            throw APIError(.badRequest, "format must be png, jpeg, webp or gif, got \"\(value)\"")
        }
        return format
    }

    static func pathSegment(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? name
    }
}
