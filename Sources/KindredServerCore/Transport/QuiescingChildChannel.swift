import HummingbirdCore
import Logging
import NIOCore

/// A server child channel that finishes every connection when the server shuts down, even one
/// that had not sent a whole request head when the shutdown began.
///
/// At a graceful shutdown the server sends each open connection a `ChannelShouldQuiesceEvent`.
/// Hummingbird's `HTTPConnectionStateHandler` acts on it: it closes an idle connection, and one
/// answering a request after the answer. With the WebSocket upgrade, that handler joins the
/// pipeline only once the first request head has been read and found not to be an upgrade.
/// Before that (a new connection, or a head still arriving) nothing acted on the event: the
/// connection stayed open, kept alive request after request, and the shutdown waited for it
/// as long as its client kept using it.
///
/// `QuiesceGuard`, first in every pipeline, closes a connection that has sent nothing yet, and
/// otherwise repeats the event until the connection closes, so the state handler gets it once
/// it is there.
struct QuiescingChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandler(QuiesceGuard(), position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// The first handler of a connection's pipeline: see `QuiescingChildChannel`.
final class QuiesceGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// How often the event is repeated to a connection that received bytes before it.
    static let repeatInterval = TimeAmount.milliseconds(50)

    private var hasReceivedBytes = false
    private var repeating: RepeatedTask?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        hasReceivedBytes = true
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard hasReceivedBytes else {
            // No request has begun: nothing to answer.
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
        guard repeating == nil else { return }
        // The handlers that act on it may join the pipeline later (when the first head is
        // complete); an event they get twice changes nothing.
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        repeating = context.eventLoop.scheduleRepeatedTask(
            initialDelay: Self.repeatInterval, delay: Self.repeatInterval
        ) { task in
            let context = bound.value
            guard context.channel.isActive else {
                task.cancel()
                return
            }
            context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        repeating?.cancel()
        repeating = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        repeating?.cancel()
        repeating = nil
    }
}
