import Foundation

/// What a download's bytes are, judged by the bytes and not by what the site says they are
/// (Content-Type is often wrong, and a link to a page that shows a picture is the commonest
/// mistake). Only what is certainly not a picture is named here; anything else goes to the
/// decoder, in its helper process, which names its own refusal.
enum DownloadedBytes {
    /// "a web page (HTML)", "JSON data", … or nil when the bytes may be a picture.
    static func notAPicture(_ data: Data) -> String? {
        var start = data.prefix(512)
        if start.starts(with: [0xEF, 0xBB, 0xBF]) { start = start.dropFirst(3) }
        let text = String(decoding: start.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }, as: UTF8.self).lowercased()
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.hasPrefix("<head") || text.hasPrefix("<body")
            || text.hasPrefix("<!--") && text.contains("<html") {
            return "a web page (HTML)"
        }
        if text.hasPrefix("<?xml") && !text.contains("<svg") && !text.contains("svg") { return "an XML document" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "JSON data" }
        if data.starts(with: Array("%PDF".utf8)) { return "a PDF document" }
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "a ZIP archive" }
        return nil
    }

    /// A name for the picture in messages and as its source name: the link's last part, else the site.
    static func fileName(of url: URL) -> String {
        let last = url.lastPathComponent.removingPercentEncoding ?? url.lastPathComponent
        return last.isEmpty || last == "/" ? (url.host ?? "download") : last
    }
}
