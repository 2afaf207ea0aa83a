import AdminConsole
import BillingServer
import CloserServer
import KindredServerCore
import Foundation
import KindredStore

/// The subscription pages' directory over billing's administration API: converts its records,
/// snapshots and reports into the console's terms.
struct BillingConsoleDirectory: AdminSubscriptionDirectory {
    let billing: BillingAdministration
    let clock: any WallClock

    func search(_ query: AdminSubscriptionQuery) async throws -> AdminSubscriptionPage {
        let page = try await billing.subscriptions(
            BillingAdministration.Query(
                search: query.search, status: query.status.flatMap(SubscriptionState.init(rawValue:)),
                platform: query.platform.flatMap(BillingPlatform.init(rawValue:)), limit: query.limit, offset: query.offset
            )
        )
        return AdminSubscriptionPage(rows: page.rows.map { Self.row($0.record, activity: $0.activity) }, total: page.total)
    }

    func detail(userID: String) async throws -> AdminSubscriptionDetail? {
        guard let detail = try await billing.detail(userID: userID) else { return nil }
        return AdminSubscriptionDetail(
            row: detail.record.map { row($0) }, userID: userID, computedStatus: detail.snapshot.status,
            computedExpiration: detail.snapshot.latestExpiration.map(Self.seconds),
            trialEnd: detail.snapshot.trialEndDate.map(Self.seconds),
            plans: detail.plans.map { plan in
                AdminPlanEntry(
                    planType: plan.planType, productID: plan.productID, platform: plan.platform.rawValue,
                    provider: plan.provider.rawValue, lineage: plan.lineage, kind: plan.kind.rawValue,
                    expiration: Self.seconds(plan.expiration), eventTime: Date(millisecondsSince1970: plan.eventTime),
                    eventID: plan.eventID, sandbox: plan.sandbox
                )
            },
            links: detail.links.map { "\($0.provider.rawValue): \($0.externalID)" },
            events: detail.events.map { event in
                "\(event.provider.rawValue) \(event.eventID) \(event.type) → \(event.outcome) "
                    + "(event \(Date(millisecondsSince1970: event.eventTime).formatted(.iso8601)), "
                    + "applied \(Date(millisecondsSince1970: event.appliedAt).formatted(.iso8601)))"
            },
            rawResponses: detail.responses.map { response in
                "\(response.provider.rawValue) at \(Date(millisecondsSince1970: response.fetchedAt).formatted(.iso8601)): "
                    + "\(response.outcome)\n\(response.exchanges)"
            }
        )
    }

    func refresh(userID: String) async throws -> Bool {
        try await billing.refresh(userID: userID) != nil
    }

    func syncNow(userID: String, providers: AdminSyncProviders) async throws -> AdminSyncOutcome? {
        let chosen: Set<BillingProvider> = switch providers {
        case .both: [.stripe, .revenuecat]
        case .stripe: [.stripe]
        case .revenuecat: [.revenuecat]
        }
        guard let outcome = try await billing.syncNow(userID: userID, providers: chosen) else { return nil }
        return AdminSyncOutcome(appended: outcome.appended, failedProviders: outcome.failed.map(\.rawValue))
    }

    func backfill(_ kind: AdminBackfillKind, dryRun: Bool, userID: String?) async throws -> AdminBackfillReport {
        let report = switch kind {
        case .userFields: try await billing.backfillUserFields(dryRun: dryRun)
        case .expirationHistory: try await billing.backfillExpirationHistory(dryRun: dryRun, userID: userID)
        }
        return AdminBackfillReport(
            dryRun: report.dryRun, examined: report.examined,
            changes: report.changes.map { (userID: $0.userID, summary: $0.summary) }, failures: report.failures
        )
    }

    func doubleBilled(limit: Int) async throws -> [AdminSubscriptionRow] {
        try await billing.doubleBilled(limit: limit).map { row($0) }
    }

    /// A record as a table row, with the tri-state Active column computed now.
    private func row(_ record: SubscriptionRecord) -> AdminSubscriptionRow {
        Self.row(record, activity: BillingAdministration.activity(of: record, now: Int64(clock.now().timeIntervalSince1970)))
    }

    private static func row(_ record: SubscriptionRecord, activity: BillingAdministration.Activity) -> AdminSubscriptionRow {
        AdminSubscriptionRow(
            subscriptionID: record.userID, userID: record.userID, username: record.username, email: record.email,
            platform: record.platform?.rawValue, planType: record.planType, status: record.status.rawValue,
            active: activity.rawValue.capitalized, latestExpiration: record.latestExpiration.map(seconds),
            doubleBilling: record.doubleBilling
        )
    }

    /// A Unix time in seconds as a date.
    private static func seconds(_ value: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(value)) }
}
