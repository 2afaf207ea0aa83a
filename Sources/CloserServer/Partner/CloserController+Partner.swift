import CloserAPI
import KindredServerCore
import SQLKit

/// The partner's display name and photo (issue 25): the seed's couple metadata is plaintext by
/// design, so a member may read the other member's profile name and photo URL — and no one else.
extension CloserController {
    /// The other member's display name and photo URL, from their account profile.
    /// - Throws: 404 `couple_not_found` unless the caller is a member of `coupleID`.
    func partnerProfile(_ user: AuthenticatedUser, coupleID: String) async throws -> Components.Schemas.CloserPartnerProfile {
        let sql = database.sql
        let couple = try await Self.couple(coupleID, member: user.user.id, on: sql)
        let partnerID = couple.partner(of: user.user.id)
        let row = try await sql.select().columns("display_name", "photo_url").from("kindred_users")
            .where("id", .equal, partnerID).first()
        // The couple row cascades with either account, so a member's partner always has a row;
        // a missing one means the account is being deleted right now.
        guard let row else { throw KindredError.coupleNotFound }
        let name = try row.decode(column: "display_name", as: String?.self)
        let photo = try row.decode(column: "photo_url", as: String?.self)
        return .init(
            userId: partnerID,
            displayName: name.flatMap { $0.isEmpty ? nil : $0 },
            photoUrl: photo.flatMap { $0.isEmpty ? nil : $0 }
        )
    }
}
