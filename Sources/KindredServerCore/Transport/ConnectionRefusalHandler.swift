import NIOCore

/// The whole pipeline of a connection beyond `ConnectionSettings.maxConnections`: answers
/// `503 too_many_connections` with `Retry-After: 1` and `Connection: close` at once, then closes.
///
/// A plain close (or not accepting) would leave a client unable to tell a full server from a
/// broken one, and a queue of unaccepted connections would hold clients in the backlog; the
/// answer is a few hundred bytes and costs no request parsing. So that the answer is read
/// rather than lost to a reset, the handler half-closes its side after writing, discards what
/// the client sends, and closes when the client closes its side or after `linger`, whichever
/// comes first.
final class ConnectionRefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// The exact bytes of the answer.
    static let response: String = {
        let body = #"{"error":{"code":"too_many_connections","message":"the server has too many open connections; retry shortly"}}"#
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + body
    }()

    private let linger: TimeAmount
    private var answered = false
    private var closing: Scheduled<Void>?

    /// Creates the handler; the connection closes at the latest `linger` after the answer.
    init(linger: TimeAmount = .seconds(1)) {
        self.linger = linger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { answer(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        answer(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The client's request is not read: it is discarded.
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing?.cancel()
        closing = nil
        context.fireChannelInactive()
    }

    private func answer(_ context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        context.writeAndFlush(NIOAny(ByteBuffer(string: Self.response))).assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
        }
        closing = context.eventLoop.assumeIsolated().scheduleTask(in: linger) {
            context.close(promise: nil)
        }
    }
}
