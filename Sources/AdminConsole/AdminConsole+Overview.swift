import Foundation
import Hummingbird
import KindredServerCore

extension AdminConsole {
    /// `GET /admin`: the landing page. Per app: accounts (total, new today / 7 / 30 days, active
    /// in the last day), then each domain's headline numbers, then the server's health.
    func overviewPage(_ request: Request) async throws -> Response {
        let session = try await session(request)
        let now = sessions.clock.now()
        let apps = try await accounts.overview(now: now).map { app in
            StatGroup(title: app.app, stats: [
                Stat(label: "Accounts", value: app.total),
                Stat(label: "New today", value: app.today, series: app.series),
                Stat(label: "New in 7 days", value: app.week),
                Stat(label: "New in 30 days", value: app.month),
                Stat(label: "Active in the last day", value: app.activeDay),
            ], failed: nil)
        }
        let context = AdminOverviewContext(now: now, apps: accounts.apps)
        var domains: [StatGroup] = []
        for section in overviews.sections {
            do {
                let counts = try await section.counts(context)
                domains.append(StatGroup(
                    title: section.title, stats: counts.map { Stat(label: $0.label, value: $0.value, series: $0.series) },
                    failed: nil
                ))
            } catch {
                logger.error("admin overview: \(section.app) failed: \(error)")
                domains.append(StatGroup(title: section.title, stats: [], failed: "Could not count: see the server log."))
            }
        }
        let ping = await AdminHealth.ping(sessions.database)
        let uptime = Int64(max(0, now.timeIntervalSince(health.startedAt)) * 1000)
        let view = AdminViews.Overview(
            session: Self.view(session), notice: try await sessions.takeFlash(session),
            health: [
                Stat(label: ping.ok ? "Database answers (ms)" : "Database does not answer", value: ping.milliseconds),
                Stat(label: "Dead letters", value: try await queueSummary().reduce(0) { $0 + $1.deadLetters }),
            ],
            version: health.version, database: health.database, uptime: AdminFormat.age(milliseconds: uptime),
            startedAt: AdminViews.Time(health.startedAt), apps: apps, domains: domains, hasDomains: !domains.isEmpty
        )
        return templates.page("overview", view)
    }
}

/// The overview's view types, shortened.
typealias Stat = AdminViews.Stat
/// A titled group of numbers.
typealias StatGroup = AdminViews.StatGroup
