import HTTPTypes
import Hummingbird
import MemeryHubProtocol

/// How much of a body the hub reads, decided from the route and the sender before a byte of
/// it is read: anyone may send a small body (a login, a sign-up: 64 kB); only the two upload
/// routes (a push, a picture) take large ones, and a body larger than a usual push (1 MB)
/// is read only once its session is known. A body announced larger than the route takes is
/// refused (413) with nothing read; one that grows past it unannounced is cut off there.
struct BodyLimits<Context: RequestContext>: RouterMiddleware {
    let accounts: Accounts
    static var small: Int { 64 << 10 }
    static var unchecked: Int { 1 << 20 }
    static var upload: Int { 96 << 20 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get && request.method != .head else { return try await next(request, context) }
        let isUpload = Self.isUpload(request)
        let limit = isUpload ? Self.upload : Self.small
        let announced = request.headers[.contentLength].flatMap(Int.init)
        if let announced, announced > limit {
            throw HubError(.contentTooLarge, "too-large", isUpload
                ? "the body is larger than the hub takes (\(limit >> 20) MB): send smaller pushes"
                : "this route takes a body of at most \(limit >> 10) kB")
        }
        if isUpload, announced ?? .max > Self.unchecked {
            // Before the request's own deadline starts: a database that is down is said in 10 s.
            let headers = request.headers, accounts = accounts
            try await Deadline.run(.seconds(10), failing: HubError(.serviceUnavailable, "unavailable", "the hub's database did not answer: try again later")) {
                _ = try await accounts.signedIn(headers)
            }
        }
        var request = request
        do {
            _ = try await request.collectBody(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw HubError(.contentTooLarge, "too-large", "this route takes a body of at most \(limit >> 10) kB")
        }
        return try await next(request, context)
    }

    static func isUpload(_ request: Request) -> Bool {
        let path = request.uri.path
        return (request.method == .post && path == HubPaths.events) || (request.method == .put && path.hasPrefix(HubPaths.blobs + "/"))
    }
}
