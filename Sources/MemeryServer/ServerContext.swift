import Hummingbird
import Logging
import Memery
import MemeryHTTP
import NIOCore

/// What each request carries through the middleware to its route.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The body limit, as `memery serve` was told (Hummingbird's decoders read it too).
    var maxUploadSize: Int { bodyLimit }
    var bodyLimit = 64 << 20

    /// The connection the request came on.
    let channel: any Channel

    /// On a hub, returns once the session this request came with has ended (signed out on
    /// another device, or the password changed), and when cancelled: the page's event
    /// stream then tells it at once. Nil for `memery serve`, whose token lasts the process.
    var sessionEnded: (@Sendable () async -> Void)?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// A render for this request, cancelled when its client goes (the page that asked was
    /// closed or moved on): the filter at work is asked to stop, and the cores go to
    /// pictures someone still waits for.
    /// Calls `body` once the client has gone (the page closed, or its request aborted).
    func whenClientGone(_ body: @escaping @Sendable () -> Void) {
        channel.pipeline.handler(type: ClientGoneWatch.self).whenSuccess { watch in watch.whenGone(body) }
    }

    func renderCancellation() -> ReadCancellation {
        let cancellation = ReadCancellation()
        whenClientGone { cancellation.cancel() }
        return cancellation
    }
}
