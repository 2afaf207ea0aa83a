import Foundation
import CloserServer
import KindredServer
import KindredServerCore
import KindredStore
import Logging
import SQLKit

// The daily-assignment job over N couples (scripts/bench-closer-assign): N accounts pairs and
// couples, all due, then one run of `closer.assign-daily-questions` (pages of 500), timed.
// Usage: kindred-closer-assign-bench COUNT DATABASE_URL

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let url = arguments.count > 2 ? arguments[2] : "sqlite:/tmp/kindred-closer-assign-bench.sqlite"
var logger = Logger(label: "bench")
logger.logLevel = .error
if url.hasPrefix("sqlite:") {
    let path = String(url.dropFirst("sqlite:".count))
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
var target = try DatabaseURL(parsing: url)
var admin: Database?
let benchDatabase = "kindred_closer_bench_\(UInt32.random(in: 0...UInt32.max))"
if case .postgres(var server) = target {
    // A database of its own, so the job sees only the bench's couples.
    let connection = try await Database.open(DatabaseConfiguration(url: target, maxConnections: 1), logger: logger)
    try await connection.sql.raw("CREATE DATABASE \(ident: benchDatabase)").run().get()
    server.database = benchDatabase
    target = .postgres(server)
    admin = connection
}
/// Opens the bench's database; a just-created PostgreSQL database can take a moment to accept
/// connections, so opening is retried for a few seconds.
func openTarget() async throws -> Database {
    var attempt = 0
    while true {
        do {
            return try await Database.open(DatabaseConfiguration(url: target), logger: logger)
        } catch {
            attempt += 1
            if attempt >= 30 { throw error }
            try await Task.sleep(for: .milliseconds(200))
        }
    }
}
let database = try await openTarget()
try await Migrator(ServerMigrations.all).migrate(database, logger: logger)

// Seed: 2 users and 1 couple per index, in batches.
let seedStart = ContinuousClock.now
let created: Int64 = 1_767_225_600_000
let batch = 500
for start in stride(from: 0, to: count, by: batch) {
    let end = min(count, start + batch)
    try await database.transaction { sql in
        var users = sql.insert(into: "kindred_users").columns("id", "app", "is_anonymous", "created_at", "updated_at")
        var couples = sql.insert(into: "closer_couples").columns(
            "id", "user_a_id", "user_b_id", "invite_code", "created_at", "updated_at", "streak_count", "active_pack_id",
            "pack_cursor", "time_zone", "assignment_minute", "next_assignment_at", "encryption_version", "migration_users"
        )
        let zones = ["America/Chicago", "Europe/Berlin", "Asia/Tokyo", "Pacific/Auckland"]
        for i in start..<end {
            let a = String(format: "a%07d-0000-4000-8000-000000000000", i), b = String(format: "b%07d-0000-4000-8000-000000000000", i)
            for id in [a, b] {
                users = users.values([SQLBind(id), SQLBind("closer"), SQLBind(false), SQLBind(created), SQLBind(created)])
            }
            couples = couples.values([
                SQLBind(String(format: "c%07d-0000-4000-8000-000000000000", i)), SQLBind(a), SQLBind(b), SQLBind("ABC123"),
                SQLBind(created), SQLBind(created), SQLBind(0), SQLBind("everyday"), SQLBind(i % 7), SQLBind(zones[i % zones.count]),
                SQLBind(23 * 60), SQLBind(created), SQLBind(2), SQLBind("{}"),
            ])
        }
        try await users.run()
        try await couples.run()
    }
}
let seeded = ContinuousClock.now - seedStart

final class FixedClock: WallClock, Sendable {
    func now() -> Date { Date(timeIntervalSince1970: 1_767_312_000) }  // 2026-01-02T00:00:00Z
}
let platform = try Platform.server(database: database, clock: FixedClock(), logger: logger)
let runStart = ContinuousClock.now
let run = try await platform.jobs.runNow("closer.assign-daily-questions")
let elapsed = ContinuousClock.now - runStart
let days = try await database.sql.raw("SELECT COUNT(*) AS n FROM closer_days").first()?.decode(column: "n", as: Int.self) ?? 0
await database.close()
if let admin {
    try await admin.sql.raw("DROP DATABASE IF EXISTS \(ident: benchDatabase) WITH (FORCE)").run().get()
    await admin.close()
}
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("backend: \(url.hasPrefix("sqlite:") ? "sqlite" : "postgresql")")
print("couples: \(count) (seeded in \(seeded))")
print("job: \(run.outcome) — \(run.message)")
print("days written: \(days)")
print(String(format: "assignment: %.2f s, %.0f couples/s (target: 100,000 in < 10 s on SQLite)", seconds, Double(count) / seconds))
