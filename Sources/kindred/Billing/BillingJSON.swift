import ArgumentParser
import BillingServer
import Foundation
import KindredServerCore

extension BillingProvider: ExpressibleByArgument {}

/// The JSON documents `kindred billing … --json` prints (one per command). Times keep the
/// units of the API: expirations in Unix seconds, event and write times in milliseconds.
enum BillingJSON {
    /// `show --json`.
    struct Detail: Encodable {
        struct Computed: Encodable {
            var state: String
            var latestExpiration: Int64?
            var trialEndDate: Int64?
            var doubleBilling: Bool
        }

        struct Link: Encodable {
            var provider: String
            var externalId: String
        }

        var userId: String
        var computed: Computed
        var record: SubscriptionRecord?
        var links: [Link]
        var plans: [PlanEntry]
        var events: [Event]
        var responses: [Response]?

        struct Response: Encodable {
            var provider: String
            var fetchedAt: Int64
            var outcome: String
            var exchanges: [ProviderExchange]
        }

        struct ProviderExchange: Decodable, Encodable {
            var method: String
            var path: String
            var status: Int
            var body: String
        }

        init(_ detail: BillingAdministration.Detail, userID: String, raw: Bool = false) {
            userId = userID
            computed = Computed(
                state: detail.snapshot.status, latestExpiration: detail.snapshot.latestExpiration,
                trialEndDate: detail.snapshot.trialEndDate, doubleBilling: detail.snapshot.doubleBilling
            )
            record = detail.record
            links = detail.links.map { Link(provider: $0.provider.rawValue, externalId: $0.externalID) }
            plans = detail.plans
            events = detail.events.map(Event.init)
            if raw {
                responses = detail.responses.map {
                    Response(
                        provider: $0.provider.rawValue, fetchedAt: $0.fetchedAt, outcome: $0.outcome,
                        exchanges: (try? JSONDecoder().decode([ProviderExchange].self, from: Data($0.exchanges.utf8))) ?? []
                    )
                }
            }
        }
    }

    /// An applied provider event.
    struct Event: Encodable {
        var provider: String
        var eventId: String
        var type: String
        var outcome: String
        var eventTime: Int64
        var appliedAt: Int64
        var userId: String?

        init(_ event: BillingAdministration.AppliedEvent) {
            provider = event.provider.rawValue
            eventId = event.eventID
            type = event.type
            outcome = event.outcome
            eventTime = event.eventTime
            appliedAt = event.appliedAt
            userId = event.userID
        }
    }

    /// `sync --json`.
    struct SyncOutcome: Encodable {
        var userID: String
        var providers: [String]
        var appended: Int
        var failed: [String]
        var record: SubscriptionRecord?
    }

    /// `backfill … --json`: the console's report.
    struct Backfill: Encodable {
        struct Change: Encodable {
            var userId: String
            var summary: String
        }

        var kind: String
        var dryRun: Bool
        var examined: Int
        var changes: [Change]
        var failures: [String]

        init(kind: String, _ report: BillingAdministration.BackfillReport) {
            self.kind = kind
            dryRun = report.dryRun
            examined = report.examined
            changes = report.changes.map { Change(userId: $0.userID, summary: $0.summary) }
            failures = report.failures
        }
    }
}
