import Hummingbird
import HummingbirdAuth

/// The routes that need a login sit in a group behind this: it finds the bearer token's
/// session (one statement) and hands the route the person as `context.who`, or answers 401
/// before the route runs. A sync's push and pull are not behind it: they check their
/// session in the same statement as their work, so a session revoked mid-request cannot
/// slip between the two.
struct SignedInOnly: AuthenticatorMiddleware {
    typealias Context = HubContext
    let accounts: Accounts

    func authenticate(request: Request, context: HubContext) async throws -> SignedIn? {
        try await accounts.signedIn(request.headers)
    }
}

extension HubContext {
    /// The signed-in person: set by `SignedInOnly` for the routes behind it.
    var who: SignedIn {
        get throws {
            guard let identity else { throw HubError.unauthorized }
            return identity
        }
    }
}
