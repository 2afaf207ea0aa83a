import KindredStore
import SQLKit

/// Closer's premium, from billing: a couple is premium while either member's Closer
/// subscription grants access (premium question packs open to both). Each member's check fails
/// closed: a state that cannot be read counts as free.
public struct BillingCloserEntitlements: CloserEntitlements {
    let entitlements: Entitlements

    /// Creates the hook over billing's checks.
    public init(_ entitlements: Entitlements) {
        self.entitlements = entitlements
    }

    /// Whether either member has Closer premium.
    public func isPremium(coupleID: String, userIDs: [String]) async throws -> Bool {
        for userID in userIDs where await entitlements.closerPremium(userID: userID) { return true }
        return false
    }

    /// The premium couples of a page of the daily job: one read finds the members with any plan
    /// at all (most have none), and only those have their state computed.
    /// - Throws: when that read fails (the job's page is then retried at its next run).
    public func premiumCouples(_ couples: [String: [String]]) async throws -> Set<String> {
        let members = Set(couples.values.joined())
        guard !members.isEmpty else { return [] }
        let withPlans = Set(
            try await entitlements.database.sql.select().distinct().column("user_id").from("kindred_billing_plans")
                .where("user_id", .in, Array(members)).all()
                .map { try $0.decode(column: "user_id", as: String.self) }
        )
        var premium = Set<String>()
        for (coupleID, userIDs) in couples {
            for userID in userIDs where withPlans.contains(userID) {
                if await entitlements.closerPremium(userID: userID) {
                    premium.insert(coupleID)
                    break
                }
            }
        }
        return premium
    }
}
