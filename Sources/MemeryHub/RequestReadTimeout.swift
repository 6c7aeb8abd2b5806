import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request arrives too slowly: a request's head must come within
/// `headTimeout` of the connection opening (or of the last answer), and its body at no less
/// than `minimumRate` on average after a first `headTimeout` of grace. A client that
/// trickles bytes to hold connections open is cut off; one that sends at any real
/// network's pace is not. (An idle timeout alone is reset by every byte.)
final class RequestReadTimeout: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let headTimeout: TimeAmount
    /// Bytes a second a body must average.
    let minimumRate: Int64
    private var deadline: Scheduled<Void>?
    private var bodyStarted: NIODeadline?
    private var bodyBytes: Int64 = 0
    /// The largest body any route takes (BodyLimits.upload), with room for chunk framing.
    static let mostBytes: Int64 = 100 << 20

    init(headTimeout: TimeAmount, minimumRate: Int64 = 16 << 10) {
        self.headTimeout = headTimeout
        self.minimumRate = minimumRate
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { schedule(context, in: headTimeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        schedule(context, in: headTimeout)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            bodyStarted = .now()
            bodyBytes = 0
            schedule(context, in: headTimeout)
        case .body(let buffer):
            bodyBytes += Int64(buffer.readableBytes)
            // No route takes more than an upload: a body past it (one Hummingbird would read
            // and throw away after answering, say) ends the connection.
            if bodyBytes > Self.mostBytes {
                context.close(promise: nil)
                return
            }
            if let started = bodyStarted {
                // The grace, then as long as the bytes so far take at the minimum rate
                // (whole seconds: no product that could overflow).
                let allowed = headTimeout + .seconds(bodyBytes / minimumRate)
                let left = started + allowed - .now()
                schedule(context, in: max(left, .milliseconds(1)))
            }
        case .end:
            bodyStarted = nil
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            // The next request's head must come in time too (a kept-alive connection).
            let context = context
            context.write(data, promise: promise)
            if bodyStarted == nil { schedule(context, in: headTimeout) }
            return
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    private func schedule(_ context: ChannelHandlerContext, in amount: TimeAmount) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: amount) {
            channel.close(promise: nil)
        }
    }
}
