@testable import KindredServerCore
import NIOCore
import NIOEmbedded
import Testing

/// The connection cap: `ConnectionCount` admits at most its limit, also under concurrency, and
/// `ConnectionRefusalHandler` answers a refused connection with the 503 envelope and closes.
@Suite struct ConnectionRefusalTests {
    @Test("The count admits up to the limit, refuses beyond it, and admits again after a release")
    func countAdmitsUpToTheLimit() {
        let count = ConnectionCount()
        #expect((0..<3).map { _ in count.admit(limit: 3) } == [true, true, true])
        #expect(!count.admit(limit: 3))
        count.release()
        #expect(count.current == 2)
        #expect(count.admit(limit: 3))
        #expect(!count.admit(limit: 3))
    }

    @Test("2,000 simultaneous admissions against a limit of 500 admit exactly 500")
    func concurrentAdmissions() async {
        let count = ConnectionCount()
        let admitted = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<2_000 { group.addTask { count.admit(limit: 500) } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(admitted == 500)
        #expect(count.current == 500)
    }

    @Test("A refused connection gets 503 too_many_connections with Retry-After and Connection: close")
    func refusalAnswer() throws {
        let channel = EmbeddedChannel(handler: ConnectionRefusalHandler(linger: .seconds(1)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        let answer = try channel.readOutbound(as: ByteBuffer.self)
        let body = #"{"error":{"code":"too_many_connections","message":"the server has too many open connections; retry shortly"}}"#
        #expect(answer.map { String(buffer: $0) } == "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + body)
        // The request is discarded, nothing more is written; the connection ends at the linger.
        try channel.writeInbound(ByteBuffer(string: "GET /health HTTP/1.1\r\n\r\n"))
        let readInboundLeft = try channel.readInbound(as: ByteBuffer.self)
        #expect(readInboundLeft == nil)
        let readOutboundLeft = try channel.readOutbound(as: ByteBuffer.self)
        #expect(readOutboundLeft == nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1_000))
        #expect(!channel.isActive)
    }

    @Test("A refused client that closes its side is closed at once")
    func refusalClosesOnClientClose() throws {
        let channel = EmbeddedChannel(handler: ConnectionRefusalHandler(linger: .seconds(60)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        _ = try channel.readOutbound(as: ByteBuffer.self)
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(!channel.isActive)
    }
}
