import KindredServerCore

/// Closer's premium from the core's entitlements: a couple is premium while either member's
/// Closer subscription grants access (premium question packs open to both). Each member's check
/// fails closed: a state that cannot be read counts as free.
package struct EntitledCouples: CloserEntitlements {
    let entitlements: any Entitlements

    /// Creates the check over the core's entitlements (billing's, in the server).
    package init(_ entitlements: any Entitlements) {
        self.entitlements = entitlements
    }

    /// Whether either member has Closer premium.
    package func isPremium(coupleID: String, userIDs: [String]) async throws -> Bool {
        for userID in userIDs where await entitlements.hasPremium(userID: userID, app: .closer) { return true }
        return false
    }

    /// The premium couples of a page of the daily job: one read finds the members with any plan
    /// at all (most have none), and only those have their state computed.
    /// - Throws: when that read fails (the job's page is then retried at its next run).
    package func premiumCouples(_ couples: [String: [String]]) async throws -> Set<String> {
        let members = Set(couples.values.joined())
        guard !members.isEmpty else { return [] }
        let withPlans = try await entitlements.usersWithPlans(among: members)
        var premium = Set<String>()
        for (coupleID, userIDs) in couples {
            for userID in userIDs where withPlans.contains(userID) {
                if await entitlements.hasPremium(userID: userID, app: .closer) {
                    premium.insert(coupleID)
                    break
                }
            }
        }
        return premium
    }
}
