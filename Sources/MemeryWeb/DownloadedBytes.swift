import Foundation

/// What a download is called: its link's last part. What its bytes are is judged by
/// `NotAPicture` (MemeryCore), as an upload's are.
enum DownloadedBytes {
    /// A name for the picture in messages and as its source name: the link's last part, else the site.
    static func fileName(of url: URL) -> String {
        let last = url.lastPathComponent.removingPercentEncoding ?? url.lastPathComponent
        return last.isEmpty || last == "/" ? (url.host ?? "download") : last
    }
}
