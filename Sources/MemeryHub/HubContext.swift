import Hummingbird
import HummingbirdAuth
import NIOCore

/// What each request carries to its route: where it came from, for the login limits, and
/// who is signed in, for the routes behind `SignedInOnly`.
struct HubContext: AuthRequestContext {
    var coreContext: CoreRequestContextStorage
    var identity: SignedIn?
    /// The peer's IP address, as the login limit counts addresses.
    let peerAddress: String
    /// The connection, for the pages (`HubPages`), which answer on it.
    let channel: any Channel
    /// A push of a few thousand events, or one picture, fits; larger ones are refused at once.
    var maxUploadSize: Int { 96 << 20 }

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        channel = source.channel
    }
}
