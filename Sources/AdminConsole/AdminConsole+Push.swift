import Foundation
import Hummingbird
import KindredServerCore

extension AdminConsole {
    /// `GET /admin/push`: deliveries, failures and pruned tokens per transport and per app over
    /// 30 days (with a daily chart each), the notifications the queue gave up on, and the outbox's backlog.
    func pushPage(_ request: Request) async throws -> Response {
        let session = try await session(request)
        let now = sessions.clock.now()
        let push = AdminPush(database: sessions.database)
        let lines = try await push.lines(now: now)
        let backlog = try await push.backlog(now: now)
        var byTransport: [String: (delivered: [Int], failed: [Int], pruned: [Int])] = [:]
        for line in lines {
            let zero = Array(repeating: 0, count: line.delivered.count)
            let sum = byTransport[line.transport] ?? (zero, zero, zero)
            byTransport[line.transport] = (
                zip(sum.delivered, line.delivered).map(+), zip(sum.failed, line.failed).map(+), zip(sum.pruned, line.pruned).map(+)
            )
        }
        let transports = byTransport.keys.sorted().map { transport in
            let series = byTransport[transport] ?? ([], [], [])
            return StatGroup(title: transport, stats: [
                Stat(label: "Delivered in 30 days", value: series.delivered.reduce(0, +), series: series.delivered),
                Stat(label: "Failed in 30 days", value: series.failed.reduce(0, +), series: series.failed),
                Stat(label: "Tokens pruned in 30 days", value: series.pruned.reduce(0, +), series: series.pruned),
            ], failed: nil)
        }
        let rows = lines.map { line in
            AdminViews.PushRow(
                app: line.app, transport: line.transport,
                delivered: AdminFormat.number(line.delivered.reduce(0, +)), deliveredToday: AdminFormat.number(line.delivered.last ?? 0),
                failed: AdminFormat.number(line.failed.reduce(0, +)), failedToday: AdminFormat.number(line.failed.last ?? 0),
                pruned: AdminFormat.number(line.pruned.reduce(0, +)), prunedToday: AdminFormat.number(line.pruned.last ?? 0)
            )
        }
        let givenUp = try await push.givenUp(now: now).map { Stat(label: "\($0.app) · gave up", value: $0.count) }
        let view = AdminViews.Push(
            session: Self.view(session), notice: try await sessions.takeFlash(session),
            backlog: [
                Stat(label: "Waiting to send", value: backlog.waiting),
                Stat(label: "Deferred (quiet hours)", value: backlog.deferred),
            ],
            oldestAge: backlog.oldest.map { AdminFormat.age(milliseconds: now.millisecondsSince1970 - $0.millisecondsSince1970) } ?? "—",
            transports: transports, rows: rows, givenUp: givenUp
        )
        return templates.page("push", view)
    }
}
