import Foundation
import AdminConsole
import BillingServer
import CloserServer
import KindredServer
import KindredServerCore

/// How `kindred billing` prints billing's records: `name<TAB>value` lines for one user, one
/// tab-separated line per event or flagged record; dates ISO 8601 in UTC, `-` for nothing.
enum BillingReport {
    /// `kindred billing show`: the computation, the stored record, the provider links, then one
    /// `plan` line per history entry (oldest first) and one `event` line per applied event (newest first).
    static func detail(_ detail: BillingAdministration.Detail, userID: String, now: Date) -> String {
        var lines = [
            "user\t\(userID)",
            "computed state\t\(detail.snapshot.status)",
            "computed latest expiration\t\(seconds(detail.snapshot.latestExpiration))",
            "computed trial end\t\(seconds(detail.snapshot.trialEndDate))",
            "computed double billing\t\(detail.snapshot.doubleBilling ? "yes" : "no")",
        ]
        let links = detail.links.map { "\($0.provider.rawValue):\($0.externalID)" }
        lines.append("links\t\(links.isEmpty ? "-" : links.joined(separator: " "))")
        var text = lines.joined(separator: "\n") + "\n" + state(detail.record, now: now)
        for plan in detail.plans {
            text += [
                "plan", plan.planType, plan.productID, plan.platform.rawValue, plan.provider.rawValue, plan.lineage,
                plan.kind.rawValue + (plan.sandbox ? " (sandbox)" : ""), seconds(plan.expiration),
                milliseconds(plan.eventTime), plan.eventID,
            ].joined(separator: "\t") + "\n"
        }
        for event in detail.events { text += "event\t" + line(event) + "\n" }
        return text
    }

    /// The stored record's lines (what the table shows), each ending in a newline.
    static func state(_ record: SubscriptionRecord?, now: Date) -> String {
        guard let record else { return "stored state\t-\n" }
        let activity = BillingAdministration.activity(of: record, now: Int64(now.timeIntervalSince1970))
        return [
            "stored state\t\(record.status.rawValue)",
            "active\t\(activity.rawValue.capitalized)",
            "latest expiration\t\(seconds(record.latestExpiration))",
            "trial end\t\(seconds(record.trialEnd))",
            "double billing\t\(record.doubleBilling ? "yes" : "no")",
            "app\t\(record.app.rawValue)",
            "plan type\t\(record.planType ?? "-")",
            "platform\t\(record.platform?.rawValue ?? "-")",
            "username\t\(record.username ?? "-")",
            "e-mail\t\(record.email ?? "-")",
        ].map { $0 + "\n" }.joined()
    }

    /// An applied event: applied at, provider, event id, type, user id, outcome, event time.
    static func line(_ event: BillingAdministration.AppliedEvent) -> String {
        [
            milliseconds(event.appliedAt), event.provider.rawValue, event.eventID, event.type, event.userID ?? "-",
            event.outcome, milliseconds(event.eventTime),
        ].joined(separator: "\t")
    }

    /// A flagged record: user id, app, e-mail, platform, plan type, status, latest expiration.
    static func line(_ record: SubscriptionRecord) -> String {
        [
            record.userID, record.app.rawValue, record.email ?? "-", record.platform?.rawValue ?? "-", record.planType ?? "-",
            record.status.rawValue, seconds(record.latestExpiration),
        ].joined(separator: "\t")
    }

    /// `show --raw`: per provider a `raw` line (provider, time, outcome), then one line per
    /// exchange: method, path, status and the redacted body.
    static func responses(_ responses: [ProviderResponses]) -> String {
        guard !responses.isEmpty else { return "raw\t-\n" }
        var text = ""
        for response in responses {
            text += "raw\t\(response.provider.rawValue)\t\(milliseconds(response.fetchedAt))\t\(response.outcome)\n"
            let exchanges = (try? JSONDecoder().decode([BillingJSON.Detail.ProviderExchange].self, from: Data(response.exchanges.utf8))) ?? []
            for exchange in exchanges {
                text += "  \(exchange.method) \(exchange.path) \(exchange.status)\t\(exchange.body)\n"
            }
        }
        return text
    }

    /// Unix seconds as ISO 8601, or `-`.
    static func seconds(_ value: Int64?) -> String {
        value.map { Date(timeIntervalSince1970: TimeInterval($0)).formatted(.iso8601) } ?? "-"
    }

    /// Milliseconds since 1970 as ISO 8601.
    static func milliseconds(_ value: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(value) / 1000).formatted(.iso8601)
    }
}
