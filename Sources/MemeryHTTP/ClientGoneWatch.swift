public import NIOCore
import Synchronization

/// Notices a client that closed its side of the connection while its answer is being made
/// (a page closed). Hummingbird allows half-closed connections and does not cancel a
/// handler, so neither the handler's task nor `closeFuture` hears of it until the answer is
/// written; NIO's `inputClosed` event, seen here, does. (A client that half-closes and still
/// reads is taken as gone too; browsers do not do that.) Touched only on its event loop.
public final class ClientGoneWatch: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    public typealias InboundIn = NIOAny

    public init() {}

    private var gone = false
    private var waiting: [@Sendable () -> Void] = []

    /// Calls `body` (on the event loop) once the client has gone; at once if it has.
    public func whenGone(_ body: @escaping @Sendable () -> Void) {
        if gone { body() } else { waiting.append(body) }
    }

    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed? = event as? ChannelEvent { markGone() }
        context.fireUserInboundEventTriggered(event)
    }

    public func channelInactive(context: ChannelHandlerContext) {
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

/// Whether the client of a connection has gone, for work that waits its turn: asked before
/// it starts, so nobody's slot goes to a page already closed. Never gone on a connection
/// without a `ClientGoneWatch`.
public final class ClientGone: Sendable {
    private let gone = Atomic(false)

    public init(on channel: any Channel) {
        channel.pipeline.handler(type: ClientGoneWatch.self).whenSuccess { [self] watch in
            watch.whenGone { self.gone.store(true, ordering: .relaxed) }
        }
    }

    public var isGone: Bool { gone.load(ordering: .relaxed) }
}
