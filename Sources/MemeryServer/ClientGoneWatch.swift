import NIOCore

/// Notices a client that closed its side of the connection while its answer is being made
/// (a page closed, or the editor asked for a newer preview). Hummingbird keeps connections
/// half-open and reads nothing more until the answer is written, so neither the handler's
/// task nor `closeFuture` hears of it; NIO's `inputClosed` event, seen here, does.
/// Touched only on its channel's event loop.
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
