import NIOCore

/// Notices a client that closed its side of the connection while its answer is being made
/// (a page closed). Hummingbird allows half-closed connections and does not cancel a
/// handler, so neither the handler's task nor `closeFuture` hears of it until the answer is
/// written; NIO's `inputClosed` event, seen here, does. (A client that half-closes and still
/// reads is taken as gone too; browsers do not do that.) Touched only on its event loop.
final class ClientGoneWatch: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny

    private var gone = false
    private var waiting: [@Sendable () -> Void] = []

    /// Calls `body` (on the event loop) once the client has gone; at once if it has.
    func whenGone(_ body: @escaping @Sendable () -> Void) {
        if gone { body() } else { waiting.append(body) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed? = event as? ChannelEvent { markGone() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        markGone()
        context.fireChannelInactive()
    }

    private func markGone() {
        guard !gone else { return }
        gone = true
        let calls = waiting
        waiting = []
        for call in calls { call() }
    }
}
