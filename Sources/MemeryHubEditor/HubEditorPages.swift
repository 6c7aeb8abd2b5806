public import Foundation
public import Hummingbird
public import MemeryHub
import HTTPTypes
import MemeryHubClient
import MemeryServer
import NIOCore

/// The editor on a hub (`memery hub --cache-dir`): the same files and API as `memery serve`,
/// for the signed-in person over their working copy. Signed out, `/` is the sign-in page and
/// the API answers 401. A change is acknowledged once its push to PostgreSQL is committed:
/// if the push fails, the answer says so and the copy is let go (it held an edit the
/// database lacks).
public final class HubEditorPages: HubPages {
    let copies: WorkingCopies
    let files: EditorFiles

    /// `cacheDirectory`: where the working copies live; `cacheBytes`: how much they may take.
    public init(cacheDirectory: URL, cacheBytes: Int64, maxUploadBytes: Int = 64 << 20) throws {
        files = try EditorFiles.shipped()
        var settings = ServerSettings(host: "hub", maxBodyBytes: maxUploadBytes, allowsPrivateLinks: false)
        settings.servedByHub = true
        copies = try WorkingCopies(folder: cacheDirectory, budgetBytes: cacheBytes, settings: settings, files: files)
    }

    public func hubStarted(at address: String) {
        Task { await copies.started(at: address) }
    }

    public func respond(to request: Request, from visitor: HubVisitor) async throws -> Response {
        let path = request.uri.path
        guard let person = visitor.person else {
            if path == "/" || path == "/index.html" { return try files.answer("signin.html") }
            if path.hasPrefix("/app/") { return try files.answer(String(path.dropFirst())) }
            return Self.problem(.unauthorized, "sign in first: open this hub's address in a browser", kind: "signedOut")
        }
        let copy: WorkingCopy
        do {
            copy = try await copies.copy(for: person)
        } catch {
            return Self.problem(.serviceUnavailable, "your creations could not be opened on this hub (\(error)): try again in a moment", kind: "hub")
        }
        defer { copy.end() }
        let changes = ![.get, .head].contains(request.method)
        // A pull under way (a push from elsewhere) lands before a change is decided.
        if changes { await copy.settled() }
        let response = try await copy.editor.respond(to: request, channel: visitor.channel, logger: visitor.logger)
        guard changes, (200..<300).contains(response.status.code) else { return response }
        // The edit is in the copy: it counts once PostgreSQL has it.
        do {
            try await copy.sync()
            return response
        } catch {
            await copies.discard(copy)
            let status: HTTPResponse.Status = (error as? HubClientError)?.status.map { HTTPResponse.Status(code: $0) } ?? .serviceUnavailable
            let reason = (error as? HubClientError)?.description ?? "\(error)"
            return Self.problem(status.code == 413 ? .contentTooLarge : .serviceUnavailable,
                                "this change was not saved: the hub could not store it (\(reason)); reload and try again", kind: "notSaved")
        }
    }

    static func problem(_ status: HTTPResponse.Status, _ message: String, kind: String) -> Response {
        let body = (try? JSONSerialization.data(withJSONObject: ["error": message, "kind": kind], options: [.sortedKeys])) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
