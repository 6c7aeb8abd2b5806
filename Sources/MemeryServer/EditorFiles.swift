import Foundation
import HTTPTypes
import Hummingbird
import Memery
import NIOCore

/// The editor's own files (HTML, CSS, JavaScript modules), served from the folder that
/// ships beside the binary. Only names listed in the folder are served: nothing outside it
/// can be reached.
public struct EditorFiles: Sendable {
    /// Name → (bytes, media type), read once at start.
    let files: [String: (data: Data, type: String)]

    init(folder: URL) throws {
        var files = [String: (Data, String)]()
        guard let names = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw EditorFilesMissing(folder: "in \(folder.path)")
        }
        let root = folder.standardizedFileURL.path
        for case let url as URL in names where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.count + 1))
            files[relative] = (try Data(contentsOf: url), Self.mediaType(url.pathExtension))
        }
        guard files["index.html"] != nil else { throw EditorFilesMissing(folder: "in \(folder.path)") }
        self.files = files
    }

    /// Where the editor's folder is (InstalledFiles: a build's bundle, an install's share folder).
    static func locate() throws -> URL {
        guard let found = InstalledFiles.editorFolder else { throw EditorFilesMissing(folder: "beside the memery binary and in PREFIX/share/memery/editor") }
        return found
    }

    func add(to router: Router<ServerContext>) {
        router.get("/") { _, _ in try self.response(for: "index.html") }
        router.get("app/**") { request, _ in try self.response(for: String(request.uri.path.dropFirst())) }
    }

    func response(for name: String) throws -> Response {
        guard let file = files[name] else { throw APIError(.notFound, "no such file of the editor: \(name)") }
        return BytesAnswer.response(file.data, type: file.type, cache: "no-cache")
    }

    static func mediaType(_ ext: String) -> String {
        switch ext.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "json": "application/json"
        case "webmanifest": "application/manifest+json"
        default: "application/octet-stream"
        }
    }
}

/// The editor's files are not where the binary expects them.
public struct EditorFilesMissing: Error, CustomStringConvertible {
    public var folder: String
    public var description: String {
        "the web editor's files are missing (looked \(folder)): keep the folder Memery_MemeryServer.resources beside a built memery binary, install with `make install`, or set MEMERY_EDITOR_DIR to the Editor folder"
    }
}
