import NIOConcurrencyHelpers
import Synchronization
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWSClient
import KindredAPI
import CloserServer
import KindredServer
import KindredServerCore
import KindredStore
import Logging
import NIOCore
import NIOPosix
import Prometheus

// Realtime fan-out benchmark (scripts/bench-realtime): N WebSocket subscribers on one channel,
// E events published back to back, each in its own committed transaction; measured: deliveries
// per second and commit-to-delivery latency. Baseline in the same run: a bare
// hummingbird-websocket server broadcasting E frames to N connections.
// Usage: kindred-realtime-bench [--rate EVENTS_PER_SECOND] [--hummingbird-client] [SUBSCRIBERS] [EVENTS] [DATABASE_URL]
// Without --rate, events go back to back (throughput; latency then includes queueing behind
// earlier events). With --rate, each side publishes at that pace (latency of a steady load).

let hummingbirdClient = CommandLine.arguments.contains("--hummingbird-client")
let (arguments, rate): ([String], Double?) = {
    var arguments = CommandLine.arguments.filter { $0 != "--hummingbird-client" }
    guard let flag = arguments.firstIndex(of: "--rate"), flag + 1 < arguments.count else { return (arguments, nil) }
    let rate = Double(arguments[flag + 1])
    arguments.removeSubrange(flag...(flag + 1))
    return (arguments, rate)
}()
let subscriberCount = arguments.count > 1 ? Int(arguments[1]) ?? 1000 : 1000
let eventCount = arguments.count > 2 ? Int(arguments[2]) ?? 200 : 200
var logger = Logger(label: "bench")
logger.logLevel = .error

/// Allows every user to read `bench:*`.
struct AllowAll: ChannelAuthorizing {
    func mayRead(_ channel: RealtimeChannel, userID: String, app: AppID) async throws -> Bool { true }
}

/// A free loopback port.
func freePort() throws -> Int {
    let channel = try ServerBootstrapPort.find()
    return channel
}

/// Opens `count` subscribers; each calls `onFrame` per text frame, and `subscribe` is sent first.
/// The default client is `LeanSubscriber` (frames handled on the event loop); with
/// `--hummingbird-client` each subscriber is a HummingbirdWSClient task instead (a heavier
/// client whose own per-message cost shows up in the latency of both servers).
func openSubscribers(
    count: Int, port: Int, path: String, headers: [(String, String)], subscribe: String?,
    onFrame: @escaping @Sendable (String) -> Void
) -> [Task<Void, Never>] {
    (0..<count).map { _ in
        Task {
            do {
                if hummingbirdClient {
                    var fields = HTTPFields()
                    for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
                    _ = try await WebSocketClient.connect(
                        url: "ws://127.0.0.1:\(port)\(path)", configuration: .init(maxFrameSize: 1 << 16, additionalHeaders: fields),
                        logger: logger
                    ) { inbound, outbound, _ in
                        if let subscribe { try await outbound.write(.text(subscribe)) }
                        for try await message in inbound.messages(maxSize: 1 << 16) {
                            if case .text(let text) = message {
                                if text == #"{"op":"ping"}"# { try await outbound.write(.text(#"{"op":"pong"}"#)); continue }
                                onFrame(text)
                            }
                        }
                    }
                } else {
                    let channel = try await LeanSubscriber.connect(
                        host: "127.0.0.1", port: port, path: path, headers: headers, subscribe: subscribe,
                        group: MultiThreadedEventLoopGroup.singleton, onFrame: onFrame
                    )
                    try await withTaskCancellationHandler {
                        try await channel.closeFuture.get()
                    } onCancel: {
                        channel.close(promise: nil)
                    }
                }
            } catch is CancellationError {
            } catch {
                print("subscriber failed: \(error)")
            }
        }
    }
}

/// Waits until `condition` holds, up to `seconds`.
func wait(_ seconds: Double, _ condition: () -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// Publishes `count` events through `publish`, back to back or at `rate` per second.
func pace(_ count: Int, rate: Double?, _ publish: (Int) async throws -> Void) async throws {
    let clock = ContinuousClock()
    let start = clock.now
    for n in 0..<count {
        if let rate {
            try await Task.sleep(until: start + .nanoseconds(Int64(Double(n) / rate * 1e9)), clock: clock)
        }
        try await publish(n)
    }
}

/// The `"n":<int>` of a frame.
func index(in frame: String) -> Int? {
    guard let range = frame.range(of: #""n":"#) else { return nil }
    return Int(frame[range.upperBound...].prefix { $0.isNumber })
}

// MARK: - Kindred

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-realtime-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }
let databaseURL = arguments.count > 3 ? try DatabaseURL(parsing: arguments[3]) : .sqlite(path: folder.appendingPathComponent("bench.sqlite").path)
let database = try await Database.open(DatabaseConfiguration(url: databaseURL, maxConnections: 8))
try await Migrator(ServerMigrations.all).migrate(database, logger: logger)
var auth = AuthConfiguration()
auth.loopbackExempt = true
var dependencies = Dependencies(
    database: database, apps: .developmentDefaults, metrics: PrometheusCollectorRegistry(),
    openAPIDocument: try OpenAPIDocument.load(), maxBodySize: 1 << 20, auth: auth, identity: UnavailableIdentityVerifier()
)
dependencies.channelAuthorizers.register(kind: "bench", AllowAll())
dependencies.logger = logger
let parts = try await buildServerParts(dependencies, settings: DomainSettings())
let kindredPort = try freePort()
let kindred = Application(
    router: parts.router, server: parts.serverBuilder,
    configuration: .init(address: .hostname("127.0.0.1", port: kindredPort)), services: [parts.realtime], logger: logger
)
let kindredTask = Task { try await kindred.runService() }
try await Task.sleep(for: .milliseconds(500))

var request = HTTPClientRequest(url: "http://127.0.0.1:\(kindredPort)/v1/auth/anonymous")
request.method = .POST
request.headers.add(name: "X-Kindred-App", value: "closer")
let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
let body = try await response.body.collect(upTo: 1 << 20)
let session = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
guard let token = session?["accessToken"] as? String else { fatalError("no token: \(String(buffer: body))") }

let kindredRecorder = LatencyRecorder()
let publishRecorder = LatencyRecorder()
let subscribed = NIOLockedValueBox(0)
let headers = [("Authorization", "Bearer \(token)"), ("X-Kindred-App", "closer")]
let kindredSubscribers = openSubscribers(
    count: subscriberCount, port: kindredPort, path: "/v1/realtime", headers: headers,
    subscribe: #"{"op":"subscribe","channel":"bench:fanout"}"#
) { frame in
    if frame.hasPrefix(#"{"op":"subscribed""#) { subscribed.withLockedValue { $0 += 1 } } else if let n = index(in: frame) {
        kindredRecorder.received(n)
        publishRecorder.received(n)
    }
}
guard try await wait(60, { subscribed.withLockedValue { $0 } == subscriberCount }) else {
    fatalError("only \(subscribed.withLockedValue { $0 }) of \(subscriberCount) subscribed")
}
let channel = try RealtimeChannel("bench:fanout")
let publisher = parts.realtime.publisher
try await pace(eventCount, rate: rate) { n in
    try await publisher.transaction { transaction in
        try await publisher.publish(channel: channel, type: "bench.tick", data: ["n": n], on: transaction)
        // The last step before the commit: this clock includes the durable commit (fsync).
        publishRecorder.sent(n)
    }
    // The commit is durable and the publisher returned: commit → delivery starts here (a
    // delivery that beat the return by a few microseconds counts as 0).
    kindredRecorder.sent(n)
}
let kindredComplete = try await wait(120) { kindredRecorder.deliveries == subscriberCount * eventCount }
let kindredSummary = kindredRecorder.summary()
let publishSummary = publishRecorder.summary()
if ProcessInfo.processInfo.environment["BENCH_DEBUG"] != nil { print("kindred slowest events:", kindredRecorder.slowestEvents(8)) }
for task in kindredSubscribers { task.cancel() }
kindredTask.cancel()

// MARK: - Baseline

let bare = BareBroadcastServer()
let barePort = try freePort()
let bareTask = Task { try await bare.application(port: barePort).runService() }
try await Task.sleep(for: .milliseconds(500))
let bareRecorder = LatencyRecorder()
let bareSubscribers = openSubscribers(
    count: subscriberCount, port: barePort, path: "/ws", headers: [], subscribe: nil
) { frame in
    if let n = index(in: frame) { bareRecorder.received(n) }
}
guard try await wait(60, { bare.count == subscriberCount }) else { fatalError("baseline: only \(bare.count) connected") }
try await pace(eventCount, rate: rate) { n in
    bareRecorder.sent(n)
    bare.broadcast(#"{"op":"event","channel":"bench:fanout","seq":\#(n + 1),"type":"bench.tick","data":{"n":\#(n)}}"#)
    await Task.yield()
}
let bareComplete = try await wait(120) { bareRecorder.deliveries == subscriberCount * eventCount }
let bareSummary = bareRecorder.summary()
if ProcessInfo.processInfo.environment["BENCH_DEBUG"] != nil { print("bare slowest events:", bareRecorder.slowestEvents(8)) }
for task in bareSubscribers { task.cancel() }
bareTask.cancel()
await database.close()

func line(_ name: String, _ s: (perSecond: Double, p50: Double, p99: Double, max: Double), complete: Bool) -> String {
    String(
        format: "%@  %9.0f deliveries/s   p50 %7.2f ms   p99 %7.2f ms   max %7.2f ms%@",
        name, s.perSecond, s.p50, s.p99, s.max, complete ? "" : "   (INCOMPLETE)"
    )
}
let pacing = rate.map { String(format: "paced at %.0f events/s", $0) } ?? "back to back"
let client = hummingbirdClient ? "HummingbirdWSClient subscribers" : "SwiftNIO handler subscribers"
print("realtime fan-out: \(subscriberCount) subscribers × \(eventCount) events \(pacing) on \(database.sql.dialect.name) (\(client))")
print(line("kindred (commit → delivery)    ", kindredSummary, complete: kindredComplete))
print(line("kindred (pre-commit → delivery)", publishSummary, complete: kindredComplete))
print(line("bare hummingbird-websocket     ", bareSummary, complete: bareComplete))
print(String(format: "ratio (kindred / bare throughput): %.2f", kindredSummary.perSecond / max(bareSummary.perSecond, 1)))
