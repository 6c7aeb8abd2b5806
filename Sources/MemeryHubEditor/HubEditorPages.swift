public import Foundation
public import Hummingbird
public import MemeryHub
import HTTPTypes
import Logging
import MemeryHTTP
import MemeryHubClient
import MemeryServer
import NIOCore

/// The editor on a hub (`memery hub --cache-dir`): the same files and API as `memery serve`,
/// for the signed-in person over their working copy. Signed out, `/` is the sign-in page and
/// the API answers 401. A change is acknowledged once its push to PostgreSQL is committed:
/// if the sync after it fails, the answer says the change may not be saved and the copy is
/// let go (it may hold an edit the database lacks).
public final class HubEditorPages: HubPages {
    /// How often an open page's event stream asks whether its session still holds.
    static let sessionCheckEvery: Duration = .seconds(2)

    let copies: WorkingCopies
    let files: EditorFiles
    let renders: FairRenders
    let maxUploadBytes: Int

    /// `cacheDirectory`: where the working copies live; `cacheBytes`: how much they may take.
    /// `renderSlots`: how many renders run at once, everyone's together (the cores).
    public init(cacheDirectory: URL, cacheBytes: Int64, maxUploadBytes: Int = 64 << 20,
                renderSlots: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)) throws {
        files = try EditorFiles.shipped()
        renders = FairRenders(slots: renderSlots)
        self.maxUploadBytes = maxUploadBytes
        var settings = ServerSettings(host: "hub", maxBodyBytes: maxUploadBytes, allowsPrivateLinks: false)
        settings.servedByHub = true
        copies = try WorkingCopies(folder: cacheDirectory, budgetBytes: cacheBytes, settings: settings, files: files)
    }

    public func hubStarted(at address: String, signals: HubSignals, sync: HubLocalSync) {
        Task { await copies.started(at: address, signals: signals, sync: sync) }
    }

    /// The editor's script, style and pictures are the same for everyone, signed in or not.
    public func needsPerson(_ request: Request) -> Bool {
        !((request.method == .get || request.method == .head) && request.uri.path.hasPrefix("/app/"))
    }

    public func respond(to request: Request, from visitor: HubVisitor) async throws -> Response {
        let path = request.uri.path
        // The editor's own files need no copy: the page shows while the copy is built.
        if !needsPerson(request) { return try files.answer(String(path.dropFirst())) }
        if request.method == .get || request.method == .head, path == "/" || path == "/index.html" {
            return try files.answer(visitor.person == nil ? "signin.html" : "index.html")
        }
        guard let person = visitor.person else {
            return EditorResponder.problem(.unauthorized, "sign in first: open this hub's address in a browser", kind: "signedOut")
        }
        let copy: WorkingCopy
        do {
            copy = try await copies.copy(for: person)
        } catch let error as HubClientError where error.status == 401 {
            return EditorResponder.problem(.unauthorized, "sign in again: this browser's session has ended", kind: "signedOut")
        } catch {
            // The reason is the operator's (it may name the hub's folders); the page is told what to do.
            visitor.logger.error("a working copy could not be opened", metadata: ["user": "\(person.user)", "error": "\(error)"])
            return EditorResponder.problem(.serviceUnavailable, "your creations could not be opened on this hub just now: try again in a moment (the hub's log says why)",
                                           kind: "hub")
        }
        let changes = ![.get, .head].contains(request.method)
        var response: Response
        do {
            // A pull under way (a push from elsewhere) lands before a change is decided.
            if changes { await copy.settled() }
            let (editor, channel, logger) = (copy.editor, visitor.channel, visitor.logger)
            let sessionEnded: @Sendable () async -> Void = { [copies] in await Self.untilSignedOut(person, copies: copies) }
            if FairRenders.renders(request) {
                // The upload arrives before its turn: a slow connection must not hold a slot.
                var request = request
                if ![.get, .head].contains(request.method) {
                    do {
                        _ = try await request.collectBody(upTo: maxUploadBytes)
                    } catch let error as HTTPError where error.status == .contentTooLarge {
                        copy.end()
                        return EditorResponder.problem(.contentTooLarge, "the picture is larger than this hub takes (\(maxUploadBytes >> 20) MB): send a smaller one",
                                                       kind: "tooLarge")
                    }
                }
                let gone = ClientGone(on: channel), arrived = request
                response = try await renders.run(for: person.user) {
                    // A page closed while its render waited: nobody would see it.
                    guard !gone.isGone else { return EditorResponder.problem(.requestTimeout, "the page that asked has gone", kind: "gone") }
                    return try await editor.respond(to: arrived, channel: channel, logger: logger)
                }
            } else {
                response = try await editor.respond(to: request, channel: channel, logger: logger, sessionEnded: sessionEnded)
            }
        } catch {
            copy.end()
            throw error
        }
        guard changes, (200..<300).contains(response.status.code) else {
            // An event stream keeps its copy in use until it ends, so it is not let go under a page.
            if response.headers[.contentType]?.hasPrefix("text/event-stream") == true {
                let body = response.body
                response.body = ResponseBody(contentLength: body.contentLength) { writer in
                    defer { copy.end() }
                    try await body.write(writer)
                }
            } else {
                copy.end()
            }
            return response
        }
        // The edit is in the copy: it counts once PostgreSQL has it.
        do {
            copy.editor.storeChanged()  // the person's other pages on this hub
            try await copy.sync()
            copy.end()
            return response
        } catch {
            // Out of use before it is let go: letting go waits for the requests using it.
            copy.end()
            await copies.discard(copy)
            let failure = error as? HubClientError
            let status: HTTPResponse.Status = failure?.status == 413 ? .contentTooLarge : failure?.status == 401 ? .unauthorized : .serviceUnavailable
            // The push may have been committed before its answer was lost, or the pull after it failed.
            return EditorResponder.problem(status, "this change may not have been saved: the hub could not confirm it (\(failure?.description ?? "\(error)")); reload to see what it holds",
                                kind: status == .unauthorized ? "signedOut" : "notSaved")
        }
    }

    /// Returns once `person`'s session has ended (signed out on another device, or the
    /// password changed), or when cancelled. Asked every `sessionCheckEvery`: nothing while
    /// the hub's session cache holds the session, and a notice of its end, from any hub,
    /// empties the cache. A database that does not answer ends nothing.
    static func untilSignedOut(_ person: HubPerson, copies: WorkingCopies) async {
        while true {
            do { try await Task.sleep(for: sessionCheckEvery) } catch { return }
            guard let sync = await copies.sync else { continue }
            if (try? await sync.session(token: person.token).holds()) == false { return }
        }
    }
}
