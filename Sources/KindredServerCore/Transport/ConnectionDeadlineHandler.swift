import NIOCore

/// The first handler of every connection's pipeline: closes a connection that stays idle, or
/// whose request head or body arrives too slowly (a slowloris), per `ConnectionSettings`.
///
/// Deadlines are absolute, not reset by each byte, so a client trickling one byte at a time is
/// closed as surely as a silent one:
/// - **idle** (`idleTimeout`): from the connection's start, and from the end of each exchange,
///   until the first byte of the next request. Closed without an answer.
/// - **head** (`requestHeadTimeout`): from that first byte until the head is complete. Answered
///   `408 request_timeout` (the server has written nothing yet) and closed.
/// - **body** (`requestBodyTimeout`): from the complete head until the request's last byte.
///   Closed (a response may be under way, so nothing is written).
/// While a request is being answered no deadline runs (a handler may take its time), and after
/// a WebSocket upgrade none does (the realtime heartbeats take over).
/// - **write stall** (`writeStallTimeout`), in every phase: from the moment the channel stops
///   being writable (the client does not read, so the socket's send buffer and the channel's
///   outbound bytes pass the high-water mark) until it is writable again. A client that reads
///   its answer slowly keeps its connection; one that stops reading is closed. Writers above
///   (Hummingbird's response writer, the realtime socket) wait on writability, so the bytes held
///   for a stalled client stay bounded by the water mark while the deadline runs.
///
/// It sees raw bytes; request boundaries come from `RequestPhaseHandler` as `ConnectionPhase`
/// outbound events.
final class ConnectionDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    /// Where the connection is; each phase but `responding` and `upgraded` has a deadline.
    enum Phase: Equatable {
        /// No request in progress (`idleTimeout`).
        case idle
        /// Bytes of a request head arrived; the head is not complete (`requestHeadTimeout`).
        case readingHead
        /// The head is complete; the body is being read (`requestBodyTimeout`).
        case readingBody
        /// The request was read; the server is answering.
        case responding
        /// A WebSocket.
        case upgraded
    }

    private let settings: ConnectionSettings
    /// The current phase (read by the tests).
    private(set) var phase: Phase = .idle
    private var started = false
    /// Requests whose head was read and whose response has not ended (more than one when a
    /// client pipelines, zero after an early answer to a request whose body is still coming).
    private var unanswered = 0
    private var deadline: Scheduled<Void>?
    /// The write-stall deadline, while the channel is not writable.
    private var stall: Scheduled<Void>?

    /// Creates the handler for one connection.
    init(settings: ConnectionSettings) {
        self.settings = settings
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if phase == .idle { enter(.readingHead, context) }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let event = event as? ConnectionPhase else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        switch event {
        case _ where phase == .upgraded:
            break
        case .upgraded:
            enter(.upgraded, context)
        case .requestHead:
            unanswered += 1
            enter(.readingBody, context)
        case .requestEnd where phase == .readingBody:
            enter(unanswered > 0 ? .responding : .idle, context)
        case .responseEnd:
            unanswered = max(0, unanswered - 1)
            // While a body is still coming its deadline keeps running.
            if phase == .responding, unanswered == 0 { enter(.idle, context) }
        case .requestEnd:
            break
        case .malformed:
            refuseMalformed(context)
        }
        promise?.succeed(())
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stall?.cancel()
            stall = nil
        } else if stall == nil {
            stall = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(settings.writeStallTimeout)) { [self] in
                stall = nil
                // Still stuck: the client stopped reading. Nothing can be written to it.
                if context.channel.isActive, !context.channel.isWritable { context.close(promise: nil) }
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        stall?.cancel()
        stall = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
        stall?.cancel()
        stall = nil
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        enter(.idle, context)
    }

    /// Moves to `next` and replaces the deadline with `next`'s (none for `responding` and `upgraded`).
    private func enter(_ next: Phase, _ context: ChannelHandlerContext) {
        phase = next
        cancelDeadline()
        let timeout: Duration
        switch next {
        case .idle: timeout = settings.idleTimeout
        case .readingHead: timeout = settings.requestHeadTimeout
        case .readingBody: timeout = settings.requestBodyTimeout
        case .responding, .upgraded: return
        }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [self] in
            deadline = nil
            expire(context)
        }
    }

    /// A deadline passed: answer a late head with 408, and close.
    private func expire(_ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        if phase == .readingHead {
            let seconds = settings.requestHeadTimeout.components.seconds
            let body = #"{"error":{"code":"request_timeout","message":"the request head did not arrive within \#(seconds) s"}}"#
            let head = "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
            context.writeAndFlush(NIOAny(ByteBuffer(string: head + body))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        } else {
            context.close(promise: nil)
        }
    }

    /// The decoder refused the request: `400 bad_request` when nothing was written yet (the head
    /// was not complete), and close either way (the decoder cannot go on).
    private func refuseMalformed(_ context: ChannelHandlerContext) {
        cancelDeadline()
        guard context.channel.isActive else { return }
        guard phase == .readingHead || phase == .idle else {
            context.close(promise: nil)
            return
        }
        phase = .responding
        let body = #"{"error":{"code":"bad_request","message":"the request is not valid HTTP/1.1"}}"#
        let head = "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        context.writeAndFlush(NIOAny(ByteBuffer(string: head + body))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    private func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}
