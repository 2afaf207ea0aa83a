@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Closer's premium fails closed: while billing's state cannot be read (its plans table is
/// moved away), a couple with an active purchase reads as free, premium packs are refused and
/// the daily job assigns nothing rather than guessing; once it can be read again, premium returns.
@Suite struct CloserEntitlementsFailClosedTests {
    static let day: Int64 = 86_400

    @Test(arguments: Backend.all)
    func anUnreadableEntitlementIsNoPremium(backend: Backend) async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { app, client in
            let pair = try await client.closerPair("fail-closed")
            let a = pair.inviter
            let purchase = try await client.revenueCatWebhook(BillingFixtures.revenueCat(
                id: "fc1", type: "INITIAL_PURCHASE", user: a.user.id, product: "closer_premium_monthly",
                expiresAt: BillingFixtures.now + 30 * Self.day, eventAt: BillingFixtures.now - 100
            ))
            #expect(purchase.status == .ok)
            await app.drainInbox()
            let couplePath = "/v1/closer/couples/\(pair.coupleID)"
            #expect(client.object(try await client.call(.get, couplePath, token: a.accessToken))["isPremium"] as? Bool == true)
            let entitled = EntitledCouples(app.entitlements)
            #expect(try await entitled.isPremium(coupleID: pair.coupleID, userIDs: [a.user.id, pair.acceptor.user.id]))

            let sql = app.database.sql
            try await sql.raw("ALTER TABLE kindred_billing_plans RENAME TO kindred_billing_plans_away").run()
            // Both members' checks fail: not premium, for the routes and for the API document.
            #expect(try await entitled.isPremium(coupleID: pair.coupleID, userIDs: [a.user.id, pair.acceptor.user.id]) == false)
            #expect(client.object(try await client.call(.get, couplePath, token: a.accessToken))["isPremium"] as? Bool == false)
            let refused = try await client.call(.patch, "\(couplePath)/settings", token: a.accessToken, json: #"{"activePackId":"deeper"}"#)
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "premium_required")
            // The batch check throws, so the job's page fails and no day is assigned.
            await #expect(throws: (any Error).self) { try await entitled.premiumCouples([pair.coupleID: [a.user.id]]) }
            try await sql.update("closer_couples").set("next_assignment_at", to: clock.now().millisecondsSince1970 - 1)
                .where("id", .equal, pair.coupleID).run()
            let platform = try Platform.server(database: app.database, clock: clock, logger: platformLogger, closerEntitlements: entitled)
            let failed = try await platform.jobs.runNow("closer.assign-daily-questions")
            #expect(failed.outcome == .failed)
            #expect(try await Self.days(pair.coupleID, sql) == 0)

            try await sql.raw("ALTER TABLE kindred_billing_plans_away RENAME TO kindred_billing_plans").run()
            let chosen = try await client.call(.patch, "\(couplePath)/settings", token: a.accessToken, json: #"{"activePackId":"deeper"}"#)
            #expect(chosen.status == .ok, "\(chosen.text)")
            #expect(try await entitled.premiumCouples([pair.coupleID: [a.user.id, pair.acceptor.user.id]]) == [pair.coupleID])
            #expect(try await platform.jobs.runNow("closer.assign-daily-questions").outcome == .ok)
            #expect(try await Self.days(pair.coupleID, sql) == 1)
        }
    }

    static func days(_ coupleID: String, _ sql: any SQLDatabase) async throws -> Int {
        try await sql.select().column("date_key").from("closer_days").where("couple_id", .equal, coupleID).all().count
    }
}
