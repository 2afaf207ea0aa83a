import Foundation
import KindredStore
import SQLKit

/// One headline number a domain shows on the operators' console overview (`/admin`), with its
/// last 30 days when the domain can count them from an index.
package struct AdminOverviewCount: Sendable, Equatable {
    /// What is counted ("Couples", "Active subscriptions · ios", …).
    package var label: String
    /// The number now.
    package var value: Int
    /// One value per day, oldest first, ending today (30 values); nil when the domain keeps no
    /// history for this number.
    package var series: [Int]?

    /// Creates a count.
    package init(label: String, value: Int, series: [Int]? = nil) {
        self.label = label
        self.value = value
        self.series = series
    }
}

/// A domain's part of the console overview: its app and a function that counts its headline
/// numbers. Counts come from indexed queries (or a bounded table), never from a full scan of a
/// large table, so the overview stays fast at a million users.
package struct AdminOverviewSection: Sendable {
    /// The app the numbers belong to (`closer`, `billing`, …); the overview groups by it.
    package var app: String
    /// The section's heading.
    package var title: String
    /// Counts the numbers at `context.now` (the console's clock) for the server's apps.
    package var counts: @Sendable (_ context: AdminOverviewContext) async throws -> [AdminOverviewCount]

    /// Creates a section.
    package init(app: String, title: String, counts: @escaping @Sendable (_ context: AdminOverviewContext) async throws -> [AdminOverviewCount]) {
        self.app = app
        self.title = title
        self.counts = counts
    }
}

/// What a section's counts are asked with.
package struct AdminOverviewContext: Sendable {
    /// The console's clock now.
    package var now: Date
    /// The server's app ids, sorted (a count per app reads an index led by `app`).
    package var apps: [String]

    /// Creates a context.
    package init(now: Date, apps: [String]) {
        self.now = now
        self.apps = apps
    }
}

/// Every domain's overview section, in registration order; the core offers it on
/// `DomainServices` before the domains install, so the console reads it without importing a domain.
package struct AdminOverviews: Sendable {
    /// The sections.
    package var sections: [AdminOverviewSection]

    /// Creates the list.
    package init(sections: [AdminOverviewSection]) {
        self.sections = sections
    }

    /// Kindred's version, as the home page states it.
    package static var serverVersion: String { HomePage.version }

    /// The start of the UTC day holding `date`, and the 30 day starts ending with it (oldest first).
    package static func dayStarts(endingAt date: Date) -> [Int64] {
        let day: Int64 = 86_400_000
        let today = date.millisecondsSince1970 / day * day
        return (0..<30).map { today - Int64(29 - $0) * day }
    }
}

extension AdminOverviews {
    /// Rows of `table` per UTC day over the 30 days ending with `now`'s, oldest first, counted
    /// with one range query on `timeColumn` (which must lead an index, alone or after the
    /// columns `equal` fixes), grouped by day.
    /// - Parameters:
    ///   - equal: column = value conditions (literal column names; values bound).
    ///   - scale: milliseconds per unit of `timeColumn` (1 for milliseconds, 1000 for seconds).
    package static func dailySeries(
        _ sql: any SQLDatabase, table: String, timeColumn: String, equal: [(String, String)] = [], scale: Int64 = 1, now: Date
    ) async throws -> [Int] {
        let days = dayStarts(endingAt: now)
        guard let first = days.first else { return [] }
        let unit: Int64 = 86_400_000 / scale
        let start = first / scale
        var query = SQLQueryString("SELECT (\(ident: timeColumn) - \(bind: start)) / \(bind: unit) AS d, COUNT(*) AS n FROM \(ident: table) WHERE \(ident: timeColumn) >= \(bind: start)")
        for (column, value) in equal { query += " AND \(ident: column) = \(bind: value)" }
        query += " GROUP BY d"
        var series = [Int](repeating: 0, count: days.count)
        for row in try await sql.raw(query).all() {
            let day = try row.decode(column: "d", as: Int64.self)
            if day >= 0, day < Int64(series.count) { series[Int(day)] += try row.decode(column: "n", as: Int.self) }
        }
        return series
    }
}
