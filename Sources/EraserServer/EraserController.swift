import EraserAPI
import Foundation
import KindredServerCore
import KindredStore

/// Ex-Eraser's server side (issue 23, docs/exeraser.md): the plan (tier and limits) and anonymous
/// analytics. Everything else of the app happens on the device.
struct EraserController: Sendable {
    let database: Database
    let clock: any WallClock
    let settings: EraserSettings
    let entitlements: any Entitlements
    let rateLimiter: RateLimiter

    /// Refuses callers of other apps.
    static func requireExEraser(_ user: AuthenticatedUser) throws {
        guard user.app == AppID.exeraser.rawValue else { throw KindredError.wrongApp }
    }

    /// Days a deleted item waits in the Cooling Off bin (the seed's seven; the device's rule).
    static let coolingOffDays = 7

    /// The caller's tier and the limits the device enforces for it.
    func plan(_ user: AuthenticatedUser) async -> Components.Schemas.ExEraserPlan {
        Self.plan(forTier: await entitlements.tier(userID: user.id), settings: settings)
    }

    /// The plan of a tier: the Healing Pass allows five reference photos (the seed's most) and
    /// limits nothing else; any other tier is the free one, with the configured limits.
    static func plan(forTier tier: String, settings: EraserSettings) -> Components.Schemas.ExEraserPlan {
        if tier == Components.Schemas.ExEraserTier.healingPass.rawValue {
            return .init(tier: .healingPass, limits: .init(referencePhotos: 5), coolingOffDays: coolingOffDays)
        }
        return .init(
            tier: .free,
            limits: .init(
                referencePhotos: settings.freeReferencePhotos, vaultItems: settings.freeVaultItems,
                dateRanges: settings.freeDateRanges, contacts: settings.freeContacts
            ),
            coolingOffDays: coolingOffDays
        )
    }
}
