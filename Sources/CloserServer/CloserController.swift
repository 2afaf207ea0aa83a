import KindredServerCore
import Foundation
import CloserAPI
import KindredStore
import SQLKit

/// Closer's server side (issue 5, docs/closer.md): the catalog, invites, couples, device keys,
/// daily questions, sealed answers and release keys, threads, history and reminders. The server
/// stores and relays ciphertext and checks its shapes; it never decrypts.
///
/// Every operation takes the authenticated caller; couple routes first check that the caller
/// is a member (`couple_not_found` otherwise). The operations live in one extension per
/// concern (`CloserController+Invites.swift`, …).
struct CloserController: Sendable {
    let database: Database
    let clock: any WallClock
    let catalog: CloserCatalog
    /// The date ideas (bundled and imported), loaded at start.
    let dateIdeas: DateIdeasCatalog
    /// The game packs (bundled and imported), loaded at start.
    let games: GamesCatalog
    /// The connection challenges (bundled and imported), loaded at start.
    var challenges: ChallengesCatalog = .bundled
    let settings: CloserSettings
    let entitlements: any CloserEntitlements
    let events: CloserEvents
    /// Called after someone joins or leaves a couple: realtime subscriptions are re-checked.
    let membershipChanged: @Sendable (_ userID: String) async -> Void

    var assigner: CloserAssigner { CloserAssigner(settings: settings, entitlements: entitlements) }

    /// The current time in milliseconds.
    var nowMS: Int64 { clock.now().millisecondsSince1970 }

    /// Refuses callers of other apps.
    static func requireCloser(_ user: AuthenticatedUser) throws {
        guard user.user.app == AppID.closer.rawValue else { throw KindredError.wrongApp }
    }

    /// The couple `id` if `userID` is a member of it.
    /// - Throws: `couple_not_found` otherwise.
    /// With `locking`, the row stays locked until the transaction ends (`FOR UPDATE` on
    /// PostgreSQL; SQLite's single writer already serializes write transactions), so writers
    /// that read the couple's state and then change it go one after the other.
    static func couple(
        _ id: String, member userID: String, locking: Bool = false, on sql: any SQLDatabase
    ) async throws -> CoupleRecord {
        // Written once (`CloserQueries`): every Closer request reads its couple.
        let statement = locking ? CloserQueries.coupleOfMemberLocked : CloserQueries.coupleOfMember
        let row = try await sql.first(statement.binding(id, userID, userID))
        guard let row else { throw KindredError.coupleNotFound }
        return try CoupleRecord(row: row)
    }

    /// The couple `userID` is in, if any.
    static func coupleOf(_ userID: String, on sql: any SQLDatabase) async throws -> CoupleRecord? {
        guard let member = try await sql.select().column("couple_id").from("closer_members").where("user_id", .equal, userID).first() else {
            return nil
        }
        return try await couple(try member.decode(column: "couple_id", as: String.self), member: userID, on: sql)
    }

    /// Whether the couple is premium.
    func isPremium(_ couple: CoupleRecord) async throws -> Bool {
        try await entitlements.isPremium(coupleID: couple.id, userIDs: couple.userIDs)
    }

    /// The API document of a couple.
    func document(_ couple: CoupleRecord) async throws -> Components.Schemas.CloserCouple {
        couple.api(isPremium: try await isPremium(couple))
    }

    /// The API document of a catalog question.
    func document(_ question: CloserCatalog.Question) -> Components.Schemas.CloserQuestion {
        Components.Schemas.CloserQuestion(
            id: question.id, packId: question.packID, categoryId: question.categoryID, text: question.text,
            isPremium: question.isPremium, active: question.active
        )
    }
}
