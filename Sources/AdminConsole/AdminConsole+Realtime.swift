import Foundation
import Hummingbird
import KindredServerCore
import SQLKit

extension AdminConsole {
    /// The busiest channels the realtime page lists.
    static let busiestChannels = 10

    /// `GET /admin/realtime`: this replica's open connections, subscriptions and channels (with the
    /// busiest by subscribers), its events per minute over the last hour (published here and
    /// delivered to subscribers here), and the events every replica stored in the last hour.
    func realtimePage(_ request: Request) async throws -> Response {
        let session = try await session(request)
        let summary = await realtime.channelSummary(limit: Self.busiestChannels)
        let published = realtime.activity.series(RealtimeActivityKey.published)
        let delivered = realtime.activity.series(RealtimeActivityKey.delivered)
        let stored = try await storedEvents(since: sessions.clock.now().addingTimeInterval(-3600))
        let view = AdminViews.Realtime(
            session: Self.view(session), notice: try await sessions.takeFlash(session),
            replica: [
                Stat(label: "Open connections", value: realtime.connectionCount),
                Stat(label: "Subscriptions", value: await realtime.subscriptionCount),
                Stat(label: "Channels with subscribers", value: summary.channels),
            ],
            events: [
                Stat(label: "Published here, last hour", value: published.reduce(0, +), series: published, unit: .minutes),
                Stat(label: "Delivered here, last hour", value: delivered.reduce(0, +), series: delivered, unit: .minutes),
                Stat(label: "Published this minute", value: published.last ?? 0),
            ],
            stored: Stat(label: "Stored by every replica, last hour", value: stored),
            channels: summary.busiest.map { AdminViews.ChannelRow(channel: $0.channel, subscribers: AdminFormat.number($0.subscribers)) },
            minutes: realtime.activity.minutes
        )
        return templates.page("realtime", view)
    }

    /// Events stored since `start` on every replica (a range of `kindred_realtime_events_created`;
    /// events already pruned by retention are not counted).
    func storedEvents(since start: Date) async throws -> Int {
        try await sessions.database.sql.raw("""
            SELECT COUNT(*) AS n FROM kindred_realtime_events WHERE created_at >= \(bind: start.millisecondsSince1970)
            """).first()?.decode(column: "n", as: Int.self) ?? 0
    }
}
