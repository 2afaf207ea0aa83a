@testable import KindredServerCore
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

/// `ConnectionDeadlineHandler` with `RequestPhaseHandler` behind an HTTP decoder, on an
/// `EmbeddedChannel` whose clock the tests move: idle, slowloris head and slowloris body
/// connections close at their deadline, not before and not later; a request being answered
/// and a WebSocket have none.
@Suite struct ConnectionDeadlineHandlerTests {
    /// Idle 3 s, head 2 s, body 4 s, write stall 5 s: distinct, so a test shows which deadline closed it.
    static var settings: ConnectionSettings {
        var settings = ConnectionSettings()
        settings.idleTimeout = .seconds(3)
        settings.requestHeadTimeout = .seconds(2)
        settings.requestBodyTimeout = .seconds(4)
        settings.writeStallTimeout = .seconds(5)
        return settings
    }

    /// A connected channel: deadline handler, HTTP decoder, phase handler (the server's order).
    func connection() throws -> (EmbeddedChannel, ConnectionDeadlineHandler) {
        let deadlines = ConnectionDeadlineHandler(settings: Self.settings)
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([
            deadlines, ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)), RequestPhaseHandler(),
        ])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        return (channel, deadlines)
    }

    func advance(_ channel: EmbeddedChannel, milliseconds: Int64) {
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(milliseconds))
    }

    @Test("A connection that sends nothing closes at the idle timeout, without an answer")
    func idleConnectionCloses() throws {
        let (channel, deadlines) = try connection()
        #expect(deadlines.phase == .idle)
        advance(channel, milliseconds: 2_999)
        #expect(channel.isActive)
        advance(channel, milliseconds: 1)
        #expect(!channel.isActive)
        let readOutboundLeft = try channel.readOutbound(as: ByteBuffer.self)
        #expect(readOutboundLeft == nil)
    }

    @Test("A head trickled a byte at a time gets 408 request_timeout at the head timeout and closes")
    func slowHeadCloses() throws {
        let (channel, deadlines) = try connection()
        advance(channel, milliseconds: 2_500)  // idle for a while: the head's clock starts at its first byte
        for piece in ["G", "E", "T", " /", "health HT"] {
            try channel.writeInbound(ByteBuffer(string: piece))
            advance(channel, milliseconds: 300)
        }
        #expect(deadlines.phase == .readingHead)
        #expect(channel.isActive)  // 1.5 s into the head
        advance(channel, milliseconds: 499)
        #expect(channel.isActive)
        advance(channel, milliseconds: 1)
        let body = #"{"error":{"code":"request_timeout","message":"the request head did not arrive within 2 s"}}"#
        let answer = try channel.readOutbound(as: ByteBuffer.self)
        #expect(answer.map { String(buffer: $0) } == "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        #expect(!channel.isActive)
    }

    @Test("A body trickled a byte at a time closes at the body timeout from the end of its head")
    func slowBodyCloses() throws {
        let (channel, deadlines) = try connection()
        try channel.writeInbound(ByteBuffer(string: "POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"))
        #expect(deadlines.phase == .readingBody)
        for _ in 0..<13 {
            try channel.writeInbound(ByteBuffer(string: "a"))
            advance(channel, milliseconds: 300)
        }
        #expect(channel.isActive)  // 3.9 s
        advance(channel, milliseconds: 99)
        #expect(channel.isActive)
        advance(channel, milliseconds: 1)
        #expect(!channel.isActive)
    }

    @Test("No deadline runs while a request is answered; after the answer the idle timeout does")
    func answeringHasNoDeadline() throws {
        let (channel, deadlines) = try connection()
        try channel.writeInbound(ByteBuffer(string: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(deadlines.phase == .responding)
        advance(channel, milliseconds: 60_000)
        #expect(channel.isActive)
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        #expect(deadlines.phase == .idle)
        advance(channel, milliseconds: 2_999)
        #expect(channel.isActive)
        advance(channel, milliseconds: 1)
        #expect(!channel.isActive)
    }

    @Test("An early answer (before the body) leaves the body's deadline running")
    func earlyAnswerKeepsBodyDeadline() throws {
        let (channel, deadlines) = try connection()
        try channel.writeInbound(ByteBuffer(string: "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab"))
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .unauthorized)))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        #expect(deadlines.phase == .readingBody)
        advance(channel, milliseconds: 3_999)
        #expect(channel.isActive)
        advance(channel, milliseconds: 1)
        #expect(!channel.isActive)
    }

    @Test("A body that ends in time leads back to idle after the answer")
    func bodyInTime() throws {
        let (channel, deadlines) = try connection()
        try channel.writeInbound(ByteBuffer(string: "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab"))
        advance(channel, milliseconds: 3_000)
        try channel.writeInbound(ByteBuffer(string: "cde"))
        #expect(deadlines.phase == .responding)
        advance(channel, milliseconds: 10_000)
        #expect(channel.isActive)
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        #expect(deadlines.phase == .idle)
    }

    @Test("Pipelined requests: the connection is idle only when every one is answered")
    func pipelinedRequests() throws {
        let (channel, deadlines) = try connection()
        try channel.writeInbound(ByteBuffer(string: "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(deadlines.phase == .responding)
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        #expect(deadlines.phase == .responding)
        advance(channel, milliseconds: 60_000)
        #expect(channel.isActive)
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        #expect(deadlines.phase == .idle)
    }

    @Test("After 101 Switching Protocols no deadline runs")
    func upgradedHasNoDeadline() throws {
        let (channel, deadlines) = try connection()
        try channel.writeInbound(ByteBuffer(string: "GET /v1/realtime HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n"))
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .switchingProtocols)))
        #expect(deadlines.phase == .upgraded)
        try channel.writeOutbound(ByteBuffer(string: "a frame"))
        advance(channel, milliseconds: 3_600_000)
        #expect(channel.isActive)
        #expect(deadlines.phase == .upgraded)
    }

    /// The client stops (or resumes) reading: the channel's writability as NIO reports it.
    func setWritable(_ channel: EmbeddedChannel, _ writable: Bool) {
        channel.isWritable = writable
        channel.pipeline.fireChannelWritabilityChanged()
    }

    @Test("A client that stops reading its answer is closed at the write-stall timeout, while answering")
    func stalledReaderCloses() throws {
        let (channel, deadlines) = try connection()
        try channel.writeInbound(ByteBuffer(string: "GET /v1/me/export HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(deadlines.phase == .responding)
        setWritable(channel, false)
        advance(channel, milliseconds: 4_999)
        #expect(channel.isActive)
        advance(channel, milliseconds: 1)
        #expect(!channel.isActive)
    }

    @Test("A slow but steady reader keeps its connection: each time it reads, the stall clock restarts")
    func slowReaderKeepsItsConnection() throws {
        let (channel, _) = try connection()
        try channel.writeInbound(ByteBuffer(string: "GET /v1/me/export HTTP/1.1\r\nHost: x\r\n\r\n"))
        for _ in 0..<10 {
            setWritable(channel, false)
            advance(channel, milliseconds: 4_000)
            setWritable(channel, true)
            advance(channel, milliseconds: 100)
        }
        // 41 s answering, never 5 s stuck in one go; no other deadline runs while answering.
        #expect(channel.isActive)
        // A repeated "not writable" does not restart the clock.
        setWritable(channel, false)
        advance(channel, milliseconds: 3_000)
        setWritable(channel, false)
        advance(channel, milliseconds: 2_000)
        #expect(!channel.isActive)
    }

    @Test("A WebSocket whose client stops reading its events is closed at the write-stall timeout")
    func stalledWebSocketCloses() throws {
        let (channel, deadlines) = try connection()
        try channel.writeInbound(ByteBuffer(string: "GET /v1/realtime HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n"))
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .switchingProtocols)))
        #expect(deadlines.phase == .upgraded)
        setWritable(channel, false)
        advance(channel, milliseconds: 4_999)
        #expect(channel.isActive)
        advance(channel, milliseconds: 1)
        #expect(!channel.isActive)
    }
}
