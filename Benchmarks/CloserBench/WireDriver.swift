import CloserAPI
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// One request of a prepared cycle, encoded before the clock, and what its answer must be.
struct WireRequest: Sendable {
    let head: HTTPRequestHead
    let body: ByteBuffer?
    let expected: HTTPResponseStatus
    /// Bytes the answer's body must contain (a read's `"date":"…"`), or nil.
    let mustContain: [UInt8]?
}

/// The timed phase's load generator: every cycle's ten requests as HTTP/1.1 bytes made before the
/// clock, sent over CONCURRENCY keep-alive connections on one SwiftNIO event loop, each
/// connection taking the next couple's cycle when it finishes one and checking every answer's
/// status (and, for the reads, that the body names the cycle's date).
///
/// Why not the generated client: through `CloserAPI.Client` and AsyncHTTPClient the load
/// generator spent 2.6–2.7 ms of CPU per cycle (0.27 ms per request) on the same two cores as the
/// server, as much as half the server's own 4.2–4.7 ms, so the cycles per second said as much
/// about the client as about the server. The bare baseline is measured with wrk, a client that
/// costs a few microseconds per request; this driver puts the cycle on the same footing. The
/// requests are the ones CloserKit sends (same paths, headers, bodies encoded from the same
/// `Components.Schemas` values), and every partner's answer is still opened and checked from the
/// server's copy after the clock through the generated client (`PreparedCycles.check`).
/// `kindred-closer-bench --client` times the generated client instead, for comparison.
enum WireDriver {
    /// The cycle's ten requests, in CloserKit's order (`PreparedCycles.play`).
    static func requests(_ cycle: PreparedCycle, host: String) async throws -> [WireRequest] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let day = "/v1/closer/couples/\(cycle.coupleID)/days/\(cycle.date)/answers/"
        let date = Array(#""date":"\#(cycle.date)""#.utf8)
        var tokens: [String: String] = [:]
        for side in [cycle.alice, cycle.bob] {
            guard let stored = try await side.session.storedSession() else {
                throw WireError.notSignedIn(side.userID)
            }
            tokens[side.userID] = stored.accessToken
        }
        func request(_ side: PreparedCycle.Side, _ method: HTTPMethod, _ path: String, _ body: (some Encodable)?,
                     expected: HTTPResponseStatus, mustContain: [UInt8]? = nil) throws -> WireRequest {
            var headers = HTTPHeaders()
            headers.add(name: "host", value: host)
            headers.add(name: "accept", value: "application/json")
            headers.add(name: "x-kindred-app", value: "closer")
            headers.add(name: "authorization", value: "Bearer \(tokens[side.userID] ?? "")")
            var buffer: ByteBuffer?
            if let body {
                let bytes = try encoder.encode(body)
                headers.add(name: "content-type", value: "application/json; charset=utf-8")
                headers.add(name: "content-length", value: String(bytes.count))
                buffer = ByteBuffer(bytes: bytes)
            }
            let head = HTTPRequestHead(version: .http1_1, method: method, uri: path, headers: headers)
            return WireRequest(head: head, body: buffer, expected: expected, mustContain: mustContain)
        }
        func today(_ side: PreparedCycle.Side, device: Bool) throws -> WireRequest {
            let query = device ? "?deviceId=\(side.deviceID)" : ""
            return try request(side, .GET, "/v1/closer/couples/\(cycle.coupleID)/today\(query)", Optional<Int>.none,
                               expected: .ok, mustContain: date)
        }
        var requests: [WireRequest] = []
        for side in [cycle.alice, cycle.bob] {
            requests.append(try today(side, device: false))
            let answer = Components.Schemas.CloserAnswerCreate(
                schemaVersion: ._3, encryptedPayload: side.sealed.payload, commitmentHash: side.sealed.commitment,
                commitmentSeal: side.sealed.commitmentSeal
            )
            requests.append(try request(side, .PUT, day + side.userID, answer, expected: .created))
        }
        for (side, revealed) in [(cycle.alice, false), (cycle.bob, true)] {
            requests.append(try today(side, device: true))
            let release = Components.Schemas.CloserReleaseKeysUpload(
                keys: side.keys, senderDeviceId: side.deviceID, isRevealed: revealed ? true : nil
            )
            requests.append(try request(side, .POST, day + side.userID + "/release-keys", release, expected: .created))
        }
        requests.append(try today(cycle.alice, device: true))
        requests.append(try request(cycle.alice, .PATCH, day + cycle.alice.userID,
                                    Components.Schemas.CloserRevealUpdate(isRevealed: true), expected: .ok))
        return requests
    }

    /// Sends every cycle over `connections` connections to `host:port`; returns the requests sent.
    /// - Throws: the first unexpected answer (`WireError.unexpected`) or connection failure.
    static func run(_ cycles: [[WireRequest]], host: String, port: Int, connections: Int) async throws -> Int {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let work = WireWork(cycles)
        var results: [EventLoopFuture<Int>] = []
        do {
            for _ in 0..<max(1, min(connections, cycles.count)) {
                let done = group.next().makePromise(of: Int.self)
                _ = try await ClientBootstrap(group: group)
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHTTPClientHandlers()
                            try channel.pipeline.syncOperations.addHandler(WireConnection(work: work, done: done))
                        }
                    }
                    .connect(host: host, port: port).get()
                results.append(done.futureResult)
            }
            var sent = 0
            for result in results { sent += try await result.get() }
            try await group.shutdownGracefully()
            return sent
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }
}

/// Why the driver stopped.
enum WireError: Error, CustomStringConvertible {
    case notSignedIn(String)
    case unexpected(String, HTTPResponseStatus, String)
    case closed

    var description: String {
        switch self {
        case .notSignedIn(let user): "\(user) has no stored session"
        case .unexpected(let request, let status, let body): "\(request): unexpected answer \(status.code) \(body)"
        case .closed: "the server closed a connection before the cycles were done"
        }
    }
}

/// The cycles not yet started, taken one at a time by the connections.
final class WireWork: Sendable {
    private let cycles: [[WireRequest]]
    private let next = Atomic<Int>(0)

    init(_ cycles: [[WireRequest]]) { self.cycles = cycles }

    /// The next cycle's requests, or nil when every cycle has been taken.
    func take() -> [WireRequest]? {
        let index = next.add(1, ordering: .relaxed).oldValue
        return index < cycles.count ? cycles[index] : nil
    }
}

/// One keep-alive connection: sends a request, reads its answer, checks it, sends the next.
private final class WireConnection: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let work: WireWork
    private let done: EventLoopPromise<Int>
    private var cycle: [WireRequest] = []
    private var position = 0
    private var current: WireRequest?
    private var status: HTTPResponseStatus = .ok
    private var body = ByteBuffer()
    private var sent = 0
    private var finished = false

    init(work: WireWork, done: EventLoopPromise<Int>) {
        self.work = work
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        sendNext(context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = head.status
            body.clear()
        case .body(var part):
            body.writeBuffer(&part)
        case .end:
            guard let request = current else { return }
            current = nil
            guard status == request.expected, request.mustContain.map({ Self.contains(body, $0) }) ?? true else {
                let text = String(decoding: body.readableBytesView.prefix(300), as: UTF8.self)
                return finish(context: context, error: WireError.unexpected("\(request.head.method) \(request.head.uri)", status, text))
            }
            sendNext(context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(context: context, error: error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(context: context, error: WireError.closed)
    }

    private func sendNext(context: ChannelHandlerContext) {
        if position == cycle.count {
            guard let next = work.take() else { return finish(context: context, error: nil) }
            cycle = next
            position = 0
        }
        let request = cycle[position]
        position += 1
        current = request
        sent += 1
        context.write(wrapOutboundOut(.head(request.head)), promise: nil)
        if let body = request.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    private func finish(context: ChannelHandlerContext, error: (any Error)?) {
        guard !finished else { return }
        finished = true
        if let error { done.fail(error) } else { done.succeed(sent) }
        context.close(promise: nil)
    }

    private static func contains(_ buffer: ByteBuffer, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        return buffer.withUnsafeReadableBytes { haystack in
            guard haystack.count >= needle.count else { return false }
            var start = 0
            while start <= haystack.count - needle.count {
                if haystack[start] == first, needle.indices.allSatisfy({ haystack[start + $0] == needle[$0] }) { return true }
                start += 1
            }
            return false
        }
    }
}
