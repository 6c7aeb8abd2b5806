import AsyncHTTPClient
import Foundation
import MemeryCore
import NIOCore
import NIOHTTP1

/// Takes a picture from a link: http or https only, within a time limit (20 s) and a size
/// limit (64 MB), following a few redirects, each hop's host resolved once and checked by
/// `policy` before anything connects, the connection pinned to the address checked (AHC's
/// dnsOverride, so TLS still verifies the host's own name). The bytes are judged before
/// they are handed on; decoding them is the caller's, in the helper process like any picture
/// from outside.
public struct PictureDownloader: Sendable {
    public static let defaultSeconds = 20
    public static let defaultMaxMB = 64

    public var resolver: any HostResolving
    public var policy: LinkAddressPolicy
    public var seconds: Int
    public var maxBytes: Int
    public var maxRedirects: Int

    public init(resolver: any HostResolving = SystemHostResolver(), policy: LinkAddressPolicy,
                seconds: Int = defaultSeconds, maxMB: Int = defaultMaxMB, maxRedirects: Int = 5) {
        self.resolver = resolver; self.policy = policy; self.seconds = seconds
        self.maxBytes = maxMB * 1_048_576; self.maxRedirects = maxRedirects
    }

    public struct Download: Sendable {
        /// The picture's bytes, not yet decoded.
        public var data: Data
        /// The link as given, and where it led after redirects.
        public var url: String
        public var finalURL: String
        /// The link's last part ("cat.jpg"), for messages and the picture's source name.
        public var fileName: String
    }

    public func download(_ link: String) async throws -> Download { try await get(link, picture: true) }

    /// A link's picture, with the link kept as where it came from.
    public func picture(_ link: String) async throws -> PictureBytes {
        let got = try await download(link)
        return PictureBytes(data: got.data, name: got.fileName, origin: PictureOrigin(url: got.url))
    }

    /// A site's answer that is not a picture (a search API's JSON), within the same limits and
    /// with the same checks on where the link leads.
    public func answer(_ link: String) async throws -> Data { try await get(link, picture: false).data }

    func get(_ link: String, picture: Bool) async throws -> Download {
        let url = try Self.checkedLink(link)
        let seconds = self.seconds
        do {
            return try await withThrowingTaskGroup(of: Download?.self) { group in
                group.addTask { try await follow(url, asked: link, picture: picture) }
                group.addTask { try await Task.sleep(for: .seconds(seconds)); return nil }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let done = first else { throw DownloadError.tooSlow(url: link, seconds: seconds) }
                return done
            }
        } catch is CancellationError {
            throw DownloadError.cancelled(url: link)  // the person cancelled (the page went, Ctrl-C)
        }
    }

    /// An http(s) link with a host, else the error that says what is wrong with it.
    static func checkedLink(_ text: String) throws -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased() else { throw DownloadError.notALink(text) }
        guard scheme == "http" || scheme == "https" else { throw DownloadError.schemeNotAllowed(url: trimmed, scheme: scheme) }
        guard let host = url.host, !host.isEmpty else { throw DownloadError.notALink(text) }
        return url
    }

    func follow(_ start: URL, asked: String, picture: Bool) async throws -> Download {
        var url = start
        for _ in 0...maxRedirects {
            let url0 = url
            switch try await fetch(url0, picture: picture) {
            case let .picture(data):
                return Download(data: data, url: asked, finalURL: url0.absoluteString, fileName: DownloadedBytes.fileName(of: url0))
            case let .redirect(location):
                guard let next = URL(string: location, relativeTo: url0)?.absoluteURL else { throw DownloadError.notALink(location) }
                url = try Self.checkedLink(next.absoluteString)
            }
        }
        throw DownloadError.tooManyRedirects(url: asked, limit: maxRedirects)
    }

    enum Hop { case picture(Data), redirect(String) }

    /// One request: the host checked and pinned, the answer read within the size limit. A
    /// client per hop, because the address checked is pinned in the client's configuration
    /// (`dnsOverride`): a shared client would resolve the host again when it connects, and a
    /// name that answers differently the second time could lead into a private network.
    func fetch(_ url: URL, picture: Bool) async throws -> Hop {
        let host = url.host ?? ""
        let address = try await checkedAddress(of: host)
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.timeout.connect = .seconds(10)
        // One attempt: a site that refuses is said at once, not retried until the time is up.
        configuration.connectionPool.retryConnectionEstablishment = false
        if address != host { configuration.dnsOverride = [host: address] }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let hop = try await fetch(url, with: client, picture: picture)
            try? await client.shutdown()
            return hop
        } catch {
            try? await client.shutdown()
            throw plain(error, url: url.absoluteString)
        }
    }

    func fetch(_ url: URL, with client: HTTPClient, picture: Bool) async throws -> Hop {
        let text = url.absoluteString
        var request = HTTPClientRequest(url: text)
        request.headers.add(name: "User-Agent", value: "Memery (a meme maker; taking a picture from a link)")
        request.headers.add(name: "Accept", value: picture ? "image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8,*/*;q=0.5" : "application/json")
        let response = try await client.execute(request, timeout: .seconds(Int64(seconds)))
        if [301, 302, 303, 307, 308].contains(response.status.code), let location = response.headers.first(name: "location") {
            return .redirect(location)
        }
        guard (200..<300).contains(response.status.code) else {
            throw DownloadError.httpStatus(url: text, status: Int(response.status.code), reason: response.status.reasonPhrase)
        }
        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maxBytes {
            throw DownloadError.tooBig(url: text, limitMB: maxBytes / 1_048_576)
        }
        var data = Data()
        for try await chunk in response.body {
            guard data.count + chunk.readableBytes <= maxBytes else { throw DownloadError.tooBig(url: text, limitMB: maxBytes / 1_048_576) }
            data.append(contentsOf: chunk.readableBytesView)
        }
        guard !data.isEmpty else { throw DownloadError.empty(url: text) }
        if picture, let kind = NotAPicture.kind(of: data) { throw DownloadError.notAPicture(url: text, looksLike: kind) }
        return .picture(data)
    }

    /// The address to connect to: the host itself when it is one, else the first address it
    /// resolves to that the policy allows; refused when it allows none.
    func checkedAddress(of host: String) async throws -> String {
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let addresses = LinkAddressPolicy.isAddress(literal) ? [literal] : try await resolver.addresses(of: host)
        guard let first = addresses.first else { throw DownloadError.cannotResolve(host: host, reason: "it has no address") }
        guard let allowed = addresses.first(where: policy.allows) else { throw DownloadError.privateAddress(host: host, address: first) }
        return allowed
    }

    /// AsyncHTTPClient's and NIO's errors in plain words.
    func plain(_ error: any Error, url: String) -> any Error {
        if error is DownloadError { return error }
        if error is CancellationError { return DownloadError.cancelled(url: url) }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return DownloadError.tooSlow(url: url, seconds: seconds)
            case .cancelled: return DownloadError.cancelled(url: url)
            case .remoteConnectionClosed: return DownloadError.cannotConnect(url: url, reason: "the site closed the connection")
            default: break
            }
        }
        let words = String(describing: error)
        if words.contains("connectionRefused") || words.contains("Connection refused") {
            return DownloadError.cannotConnect(url: url, reason: "the site refused the connection")
        }
        if words.lowercased().contains("certificate") || words.contains("handshake") {
            return DownloadError.cannotConnect(url: url, reason: "its secure connection could not be trusted (\(words))")
        }
        return DownloadError.cannotConnect(url: url, reason: words)
    }
}
