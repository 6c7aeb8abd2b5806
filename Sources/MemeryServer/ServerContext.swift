import Hummingbird
import Logging
import NIOCore

/// What each request carries through the middleware to its route.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The body limit, as `memery serve` was told (Hummingbird's decoders read it too).
    var maxUploadSize: Int { bodyLimit }
    var bodyLimit = 64 << 20

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}
