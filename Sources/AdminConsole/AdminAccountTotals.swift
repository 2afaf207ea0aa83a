import Foundation
import KindredStore
import SQLKit

/// Each app's total number of accounts, for the overview, without counting a million index
/// entries on every page view.
///
/// A count of `kindred_users` by app reads every entry of the app's part of
/// `kindred_users_app_created`: about 30 ms per 200,000 accounts on SQLite, 150 ms for five apps
/// at a million users, far over the page budget of 100 ms. So the totals are counted at most
/// every `maxAge` into a snapshot taken at a time `T` (accounts created before `T`), and a
/// page adds the accounts created since `T` — a short range of the same index. The sum is exact
/// except for accounts deleted since the snapshot, which leave the total at the next refresh.
/// A stale snapshot is refreshed in the background while pages use the old one plus its
/// correction; only the first page after start counts in full.
actor AdminAccountTotals {
    /// The counts at `takenAt` (milliseconds): accounts created before it, per app.
    struct Snapshot: Sendable, Equatable {
        var takenAt: Int64
        var totals: [String: Int]
    }

    /// How old a snapshot may get before a refresh starts.
    let maxAge: Int64
    private var snapshot: Snapshot?
    private var refresh: Task<Snapshot, any Error>?

    /// Totals refreshed every `maxAgeMilliseconds` (default five minutes).
    init(maxAgeMilliseconds: Int64 = 300_000) {
        maxAge = maxAgeMilliseconds
    }

    /// The snapshot to add corrections to at `now`: the kept one (starting a background refresh
    /// when it is older than `maxAge`), or a new one counted now when there is none.
    func current(now: Int64, database: Database, apps: [String]) async throws -> Snapshot {
        if let snapshot {
            if now - snapshot.takenAt > maxAge, refresh == nil { startRefresh(now: now, database: database, apps: apps) }
            return snapshot
        }
        if refresh == nil { startRefresh(now: now, database: database, apps: apps) }
        guard let refresh else { throw CancellationError() }
        return try await refresh.value
    }

    private func startRefresh(now: Int64, database: Database, apps: [String]) {
        refresh = Task {
            defer { self.finishRefresh() }
            let taken = try await Self.count(database: database, apps: apps, before: now)
            self.store(taken)
            return taken
        }
    }

    private func store(_ taken: Snapshot) {
        if taken.takenAt >= snapshot?.takenAt ?? .min { snapshot = taken }
    }

    private func finishRefresh() { refresh = nil }

    /// Accounts of each app created before `before` (index `kindred_users_app_created`).
    static func count(database: Database, apps: [String], before: Int64) async throws -> Snapshot {
        var totals: [String: Int] = [:]
        for app in apps {
            totals[app] = try await database.sql.select()
                .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("kindred_users")
                .where("app", .equal, app).where("created_at", .lessThan, before)
                .first()?.decode(column: "n", as: Int.self) ?? 0
        }
        return Snapshot(takenAt: before, totals: totals)
    }
}
