@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import SQLKit
import Testing


/// The maintained lineage heads give the answers of the pure functions over the whole history:
/// random histories with ties on every key (event time, write time, ending kinds, ids of mixed
/// case), sandbox and trial entries, inserted in random order, on SQLite and PostgreSQL.
@Suite struct BillingHeadsTests {
    /// A deterministic generator (SplitMix64), so a failing history can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let now: Int64 = 1_750_000_000
    static let lineages = [
        LineageKey(provider: .revenuecat, lineage: "otx-1"), LineageKey(provider: .revenuecat, lineage: "otx-2"),
        LineageKey(provider: .stripe, lineage: "sub_1"),
    ]

    /// A random history of `user`: 1–14 entries over up to three lineages.
    static func history(of user: String, using random: inout Generator) -> [PlanEntry] {
        let alphabet = Array("aAbB09")
        var ids = Set<String>()
        return (0..<Int.random(in: 1...14, using: &random)).map { _ in
            var id = ""
            repeat {
                id = String((0..<3).map { _ in alphabet.randomElement(using: &random) ?? "a" })
            } while !ids.insert(id).inserted
            id += ".\(user)"  // plan ids are unique over all users
            let lineage = lineages.randomElement(using: &random) ?? lineages[0]
            return PlanEntry(
                id: id, userID: user, app: .pulse, planType: "pulsecheck-monthly", productID: "pc_1m",
                platform: lineage.provider == .stripe ? .web : .ios, provider: lineage.provider, lineage: lineage.lineage,
                kind: PlanKind.allCases.randomElement(using: &random) ?? .purchase,
                expiration: now + Int64.random(in: -3...3, using: &random) * 3600,
                eventTime: Int64.random(in: 1...3, using: &random), eventID: "e-\(id)",
                sandbox: Int.random(in: 0..<4, using: &random) == 0, createdAt: Int64.random(in: 10...11, using: &random)
            )
        }
    }

    static func addUser(_ id: String, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "kindred_users").columns("id", "app", "is_anonymous", "created_at", "updated_at")
            .values(SQLBind(id), SQLBind("pulse"), SQLBind(false), SQLBind(Int64(0)), SQLBind(Int64(0))).run()
    }

    static func headRows(on sql: any SQLDatabase) async throws -> [String] {
        try await sql.select().columns("user_id", "provider", "lineage", "sandbox", "plan_id", "trial_plan_id")
            .from("kindred_billing_heads").all()
            .map { row in
                let trial = try row.decode(column: "trial_plan_id", as: String?.self) ?? "-"
                return [
                    try row.decode(column: "user_id", as: String.self), try row.decode(column: "provider", as: String.self),
                    try row.decode(column: "lineage", as: String.self), "\(try row.decode(column: "sandbox", as: Bool.self))",
                    try row.decode(column: "plan_id", as: String.self), trial,
                ].joined(separator: "/")
            }
            .sorted()
    }

    @Test("heads give the pure functions' answers, and the migration's backfill writes the same heads", arguments: Backend.all)
    func headsMatchTheWholeHistory(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrator(ServerMigrations.all).migrate(database, logger: platformLogger)
            var random = Generator(state: 20_261_122)
            var histories: [String: [PlanEntry]] = [:]
            for index in 0..<40 {
                let user = "user-\(index)"
                let history = Self.history(of: user, using: &random)
                histories[user] = history
                let shuffled = history.shuffled(using: &random)
                try await database.transaction { sql in
                    try await Self.addUser(user, on: sql)
                    for entry in shuffled { try await BillingLedger.insert(entry, on: sql) }
                }
            }
            for (user, history) in histories.sorted(by: { $0.key < $1.key }) {
                let current = try await BillingLedger.current(of: user, on: database.sql)
                #expect(current.count <= 12, "\(user)")
                for sandboxGrantsAccess in [false, true] {
                    for now in [Self.now - 7200, Self.now, Self.now + 7200] {
                        let whole = SubscriptionSnapshot.compute(plans: history, now: now, sandboxGrantsAccess: sandboxGrantsAccess)
                        let fromHeads = SubscriptionSnapshot.compute(plans: current, now: now, sandboxGrantsAccess: sandboxGrantsAccess)
                        #expect(fromHeads == whole, "\(user) sandbox \(sandboxGrantsAccess) now \(now): \(history)")
                    }
                }
                for key in Self.lineages {
                    let expected = history.filter { $0.lineageKey == key }.max { SubscriptionSnapshot.isLater($1, than: $0) }
                    let latest = try await BillingLedger.latest(userID: user, lineage: key, on: database.sql)
                    #expect(latest == expected, "\(user) \(key.lineage)")
                }
            }
            let maintained = try await Self.headRows(on: database.sql)
            #expect(maintained.count >= 40)
            try await database.sql.delete(from: "kindred_billing_heads").run()
            try await BillingSchema.populateHeads(on: database.sql)
            let backfilled = try await Self.headRows(on: database.sql)
            #expect(backfilled == maintained)
        }
    }

    @Test("in an inbox lane, the heads it remembers are the heads it writes", arguments: Backend.all)
    func laneMemoMatchesStoredHeads(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrator(ServerMigrations.all).migrate(database, logger: platformLogger)
            var random = Generator(state: 20_261_123)
            var histories: [String: [PlanEntry]] = [:]
            for index in 0..<30 {
                let user = "user-\(index)"
                histories[user] = Self.history(of: user, using: &random)
                try await Self.addUser(user, on: database.sql)
            }
            // All users' entries interleaved in one lane transaction, as a lane of many events is.
            var interleaved = histories.values.flatMap { $0 }
            interleaved.shuffle(using: &random)
            let entries = interleaved
            let users = histories
            let checked = try await database.transaction { base in
                let lane = BillingLaneSQL(base: base)
                try await BillingLedger.lock(users.keys, on: lane)
                var checked = 0
                for entry in entries {
                    // Read (and so remember) the heads before each insert, as an append does.
                    _ = try await BillingLedger.heads(userID: entry.userID, lineage: entry.lineageKey, on: lane)
                    try await BillingLedger.insert(entry, on: lane)
                }
                // The lane defers its entries and heads (writing them before its next statement);
                // a flush writes the rest for the reads below, which bypass it.
                try await lane.flush()
                for (user, history) in users {
                    #expect(lane.memo.isLocked(user))
                    #expect(try await BillingLedger.app(ofUser: user, on: lane) == .pulse)
                    for key in Self.lineages where history.contains(where: { $0.lineageKey == key }) {
                        let remembered = try #require(lane.memo.heads(userID: user, lineage: key))
                        let stored = try await BillingLedger.heads(userID: user, lineage: key, on: base)
                        #expect(remembered.entries.map(\.id).sorted() == stored.entries.map(\.id).sorted(), "\(user) \(key.lineage)")
                        let expected = history.filter { $0.lineageKey == key }.max { SubscriptionSnapshot.isLater($1, than: $0) }
                        #expect(remembered.latest == expected, "\(user) \(key.lineage)")
                        checked += 1
                    }
                }
                return checked
            }
            #expect(checked >= 30)
            // Outside the lane nothing is remembered: the stored heads answer.
            for (user, history) in histories {
                let current = try await BillingLedger.current(of: user, on: database.sql)
                let whole = SubscriptionSnapshot.compute(plans: history, now: Self.now, sandboxGrantsAccess: true)
                #expect(SubscriptionSnapshot.compute(plans: current, now: Self.now, sandboxGrantsAccess: true) == whole, "\(user)")
            }
            let byUser = try await BillingLedger.current(of: Array(histories.keys), on: database.sql)
            for user in histories.keys {
                let one = try await BillingLedger.current(of: user, on: database.sql)
                #expect(byUser[user]?.map(\.id).sorted() ?? [] == one.map(\.id).sorted(), "\(user)")
            }
        }
    }

    @Test("a table of tie-breaks: event time, then write time, then ending kinds, then id")
    func tieBreaks() {
        func entry(_ id: String, kind: PlanKind, eventTime: Int64, createdAt: Int64) -> PlanEntry {
            PlanEntry(
                id: id, userID: "u", app: .pulse, planType: "p", productID: "p", platform: .ios, provider: .revenuecat,
                lineage: "L", kind: kind, expiration: 1, eventTime: eventTime, eventID: id, sandbox: false, createdAt: createdAt
            )
        }
        let cases: [([PlanEntry], String)] = [
            ([entry("z", kind: .revocation, eventTime: 1, createdAt: 9), entry("a", kind: .renewal, eventTime: 2, createdAt: 1)], "a"),
            ([entry("z", kind: .revocation, eventTime: 2, createdAt: 1), entry("a", kind: .renewal, eventTime: 2, createdAt: 2)], "a"),
            ([entry("a", kind: .transferOut, eventTime: 2, createdAt: 2), entry("z", kind: .renewal, eventTime: 2, createdAt: 2)], "a"),
            ([entry("a", kind: .renewal, eventTime: 2, createdAt: 2), entry("B", kind: .purchase, eventTime: 2, createdAt: 2)], "a"),
        ]
        for (entries, expected) in cases {
            #expect(BillingLedger.LineageHeads(entries: entries).latest?.id == expected)
            #expect(BillingLedger.LineageHeads(entries: entries.reversed()).latest?.id == expected)
        }
    }
}
