import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Memery
import MemeryTestSupport
import NIOCore
import Synchronization
import Testing
@testable import MemeryServer

/// The editor's API answered in process, with no socket (HummingbirdTesting's router
/// framework): the guard, the answers' shapes and statuses, and the log of a 500.
@Suite struct EditorRouterTests {
    static let port = 8123
    static let token = String(repeating: "ab", count: 32)

    /// The router `memery serve` builds, on a workspace of its own, logging into `log`.
    func editor(_ dir: TemporaryDirectory, log: LogLines = LogLines()) throws -> some ApplicationProtocol {
        let workspace = try Workspace(directory: dir.url)
        let settings = ServerSettings(port: Self.port, token: Self.token)
        let router = EditorServer.buildRouter(workspace: workspace, settings: settings, address: BoundAddress(),
                                              feed: ChangeFeed(workspace: workspace), files: try EditorFiles(folder: try EditorFiles.locate()))
        return Application(responder: HostFromHeader(inner: router.buildResponder()), logger: log.logger)
    }

    /// What a page of the editor sends: its Host, its cookie and, for changes, its Origin.
    static func fromThePage(_ extra: HTTPFields = [:]) -> HTTPFields {
        var headers: HTTPFields = [.testHost: "127.0.0.1:\(port)", .cookie: "memery-\(port)=\(token)", .origin: "http://127.0.0.1:\(port)"]
        headers.append(contentsOf: extra)
        return headers
    }

    /// The answer's JSON object; empty when it is not one (and the test's checks then fail).
    static func json(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
    }

    @Test func theGuardRefusesWithoutTheTokenOrFromAnotherHostOrSite() async throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        try await editor(dir).test(.router) { client in
            try await client.execute(uri: "/api/creations", method: .get, headers: [.testHost: "127.0.0.1:\(Self.port)"]) { answer in
                #expect(answer.status == .unauthorized)
                #expect(Self.json(answer.body)["kind"] as? String == "unauthorized")
            }
            try await client.execute(uri: "/api/creations", method: .get, headers: [.testHost: "evil.example:\(Self.port)", .cookie: "memery-\(Self.port)=\(Self.token)"]) { answer in
                #expect(answer.status == .forbidden)
                #expect(Self.json(answer.body)["kind"] as? String == "wrongHost")
            }
            let foreign = Self.fromThePage().replacing(.origin, with: "https://evil.example")
            try await client.execute(uri: "/api/creations", method: .post, headers: foreign.adding(.contentType, "application/json"),
                                     body: ByteBuffer(string: #"{"name": "x", "canvas": "60x40"}"#)) { answer in
                #expect(answer.status == .forbidden)
                #expect(Self.json(answer.body)["kind"] as? String == "crossOrigin")
            }
            // The token in the address is traded for a cookie and taken out of the address.
            try await client.execute(uri: "/?token=\(Self.token)", method: .get, headers: [.testHost: "localhost:\(Self.port)"]) { answer in
                #expect(answer.status == .seeOther)
                #expect(answer.headers[.location] == "/")
                #expect(answer.headers[.setCookie]?.contains("HttpOnly; SameSite=Strict") == true)
                #expect(answer.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
            }
        }
    }

    @Test func aCreationIsMadeEditedAndAStaleEditRefusedWithTheVersion() async throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        try await editor(dir).test(.router) { client in
            let created = try await client.execute(uri: "/api/creations", method: .post, headers: Self.fromThePage([.contentType: "application/json"]),
                                                   body: ByteBuffer(string: ##"{"name": "card", "canvas": "60x40", "background": "#ffffff"}"##))
            #expect(created.status == .created)
            #expect(created.headers[.location] == "/api/creations/card")
            let detail = Self.json(created.body)
            #expect(detail["name"] as? String == "card")
            #expect(detail["width"] as? Int == 60 && detail["height"] as? Int == 40)
            let version = try #require(detail["events"] as? Int)
            let caption = #"{"op": "text", "top": "HELLO", "expectedVersion": \#(version)}"#
            try await client.execute(uri: "/api/creations/card/edits", method: .post, headers: Self.fromThePage([.contentType: "application/json"]),
                                     body: ByteBuffer(string: caption)) { answer in
                #expect(answer.status == .ok)
                let result = Self.json(answer.body)
                #expect(result["version"] as? Int == version + 1)
                #expect(result["changed"] as? Bool == true)
            }
            try await client.execute(uri: "/api/creations/card", method: .get, headers: Self.fromThePage()) { answer in
                let layers = try #require(Self.json(answer.body)["layers"] as? [[String: Any]])
                #expect(layers.count == 1)
            }
            // The same edit sent again names a version the creation has left.
            try await client.execute(uri: "/api/creations/card/edits", method: .post, headers: Self.fromThePage([.contentType: "application/json"]),
                                     body: ByteBuffer(string: caption)) { answer in
                #expect(answer.status == .conflict)
                let refusal = Self.json(answer.body)
                #expect(refusal["kind"] as? String == "stale")
                #expect(refusal["version"] as? Int == version + 1)
            }
            try await client.execute(uri: "/api/creations/nothing-here", method: .get, headers: Self.fromThePage()) { answer in
                #expect(answer.status == .notFound)
                #expect(Self.json(answer.body)["kind"] as? String == "notFound")
            }
            try await client.execute(uri: "/api/no-such-thing", method: .get, headers: Self.fromThePage()) { answer in
                #expect(answer.status == .notFound)
                let refusal = Self.json(answer.body)
                #expect((refusal["error"] as? String)?.contains("openapi.yaml") == true)
            }
        }
    }

    /// The creation's answer says whether Undo and Redo would move the head (the page greys
    /// them): the same in a new process, which reads the history index, as in the one that edited.
    @Test func theCreationSaysWhetherUndoAndRedoWouldMoveItsHead() async throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        try await editor(dir).test(.router) { client in
            let created = try await client.execute(uri: "/api/creations", method: .post, headers: Self.fromThePage([.contentType: "application/json"]),
                                                   body: ByteBuffer(string: ##"{"name": "card", "canvas": "60x40"}"##))
            #expect([Self.json(created.body)["canUndo"] as? Bool, Self.json(created.body)["canRedo"] as? Bool] == [false, false])
            try await Self.edit(client, #"{"op": "text", "top": "ONE"}"#)
            #expect(try await Self.moves(client) == [true, false])
            try await Self.edit(client, #"{"op": "text", "top": "TWO"}"#)
            try await Self.edit(client, #"{"op": "undo"}"#)
            #expect(try await Self.moves(client) == [true, true])
            try await Self.edit(client, #"{"op": "undo"}"#)
            #expect(try await Self.moves(client) == [false, true])
        }
        // A new process: the answer from the index, the same.
        try await editor(dir).test(.router) { client in
            #expect(try await Self.moves(client) == [false, true])
            try await Self.edit(client, #"{"op": "redo"}"#)
            #expect(try await Self.moves(client) == [true, true])
            // An edit after an undo starts a branch: nothing ahead of it to redo.
            try await Self.edit(client, #"{"op": "text", "top": "OTHER WAY"}"#)
            #expect(try await Self.moves(client) == [true, false])
        }
    }

    private static func moves(_ client: some TestClientProtocol) async throws -> [Bool?] {
        let answer = try await client.execute(uri: "/api/creations/card", method: .get, headers: Self.fromThePage())
        let detail = Self.json(answer.body)
        return [detail["canUndo"] as? Bool, detail["canRedo"] as? Bool]
    }
    private static func edit(_ client: some TestClientProtocol, _ body: String) async throws {
        let answer = try await client.execute(uri: "/api/creations/card/edits", method: .post,
                                              headers: Self.fromThePage([.contentType: "application/json"]), body: ByteBuffer(string: body))
        #expect(answer.status == .ok, "\(body): \(String(buffer: answer.body))")
    }

    /// A picture a cache holds is not drawn again: its tag, alone, weak or in a list, or `*`,
    /// answers 304; another tag draws it.
    @Test func aRenderTheCacheHoldsIsNotModifiedByItsTagInAnyForm() async throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        try await editor(dir).test(.router) { client in
            let created = try await client.execute(uri: "/api/creations", method: .post, headers: Self.fromThePage([.contentType: "application/json"]),
                                                   body: ByteBuffer(string: ##"{"name": "tagged", "canvas": "30x20", "background": "#ff0000"}"##))
            #expect(created.status == .created)
            let first = try await client.execute(uri: "/api/creations/tagged/render?format=png", method: .get, headers: Self.fromThePage())
            #expect(first.status == .ok && first.body.readableBytes > 0)
            let tag = try #require(first.headers[.eTag])
            for asked in [tag, "W/" + tag, "\"other\", " + tag, "*"] {
                let again = try await client.execute(uri: "/api/creations/tagged/render?format=png", method: .get,
                                                     headers: Self.fromThePage([.ifNoneMatch: asked]))
                #expect(again.status == .notModified, "If-None-Match: \(asked)")
                #expect(again.body.readableBytes == 0)
            }
            let other = try await client.execute(uri: "/api/creations/tagged/render?format=png", method: .get,
                                                 headers: Self.fromThePage([.ifNoneMatch: "\"other\""]))
            #expect(other.status == .ok && other.body.readableBytes > 0)
        }
    }

    /// Words being typed are drawn as the edit storing them would draw them, and stored
    /// nowhere; a place that is not there, or none, is refused with a message.
    @Test func wordsBeingTypedAreDrawnAsTheirEditWouldDrawThemAndStoredNowhere() async throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        try await editor(dir).test(.router) { client in
            let created = try await client.execute(uri: "/api/creations", method: .post, headers: Self.fromThePage([.contentType: "application/json"]),
                                                   body: ByteBuffer(string: ##"{"name": "typed", "canvas": "120x80", "background": "#3366cc"}"##))
            #expect(created.status == .created)
            let before = try await client.execute(uri: "/api/creations/typed/render?format=png", method: .get, headers: Self.fromThePage())
            let typed = try await client.execute(uri: "/api/creations/typed/text-preview?text=HI%20THERE%2B&caption=bottom&format=png",
                                                 method: .get, headers: Self.fromThePage())
            #expect(typed.status == .ok && typed.headers[.contentType] == "image/png")
            #expect(typed.body != before.body, "the words are on the picture")
            let shown = try await client.execute(uri: "/api/creations/typed", method: .get, headers: Self.fromThePage())
            #expect(Self.json(shown.body)["events"] as? Int == Self.json(created.body)["events"] as? Int, "nothing is stored")
            let edit = try await client.execute(uri: "/api/creations/typed/edits", method: .post, headers: Self.fromThePage([.contentType: "application/json"]),
                                                body: ByteBuffer(string: ##"{"op": "text", "bottom": "HI THERE+"}"##))
            #expect(edit.status == .ok)
            let after = try await client.execute(uri: "/api/creations/typed/render?format=png", method: .get, headers: Self.fromThePage())
            #expect(after.body == typed.body, "the preview is the picture the edit made")
            for (query, status, words) in [("text=hi&layer=L9", HTTPResponse.Status.notFound, "no layer"),
                                           ("text=hi", .badRequest, "say where the words go"),
                                           ("text=hi&caption=top&layer=L1", .badRequest, "one of them"),
                                           ("caption=top", .badRequest, "give the words"),
                                           ("text=hi&caption=middle", .badRequest, "top or bottom")] {
                let refused = try await client.execute(uri: "/api/creations/typed/text-preview?\(query)", method: .get, headers: Self.fromThePage())
                #expect(refused.status == status, "\(query)")
                #expect((Self.json(refused.body)["error"] as? String)?.contains(words) == true, "\(query): \(Self.json(refused.body))")
            }
        }
    }

    /// An applied filter's slider dragged: the picture as the new setting would leave it,
    /// the same bytes the stored change then renders, and nothing stored before it.
    @Test func anAppliedFiltersSettingIsPreviewedAsItsChangeWouldDrawIt() async throws {
        let dir = try TemporaryDirectory(); defer { dir.cleanup() }
        try await editor(dir).test(.router) { client in
            let headers = Self.fromThePage([.contentType: "application/json"])
            #expect(try await client.execute(uri: "/api/creations", method: .post, headers: headers,
                                             body: ByteBuffer(string: ##"{"name": "toned", "canvas": "120x80", "background": "#3366cc"}"##)).status == .created)
            let applied = try await client.execute(uri: "/api/creations/toned/edits", method: .post, headers: headers,
                                                   body: ByteBuffer(string: ##"{"op": "filter apply", "filter": "org.memery.sepia", "params": ["amount=0.2"]}"##))
            #expect(applied.status == .ok, "\(String(buffer: applied.body))")
            let before = try await client.execute(uri: "/api/creations/toned/render?format=png", method: .get, headers: Self.fromThePage())
            let events = Self.json(try await client.execute(uri: "/api/creations/toned", method: .get, headers: Self.fromThePage()).body)["events"] as? Int
            let dragged = try await client.execute(uri: "/api/creations/toned/preview?position=1&set=amount=1&format=png", method: .get, headers: Self.fromThePage())
            #expect(dragged.status == .ok && dragged.headers[.contentType] == "image/png", "\(String(buffer: dragged.body))")
            #expect(dragged.body != before.body, "the stronger sepia shows")
            let shown = try await client.execute(uri: "/api/creations/toned", method: .get, headers: Self.fromThePage())
            #expect(Self.json(shown.body)["events"] as? Int == events, "nothing is stored")
            let set = try await client.execute(uri: "/api/creations/toned/edits", method: .post, headers: headers,
                                               body: ByteBuffer(string: ##"{"op": "filter set", "position": 1, "params": ["amount=1"]}"##))
            #expect(set.status == .ok, "\(String(buffer: set.body))")
            let after = try await client.execute(uri: "/api/creations/toned/render?format=png", method: .get, headers: Self.fromThePage())
            #expect(after.body == dragged.body, "the preview is the picture the change made")
            for (query, status, words) in [("position=2&set=amount=1", HTTPResponse.Status.badRequest, "filter position must be between 1 and 1"),
                                           ("position=1&set=strength=1", .badRequest, "strength"),
                                           ("position=1&filter=org.memery.sepia", .badRequest, "one of them"),
                                           ("set=amount=1", .badRequest, "one of them"),
                                           ("position=1&canvas=true", .badRequest, "without &layer or &canvas"),
                                           ("position=0", .badRequest, "position must be")] {
                let refused = try await client.execute(uri: "/api/creations/toned/preview?\(query)", method: .get, headers: Self.fromThePage())
                #expect(refused.status == status, "\(query): \(String(buffer: refused.body))")
                #expect((Self.json(refused.body)["error"] as? String)?.contains(words) == true, "\(query): \(Self.json(refused.body))")
            }
        }
    }

    /// A failure that is not the engine's: logged with its cause and the request's id, and
    /// answered with the id and nothing of the cause.
    @Test func aFiveHundredIsLoggedWithItsRequestIdAndAnsweredWithoutInternals() async throws {
        struct SecretFailure: Error { let detail = "/var/secret/path table 42" }
        let log = LogLines()
        let router = Router(context: ServerContext.self)
        router.add(middleware: ErrorAnswers())
        router.get("boom") { _, _ -> Response in throw SecretFailure() }
        try await Application(router: router, logger: log.logger).test(.router) { client in
            try await client.execute(uri: "/boom", method: .get) { answer in
                #expect(answer.status == .internalServerError)
                let text = String(buffer: answer.body)
                #expect(!text.contains("secret") && !text.contains("SecretFailure"))
                let body = Self.json(answer.body)
                #expect(body["kind"] as? String == "internal")
                let id = try #require(body["request"] as? String)
                #expect((body["error"] as? String)?.contains(id) == true)
                let logged = try #require(log.lines.first { $0.message == "request failed" })
                #expect(logged.level == .error)
                #expect(logged.metadata["hb.request.id"] == id)
                #expect(logged.metadata["error"]?.contains("/var/secret/path table 42") == true)
                #expect(logged.metadata["path"] == "/boom")
            }
        }
    }
}

/// The router framework sends every request to authority "localhost"; the guard checks the
/// port too, so a test names the Host it means in a header of its own, moved here into the
/// request's authority as a server would have read it.
struct HostFromHeader<Inner: HTTPResponder>: HTTPResponder {
    let inner: Inner

    func respond(to request: Request, context: Inner.Context) async throws -> Response {
        var head = request.head
        head.authority = head.headerFields[.testHost]
        head.headerFields[.testHost] = nil
        return try await inner.respond(to: Request(head: head, body: request.body), context: context)
    }
}

extension HTTPField.Name {
    static var testHost: HTTPField.Name { HTTPField.Name("X-Test-Host")! }
}

extension HTTPFields {
    func replacing(_ name: HTTPField.Name, with value: String) -> HTTPFields {
        var copy = self
        copy[name] = value
        return copy
    }

    func adding(_ name: HTTPField.Name, _ value: String) -> HTTPFields {
        var copy = self
        copy.append(HTTPField(name: name, value: value))
        return copy
    }
}
