import Foundation

/// How `memery serve` listens and whom it lets in.
public struct ServerSettings: Sendable {
    /// The address to listen on: loopback unless the person asked for another.
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int
    /// The secret every request must carry (in the URL once, then as a cookie, or as a
    /// bearer token): random, 256 bits, new for every run unless given.
    public var token: String
    /// The largest request body, in bytes: an upload beyond it gets 413 and stores nothing.
    public var maxBodyBytes: Int
    /// Whether a picture link may lead into this machine's own network (loopback, private
    /// ranges): yes for the person's own loopback editor; a server others reach refuses them
    /// unless told otherwise (`--allow-private-urls`).
    public var allowsPrivateLinks: Bool
    /// How long a link's download may take, in seconds (20; tests shorten it).
    public var downloadSeconds = 20
    /// True when a hub serves the editor to its signed-in person (`MemeryHubEditor`): share
    /// links are on the page's own origin ("/s/…", which the page completes), and the page
    /// offers signing out.
    public var servedByHub = false
    /// How often a quiet event stream (`/api/events`) says a comment: under the idle
    /// timeouts of proxies (60 s in packaging/haproxy.cfg). 15 s, as the hub's watch stream;
    /// `MEMERY_EVENT_KEEPALIVE_MS` shortens it for tests.
    public var eventKeepAlive: Duration = ProcessInfo.processInfo.environment["MEMERY_EVENT_KEEPALIVE_MS"]
        .flatMap(Int.init).map { .milliseconds(max(10, $0)) } ?? .seconds(15)

    public init(host: String = "127.0.0.1", port: Int = 0, token: String = ServerSettings.newToken(), maxBodyBytes: Int = 64 << 20,
                allowsPrivateLinks: Bool? = nil) {
        self.host = host; self.port = port; self.token = token; self.maxBodyBytes = maxBodyBytes
        self.allowsPrivateLinks = allowsPrivateLinks ?? Self.isLoopback(host)
    }

    /// A fresh token: 32 bytes from the system's cryptographic generator, as hex.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }

    /// True for the addresses only this machine can reach.
    public static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.")
    }

    /// The address to open in a browser, token included.
    public func address(port: Int) -> String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(port)/?token=\(token)"
    }
}
