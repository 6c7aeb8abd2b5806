/// Why a picture could not be taken from a link, in the words a person needs: what happened
/// and what to do. Nothing is stored when a download fails.
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    case notALink(String)
    case schemeNotAllowed(url: String, scheme: String)
    case cannotResolve(host: String, reason: String)
    case privateAddress(host: String, address: String)
    case cannotConnect(url: String, reason: String)
    case tooSlow(url: String, seconds: Int)
    case tooBig(url: String, limitMB: Int)
    case httpStatus(url: String, status: Int, reason: String)
    case tooManyRedirects(url: String, limit: Int)
    case notAPicture(url: String, looksLike: String)
    case empty(url: String)
    case cancelled(url: String)

    public var description: String {
        switch self {
        case let .notALink(text):
            "\"\(text)\" is not a link: give one starting with https:// or http://"
        case let .schemeNotAllowed(url, scheme):
            "\(url) is a \(scheme): link; Memery downloads pictures over https:// or http:// only"
        case let .cannotResolve(host, reason):
            "could not find the site \(host) (\(reason)): check the link and your connection"
        case let .privateAddress(host, address):
            (host == address || host == "[\(address)]" ? "\(address) is" : "\(host) is at \(address),")
                + " an address inside this machine's own network, which links may not reach here"
                + " (the operator may allow it with --allow-private-urls)"
        case let .cannotConnect(url, reason):
            "could not download \(url): \(reason); check your connection and try again"
        case let .tooSlow(url, seconds):
            "\(url) took longer than \(seconds) s to download, so it was stopped: try again, or save the picture and give its file"
        case let .tooBig(url, limitMB):
            "\(url) is larger than \(limitMB) MB, the most Memery downloads (--max-download-mb to allow more)"
        case let .httpStatus(url, status, reason):
            "the site answered \(status) \(reason) for \(url)" + (status == 404 ? ": the picture is not there (any more)" : "")
        case let .tooManyRedirects(url, limit):
            "\(url) sent Memery on more than \(limit) times (redirects), so it stopped: give the picture's own link"
        case let .notAPicture(url, looksLike):
            "\(url) is \(looksLike), not a picture: open it in a browser and copy the picture's own link (right-click, Copy image address)"
        case let .empty(url):
            "\(url) sent nothing: the link gives no picture"
        case let .cancelled(url):
            "the download of \(url) was cancelled; nothing was stored"
        }
    }
}
