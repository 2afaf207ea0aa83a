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

/// Premium question packs follow billing: refused to a free couple, chosen and assigned while a
/// member's RevenueCat purchase is active, and left for a free pack once it expired.
@Suite struct CloserPremiumPacksTests {
    static let now = BillingFixtures.now
    static let day: Int64 = 86_400

    @Test(arguments: Backend.all)
    func premiumPacksFollowTheMembersSubscription(backend: Backend) async throws {
        let clock = TestClock(start: BillingFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { app, client in
            let pair = try await client.closerPair("premium")
            let a = pair.inviter
            let settings = "/v1/closer/couples/\(pair.coupleID)/settings"
            let refused = try await client.call(.patch, settings, token: a.accessToken, json: #"{"activePackId":"deeper"}"#)
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "premium_required")

            let purchase = try await client.revenueCatWebhook(BillingFixtures.revenueCat(
                id: "cp1", type: "INITIAL_PURCHASE", user: a.user.id, product: "closer_premium_monthly",
                expiresAt: Self.now + 30 * Self.day, eventAt: Self.now - 100
            ))
            #expect(purchase.status == .ok)
            await app.drainInbox()
            let chosen = try await client.call(.patch, settings, token: a.accessToken, json: #"{"activePackId":"deeper"}"#)
            #expect(chosen.status == .ok, "\(chosen.text)")
            let today = client.object(try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: a.accessToken))
            #expect((today["questionId"] as? String)?.hasPrefix("deeper-") == true, "\(today)")

            // The daily job, as the server registers it, the next day: still premium.
            let platform = try Platform.server(
                database: app.database, clock: clock, logger: platformLogger,
                closerEntitlements: EntitledCouples(app.entitlements)
            )
            clock.advance(by: .seconds(Self.day))
            #expect(try await platform.jobs.runNow("closer.assign-daily-questions").outcome == .ok)
            #expect(try await Self.days(pair.coupleID, app) == 2)
            #expect(try await Self.latestQuestion(pair.coupleID, app).hasPrefix("deeper-"))

            // Expired: the next assignment comes from a free pack.
            let expired = try await client.revenueCatWebhook(BillingFixtures.revenueCat(
                id: "cp2", type: "EXPIRATION", user: a.user.id, product: "closer_premium_monthly",
                expiresAt: Self.now + Self.day, eventAt: Self.now + Self.day
            ))
            #expect(expired.status == .ok)
            await app.drainInbox()
            #expect(await app.entitlements.closerPremium(userID: a.user.id) == false)
            clock.advance(by: .seconds(Self.day))
            #expect(try await platform.jobs.runNow("closer.assign-daily-questions").outcome == .ok)
            #expect(try await Self.days(pair.coupleID, app) == 3)
            let free = try await Self.latestQuestion(pair.coupleID, app)
            #expect(!free.hasPrefix("deeper-"), "\(free)")
            #expect(["everyday-", "memories-", "dreams-", "fun-", "values-"].contains { free.hasPrefix($0) }, "\(free)")
        }
    }

    /// How many dates the couple has been assigned.
    static func days(_ coupleID: String, _ app: TestApplication) async throws -> Int {
        try await app.database.sql.select().column("date_key").from("closer_days").where("couple_id", .equal, coupleID).all().count
    }

    /// The question of the couple's latest assigned date.
    static func latestQuestion(_ coupleID: String, _ app: TestApplication) async throws -> String {
        let row = try await app.database.sql.select().column("question_id").from("closer_days")
            .where("couple_id", .equal, coupleID).orderBy("date_key", .descending).limit(1).first()
        return try row?.decode(column: "question_id", as: String.self) ?? ""
    }
}
