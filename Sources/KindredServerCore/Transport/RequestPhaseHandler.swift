import NIOCore
import NIOHTTP1

/// Where a connection's current request is, as told to `ConnectionDeadlineHandler` by
/// `RequestPhaseHandler`: an outbound user event, so it travels from the HTTP layer down to
/// the first handler of the pipeline.
enum ConnectionPhase: Sendable, Equatable {
    /// A request head is complete; its body (if any) is being read.
    case requestHead
    /// The request's last byte was read.
    case requestEnd
    /// The response's last part was written.
    case responseEnd
    /// The server answered `101 Switching Protocols`: the connection is a WebSocket now, and
    /// the realtime heartbeats (not these deadlines) watch it.
    case upgraded
    /// The request decoder refused the bytes (an `HTTPParserError`, such as a NUL byte in a
    /// header): nothing above it will answer, so `ConnectionDeadlineHandler` answers 400 and
    /// closes (before, the connection waited for the head deadline's 408).
    case malformed
}

/// Watches the HTTP/1.1 parts of a connection right after the request decoder and reports the
/// request's progress (`ConnectionPhase`) to `ConnectionDeadlineHandler`.
///
/// It sits before the WebSocket upgrade handler, so it sees the first request of every
/// connection (which the upgrade handler buffers) and the `101` answer. After an upgrade the
/// HTTP decoder is gone and raw WebSocket bytes pass through it: its message types are `Any`
/// for that reason, and anything that is not an HTTP part is passed on untouched.
final class RequestPhaseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Any
    typealias InboundOut = Any
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) as? HTTPServerRequestPart {
        case .head: context.triggerUserOutboundEvent(ConnectionPhase.requestHead, promise: nil)
        case .end: context.triggerUserOutboundEvent(ConnectionPhase.requestEnd, promise: nil)
        case .body, nil: break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError { context.triggerUserOutboundEvent(ConnectionPhase.malformed, promise: nil) }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data) as? HTTPServerResponsePart
        context.write(data, promise: promise)
        switch part {
        case .head(let head) where head.status == .switchingProtocols:
            context.triggerUserOutboundEvent(ConnectionPhase.upgraded, promise: nil)
        case .end:
            context.triggerUserOutboundEvent(ConnectionPhase.responseEnd, promise: nil)
        case .head, .body, nil:
            break
        }
    }
}
