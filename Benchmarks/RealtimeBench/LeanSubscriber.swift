import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A WebSocket subscriber written straight on SwiftNIO channel handlers: the frame is read,
/// decoded and recorded on the event loop, with no Swift task, async sequence or continuation
/// per message. The benchmark's 1,000 subscribers share the two cores with the server they
/// measure; this keeps the client's share of a delivery small, so commit → delivery measures the
/// server (both the Kindred server and the bare baseline are measured with it).
enum LeanSubscriber {
    /// Connects to `ws://host:port/path` with `headers`, sends `subscribe` (if any) once the
    /// upgrade is done, answers the Kindred protocol's `ping` and WebSocket pings, and calls
    /// `onFrame` on the event loop for every other text frame.
    /// - Returns: the channel (close it to disconnect).
    static func connect(
        host: String, port: Int, path: String, headers: [(String, String)], subscribe: String?,
        group: any EventLoopGroup, onFrame: @escaping @Sendable (String) -> Void
    ) async throws -> any Channel {
        let upgraded = group.next().makePromise(of: Void.self)
        let bootstrap = ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                let request = UpgradeRequest(host: "\(host):\(port)", path: path, headers: headers, failed: upgraded)
                let upgrader = NIOWebSocketClientUpgrader(maxFrameSize: 1 << 16) { channel, _ in
                    channel.pipeline.removeHandler(request).flatMap {
                        channel.pipeline.addHandler(FrameHandler(subscribe: subscribe, onFrame: onFrame))
                    }.map { upgraded.succeed() }
                }
                let configuration: NIOHTTPClientUpgradeSendableConfiguration = (
                    upgraders: [upgrader], completionHandler: { _ in }
                )
                return channel.pipeline.addHTTPClientHandlers(withClientUpgrade: configuration).flatMap {
                    channel.pipeline.addHandler(request)
                }
            }
        let channel = try await bootstrap.connect(host: host, port: port).get()
        try await upgraded.futureResult.get()
        return channel
    }

    /// Sends the upgrade request when the connection opens; fails `failed` if the server
    /// answers without upgrading.
    private final class UpgradeRequest: ChannelInboundHandler, RemovableChannelHandler, Sendable {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart
        let host: String
        let path: String
        let headers: [(String, String)]
        let failed: EventLoopPromise<Void>

        init(host: String, path: String, headers: [(String, String)], failed: EventLoopPromise<Void>) {
            self.host = host
            self.path = path
            self.headers = headers
            self.failed = failed
        }

        func channelActive(context: ChannelHandlerContext) {
            var fields = HTTPHeaders(headers)
            fields.add(name: "Host", value: host)
            fields.add(name: "Content-Length", value: "0")
            context.write(wrapOutboundOut(.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: fields))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let head) = unwrapInboundIn(data) {
                failed.fail(UpgradeRefused(status: head.status.code))
                context.close(promise: nil)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            failed.fail(error)
            context.close(promise: nil)
        }
    }

    /// The server answered the upgrade request with a plain HTTP response.
    struct UpgradeRefused: Error {
        /// Its status code.
        var status: UInt
    }

    /// Reads frames on the event loop.
    private final class FrameHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame
        let subscribe: String?
        let onFrame: @Sendable (String) -> Void

        init(subscribe: String?, onFrame: @escaping @Sendable (String) -> Void) {
            self.subscribe = subscribe
            self.onFrame = onFrame
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if let subscribe { send(subscribe, opcode: .text, context: context) }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.opcode {
            case .text:
                var bytes = frame.unmaskedData
                let text = bytes.readString(length: bytes.readableBytes) ?? ""
                if text == #"{"op":"ping"}"# {
                    send(#"{"op":"pong"}"#, opcode: .text, context: context)
                } else {
                    onFrame(text)
                }
            case .ping:
                var bytes = frame.unmaskedData
                send(bytes.readString(length: bytes.readableBytes) ?? "", opcode: .pong, context: context)
            case .connectionClose:
                context.close(promise: nil)
            default:
                break
            }
        }

        /// Writes a masked frame (clients must mask).
        private func send(_ text: String, opcode: WebSocketOpcode, context: ChannelHandlerContext) {
            let frame = WebSocketFrame(
                fin: true, opcode: opcode, maskKey: .random(), data: context.channel.allocator.buffer(string: text)
            )
            context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
        }
    }
}
