@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Testing

/// The state computation: latest entry per lineage by provider event time, max over lineages.
@Suite struct SubscriptionSnapshotTests {
    static let now: Int64 = 1_750_000_000

    static func entry(
        _ id: String, lineage: String = "L1", provider: BillingProvider = .revenuecat, kind: PlanKind = .purchase,
        expiration: Int64, eventTime: Int64, sandbox: Bool = false, createdAt: Int64 = 0
    ) -> PlanEntry {
        PlanEntry(
            id: id, userID: "u", app: .pulse, planType: "pulsecheck-monthly", productID: "pc_1m",
            platform: provider == .stripe ? .web : .ios, provider: provider, lineage: lineage, kind: kind,
            expiration: expiration, eventTime: eventTime, eventID: "e-\(id)", sandbox: sandbox, createdAt: createdAt
        )
    }

    @Test func noEntriesIsUnknown() {
        let snapshot = SubscriptionSnapshot.compute(plans: [], now: Self.now, sandboxGrantsAccess: false)
        #expect(snapshot.state == .unknown)
        #expect(snapshot.latestExpiration == nil)
        #expect(snapshot.status == "unknown")
    }

    @Test func latestExpirationOverLineagesGrantsAccess() {
        let plans = [
            Self.entry("a", lineage: "L1", expiration: Self.now - 10, eventTime: 1),
            Self.entry("b", lineage: "L2", expiration: Self.now + 3600, eventTime: 2),
            Self.entry("c", lineage: "L1", kind: .renewal, expiration: Self.now + 60, eventTime: 3),
        ]
        let snapshot = SubscriptionSnapshot.compute(plans: plans, now: Self.now, sandboxGrantsAccess: false)
        #expect(snapshot.state == .active)
        #expect(snapshot.latestExpiration == Self.now + 3600)
        #expect(snapshot.current?.latest.id == "b")
        #expect(snapshot.lineages.map(\.latest.id) == ["b", "c"])
    }

    @Test func everyLineageEndedIsExpired() {
        let plans = [Self.entry("a", expiration: Self.now - 1, eventTime: 1)]
        let snapshot = SubscriptionSnapshot.compute(plans: plans, now: Self.now, sandboxGrantsAccess: false)
        #expect(snapshot.state == .expired)
        #expect(snapshot.latestExpiration == Self.now - 1)
    }

    @Test func anExpirationEqualToNowHasEnded() {
        let plans = [Self.entry("a", expiration: Self.now, eventTime: 1)]
        #expect(SubscriptionSnapshot.compute(plans: plans, now: Self.now, sandboxGrantsAccess: false).state == .expired)
    }

    @Test func aRevocationEndsItsLineageEarly() {
        let plans = [
            Self.entry("a", expiration: Self.now + 86_400, eventTime: 1_000),
            Self.entry("b", kind: .revocation, expiration: Self.now - 5, eventTime: 2_000),
        ]
        let snapshot = SubscriptionSnapshot.compute(plans: plans, now: Self.now, sandboxGrantsAccess: false)
        #expect(snapshot.state == .expired)
        #expect(snapshot.latestExpiration == Self.now - 5)
    }

    @Test func anOlderEventDeliveredLateChangesNothing() {
        // The renewal (event time 2000) was applied first; the purchase (event time 1000) arrives later.
        let plans = [
            Self.entry("renewal", kind: .renewal, expiration: Self.now + 7200, eventTime: 2_000, createdAt: 10),
            Self.entry("purchase", expiration: Self.now - 100, eventTime: 1_000, createdAt: 20),
        ]
        let snapshot = SubscriptionSnapshot.compute(plans: plans, now: Self.now, sandboxGrantsAccess: false)
        #expect(snapshot.state == .active)
        #expect(snapshot.latestExpiration == Self.now + 7200)
    }

    @Test func aTrialAloneIsTrialingWithItsEndDate() {
        let plans = [Self.entry("t", kind: .trial, expiration: Self.now + 600, eventTime: 1)]
        let snapshot = SubscriptionSnapshot.compute(plans: plans, now: Self.now, sandboxGrantsAccess: false)
        #expect(snapshot.state == .trialing)
        #expect(snapshot.trialEndDate == Self.now + 600)
        #expect(snapshot.state.grantsAccess)
    }

    @Test func aPaidPlanAfterATrialIsActiveAndKeepsTheTrialEnd() {
        let plans = [
            Self.entry("t", kind: .trial, expiration: Self.now - 600, eventTime: 1),
            Self.entry("p", kind: .renewal, expiration: Self.now + 600, eventTime: 2),
        ]
        let snapshot = SubscriptionSnapshot.compute(plans: plans, now: Self.now, sandboxGrantsAccess: false)
        #expect(snapshot.state == .active)
        #expect(snapshot.trialEndDate == Self.now - 600)
    }

    @Test func sandboxEntriesCountOnlyWhenAllowed() {
        let plans = [Self.entry("s", expiration: Self.now + 600, eventTime: 1, sandbox: true)]
        #expect(SubscriptionSnapshot.compute(plans: plans, now: Self.now, sandboxGrantsAccess: false).state == .expired)
        #expect(SubscriptionSnapshot.compute(plans: plans, now: Self.now, sandboxGrantsAccess: true).state == .active)
    }

    @Test func bothProvidersActiveIsFlaggedAsDoubleBilling() {
        let plans = [
            Self.entry("rc", lineage: "otx", provider: .revenuecat, expiration: Self.now + 100, eventTime: 1),
            Self.entry("st", lineage: "sub_1", provider: .stripe, expiration: Self.now + 900, eventTime: 2),
        ]
        let snapshot = SubscriptionSnapshot.compute(plans: plans, now: Self.now, sandboxGrantsAccess: false)
        #expect(snapshot.doubleBilling)
        #expect(snapshot.state == .active)
        #expect(snapshot.latestExpiration == Self.now + 900)
        #expect(snapshot.current?.latest.platform == .web)
    }

    @Test func anEndedProviderIsNoDoubleBilling() {
        let plans = [
            Self.entry("rc", lineage: "otx", provider: .revenuecat, expiration: Self.now - 100, eventTime: 1),
            Self.entry("st", lineage: "sub_1", provider: .stripe, expiration: Self.now + 900, eventTime: 2),
        ]
        #expect(!SubscriptionSnapshot.compute(plans: plans, now: Self.now, sandboxGrantsAccess: false).doubleBilling)
    }

    @Test func aTransferOutEndsTheLineageForItsOwner() {
        let plans = [
            Self.entry("p", expiration: Self.now + 86_400, eventTime: 1_000),
            Self.entry("out", kind: .transferOut, expiration: Self.now - 1, eventTime: 2_000),
        ]
        #expect(SubscriptionSnapshot.compute(plans: plans, now: Self.now, sandboxGrantsAccess: false).state == .expired)
    }
}
