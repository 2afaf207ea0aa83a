import AsyncHTTPClient
import Crypto
import Foundation
import CloserServer
import KindredServer
import KindredServerCore
import KindredStore
import KindredTestSupport
import Logging
import NIOSSL
import SQLKit

// scripts/bench-push: the notification pipeline's throughput against a local HTTP/2+TLS APNs
// fake, with a baseline measured in the same run: the same APNs transport sending the same
// number of pushes with the same concurrency, with no database and no queue.
//
// Kindred's figure covers the whole path after commit: claim from the work queue, dispatch
// (settings, devices, delivery records, state) and completion, on SQLite at synchronous=FULL.
let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 5000 : 5000
let concurrency = 16
var logger = Logger(label: "bench")
logger.logLevel = .error

let folder = try TemporaryDirectory()
let fake = try await FakeAPNsServer(folder: folder) { _, _ in FakeAPNsServer.Answer(status: 200) }
var tls = TLSConfiguration.makeClientConfiguration()
tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(fake.certificatePEM.utf8)))
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
var apnsConfiguration = try APNsConfiguration(
    teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation,
    topic: "dev.kindred.closer"
)
apnsConfiguration.productionURL = "https://127.0.0.1:\(fake.port)"
let transport = APNsTransport(configuration: apnsConfiguration, client: client, clock: SystemClock(), logger: logger)
func token(_ n: Int) -> String { String(format: "%064x", n + 1) }

// MARK: - Baseline: the transport alone

let message = PushMessage(id: UUID().uuidString, type: "bench", title: "Bench", body: "Hello")
let baselineStart = ContinuousClock.now
await withTaskGroup(of: Void.self) { group in
    var next = 0
    for _ in 0..<concurrency {
        let n = next
        next += 1
        group.addTask { _ = await transport.send(message, to: PushDevice(tokenID: "b\(n)", token: token(n), transport: "apns", apnsEnvironment: "production")) }
    }
    while await group.next() != nil, next < count {
        let n = next
        next += 1
        group.addTask { _ = await transport.send(message, to: PushDevice(tokenID: "b\(n)", token: token(n), transport: "apns", apnsEnvironment: "production")) }
    }
}
let baselineSeconds = (ContinuousClock.now - baselineStart).timeInterval

// MARK: - Kindred: queue → dispatcher → transport, on SQLite

let database = try await Database.open(
    DatabaseConfiguration(url: .sqlite(path: folder.url.appendingPathComponent("bench.sqlite").path)), logger: logger
)
try await Migrator(ServerMigrations.all).migrate(database, logger: logger)
let clock = SystemClock()
let now = clock.now().millisecondsSince1970
// Users and their devices are written directly (set-up, not measured).
for start in stride(from: 0, to: count, by: 500) {
    try await database.transaction { sql in
        for n in start..<min(count, start + 500) {
            try await sql.insert(into: "kindred_users")
                .columns("id", "app", "is_anonymous", "created_at", "updated_at")
                .values(SQLBind("u\(n)"), SQLBind("closer"), SQLBind(true), SQLBind(now), SQLBind(now)).run()
            try await sql.insert(into: "kindred_push_tokens")
                .columns("id", "user_id", "app", "transport", "token", "apns_environment", "device_id", "created_at", "updated_at")
                .values(SQLBind("t\(n)"), SQLBind("u\(n)"), SQLBind("closer"), SQLBind("apns"), SQLBind(token(n)),
                        SQLBind("production"), SQLBind("d\(n)"), SQLBind(now), SQLBind(now)).run()
        }
    }
}
let platform = Platform(database: database, clock: clock, logger: logger)
var transports = PushTransports(fallback: LogPushTransport(logger: logger))
transports.set(transport, for: .closer, kind: "apns")
let dispatcher = NotificationDispatcher(database: database, clock: clock, transports: transports, logger: logger)
let queue = platform.queue
let outbox = NotificationOutbox(clock: clock) { id, notBefore, sql in
    _ = try await queue.enqueue(queue: NotificationsQueue.name, payload: id, runAt: notBefore, dedupeKey: id, on: sql)
}
for start in stride(from: 0, to: count, by: 500) {
    try await database.transaction { sql in
        for n in start..<min(count, start + 500) {
            try await outbox.enqueue(
                OutgoingNotification(userID: "u\(n)", app: .closer, type: NotificationType(rawValue: "bench"), title: "Bench", body: "Hello"),
                on: sql
            )
        }
    }
}
try platform.worker.register(NotificationsQueue.handler(dispatcher: dispatcher, queue: queue))
let sentBefore = fake.requests.count
let kindredStart = ContinuousClock.now
let worker = Task { try await platform.worker.run() }
while true {
    let sent = try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
        .from("kindred_notifications").where("state", .equal, "sent").first()?.decode(column: "n", as: Int.self) ?? 0
    if sent >= count { break }
    try await Task.sleep(for: .milliseconds(20))
}
let kindredSeconds = (ContinuousClock.now - kindredStart).timeInterval
worker.cancel()
_ = try? await worker.value
let delivered = fake.requests.count - sentBefore

let baselineRate = Double(count) / baselineSeconds
let kindredRate = Double(count) / kindredSeconds
print("notifications: \(count), transport concurrency \(concurrency), fake APNs over HTTP/2+TLS on loopback")
print(String(format: "baseline (APNs transport alone)       %8.0f pushes/s  (%.2f s)", baselineRate, baselineSeconds))
print(String(format: "kindred (queue + dispatcher, SQLite)  %8.0f notifications/s  (%.2f s), %d pushes received", kindredRate, kindredSeconds, delivered))
print(String(format: "ratio %.2fx of the bare transport; target >= 1000 notifications/s: %@", kindredRate / baselineRate, kindredRate >= 1000 ? "met" : "MISSED"))
await database.close()
try await client.shutdown().get()
await fake.stop()

extension Duration {
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
