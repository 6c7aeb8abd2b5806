import Hummingbird
import Logging

/// One line per request, once it is answered: the method, the path (never the query, which
/// may carry a cursor or a search), the status and how long it took. Hummingbird's own
/// request logger writes before the answer, so it cannot say how it went.
struct LogAnswers<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        func log(_ status: Int) {
            let elapsed = ContinuousClock.now - start
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            context.logger.info("answered", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(status)",
                                                      "ms": "\(Int(ms.rounded()))"])
        }
        do {
            let response = try await next(request, context)
            log(Int(response.status.code))
            return response
        } catch let error as any HTTPResponseError {
            log(Int(error.status.code))
            throw error
        } catch {
            log(500)
            throw error
        }
    }
}
