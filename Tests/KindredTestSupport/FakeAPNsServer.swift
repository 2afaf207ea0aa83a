import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A local stand-in for APNs that speaks only what APNs speaks: HTTP/2 over TLS (ALPN `h2`, no
/// HTTP/1 fallback). It records every request and answers from a script keyed by device token.
public final class FakeAPNsServer: Sendable {
    /// One request as the server received it.
    public struct Received: Sendable {
        /// The method.
        public var method: String
        /// The path.
        public var path: String
        /// Header names lower-cased.
        public var headers: [String: String]
        /// The body.
        public var body: Data
    }

    /// The answer to a request: status, APNs `reason`, extra headers.
    public struct Answer: Sendable {
        /// The HTTP status.
        public var status: Int
        /// APNs's `reason`.
        public var reason: String?
        /// Extra headers.
        public var headers: [String: String] = [:]

        /// Creates an answer.
        public init(status: Int, reason: String? = nil, headers: [String: String] = [:]) {
            self.status = status
            self.reason = reason
            self.headers = headers
        }
    }

    /// The loopback port.
    public let port: Int
    /// The server certificate, for the client's trust roots.
    public let certificatePEM: String
    private let channel: any Channel
    private let received = NIOLockedValueBox<[Received]>([])

    /// Everything received so far.
    public var requests: [Received] { received.withLockedValue { $0 } }

    /// A self-signed P-256 certificate for 127.0.0.1, made with the openssl command line.
    public static func makeCertificate(in folder: TemporaryDirectory) throws -> (certificate: String, key: String) {
        let key = folder.url.appendingPathComponent("key.pem").path
        let cert = folder.url.appendingPathComponent("cert.pem").path
        let result = try ChildProcess.run(
            "/usr/bin/env",
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
            input: []
        )
        guard result.status == 0 else { throw OpenSSLFailed(description: result.stderr) }
        return (try String(contentsOfFile: cert, encoding: .utf8), try String(contentsOfFile: key, encoding: .utf8))
    }

    /// Starts the server on a free loopback port.
    /// - Parameter respond: the answer for a device token (the last path component).
    public init(folder: TemporaryDirectory, respond: @escaping @Sendable (_ token: String, _ attempt: Int) -> Answer) async throws {
        let (certificatePEM, keyPEM) = try Self.makeCertificate(in: folder)
        self.certificatePEM = certificatePEM
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem))
        )
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let received = received
        let attempts = NIOLockedValueBox<[String: Int]>([:])
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                // Handlers are added on the channel's own event loop (they are not Sendable).
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    channel.configureHTTP2Pipeline(mode: .server) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandlers([
                                HTTP2FramePayloadToHTTP1ServerCodec(),
                                StreamHandler { request in
                                    received.withLockedValue { $0.append(request) }
                                    let token = String(request.path.split(separator: "/").last ?? "")
                                    let attempt = attempts.withLockedValue { counts -> Int in
                                        counts[token, default: 0] += 1
                                        return counts[token, default: 1]
                                    }
                                    return respond(token, attempt)
                                },
                            ])
                        }
                    }.map { _ in }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    /// The openssl command failed.
    public struct OpenSSLFailed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Stops listening.
    public func stop() async {
        try? await channel.close()
    }

    /// Collects one stream's request and writes the scripted answer.
    private final class StreamHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let respond: @Sendable (Received) -> Answer
        var head: HTTPRequestHead?
        var body = Data()

        init(respond: @escaping @Sendable (Received) -> Answer) {
            self.respond = respond
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
            case .body(let buffer):
                body.append(contentsOf: buffer.readableBytesView)
            case .end:
                guard let head else { return }
                var headers: [String: String] = [:]
                for (name, value) in head.headers { headers[name.lowercased()] = value }
                let answer = respond(Received(method: head.method.rawValue, path: head.uri, headers: headers, body: body))
                var responseHeaders = HTTPHeaders()
                responseHeaders.add(name: "apns-id", value: headers["apns-id"] ?? UUID().uuidString)
                for (name, value) in answer.headers { responseHeaders.add(name: name, value: value) }
                let bodyText = answer.reason.map { #"{"reason":"\#($0)"}"# } ?? ""
                responseHeaders.add(name: "content-length", value: String(bodyText.utf8.count))
                context.write(wrapOutboundOut(.head(HTTPResponseHead(
                    version: .init(major: 2, minor: 0), status: .init(statusCode: answer.status), headers: responseHeaders
                ))), promise: nil)
                if !bodyText.isEmpty {
                    context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: bodyText)))), promise: nil)
                }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
