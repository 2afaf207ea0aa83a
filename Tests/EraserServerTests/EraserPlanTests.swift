@testable import EraserServer
@testable import KindredServer
@testable import KindredServerCore
import Foundation
import HummingbirdTesting
import KindredServerTestSupport
import KindredStore
import KindredTestSupport
import Testing

/// `GET /v1/exeraser/plan`: the tier from billing, the free tier's limits from the settings.
@Suite struct EraserPlanTests {
    @Test(arguments: Backend.all)
    func theFreeTierHasTheConfiguredLimitsAndTheHealingPassNone(backend: Backend) async throws {
        let clock = TestClock(start: EraserFixtures.start)
        try await TestApplication.run(on: backend, clock: clock, billing: BillingFixtures.settings()) { application, client in
            let free = try await client.anonymous(app: "exeraser")
            let buyer = try await client.anonymous(app: "exeraser")
            let before = try await client.eraser(.get, "/v1/exeraser/plan", token: buyer.accessToken)
            #expect(before.status == .ok)
            #expect(
                before.text
                    == #"{"coolingOffDays":7,"limits":{"contacts":1,"dateRanges":1,"referencePhotos":3,"vaultItems":50},"tier":"free"}"#
            )
            let purchase = BillingFixtures.revenueCat(
                id: "x1", type: "INITIAL_PURCHASE", user: buyer.user.id, product: "healing_pass",
                expiresAt: BillingFixtures.now + 86_400, eventAt: BillingFixtures.now, original: "otx-x"
            )
            #expect(try await client.revenueCatWebhook(purchase).status == .ok)
            await application.drainInbox()
            let after = try await client.eraser(.get, "/v1/exeraser/plan", token: buyer.accessToken)
            #expect(after.text == #"{"coolingOffDays":7,"limits":{"referencePhotos":5},"tier":"healing_pass"}"#)
            #expect(try await client.eraser(.get, "/v1/exeraser/plan", token: free.accessToken).text.contains(#""tier":"free""#))
            // The pass ends with its period.
            clock.advance(by: .seconds(86_401))
            let later = try await client.eraser(.get, "/v1/exeraser/plan", token: try await client.refreshed(buyer))
            #expect(later.text.contains(#""tier":"free""#), "\(later.text)")
        }
    }

    @Test func theFreeLimitsComeFromTheSettingsAndAnUnknownTierIsFree() {
        var settings = EraserSettings()
        settings.freeVaultItems = 10
        settings.freeReferencePhotos = 1
        settings.freeDateRanges = 0
        let plan = EraserController.plan(forTier: "free", settings: settings)
        #expect(plan.tier == .free)
        #expect(plan.limits == .init(referencePhotos: 1, vaultItems: 10, dateRanges: 0, contacts: 1))
        #expect(EraserController.plan(forTier: "premium", settings: settings) == plan)
        #expect(EraserController.plan(forTier: "healing_pass", settings: settings).limits == .init(referencePhotos: 5))
    }

    @Test func settingsComeFromTheEnvironmentWithinTheirRanges() async throws {
        let defaults = try await ServerSettings.resolve(flags: .init(), environment: [:]).server.domains.exeraser
        #expect(defaults == EraserSettings())
        let set = try await ServerSettings.resolve(
            flags: .init(),
            environment: [
                "KINDRED_EXERASER_FREE_VAULT_ITEMS": "20", "KINDRED_EXERASER_FREE_REFERENCE_PHOTOS": "2",
                "KINDRED_EXERASER_ANALYTICS_RETENTION_DAYS": "90",
            ]
        ).server.domains.exeraser
        #expect(set.freeVaultItems == 20 && set.freeReferencePhotos == 2 && set.analyticsRetentionDays == 90)
        await #expect(throws: ServerSettings.Invalid(description: "exeraser.freeReferencePhotos must be 1 to 5, not 6")) {
            try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_EXERASER_FREE_REFERENCE_PHOTOS": "6"])
        }
    }
}
