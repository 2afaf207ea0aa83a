import KindredServerCore
import Foundation
import CloserAPI
import KindredCrypto
import SQLKit

/// A row of `closer_invites`.
struct InviteRecord: Sendable {
    var code: String
    var inviterID: String
    var status: String
    var encryptionVersion: Int?
    var wrappedCoupleKey: String?
    var kdfSalt: String?
    var kdfParams: String?
    var encryptedPhrase: String?
    var verifier: String?
    var inviteKdfSalt: String?
    var inviteKdfParams: String?
    var coupleID: String?
    var createdAt: Int64
    var expiresAt: Int64
    var acceptedAt: Int64?

    static let columns = [
        "code", "user_id", "status", "encryption_version", "wrapped_couple_key", "kdf_salt", "kdf_params",
        "encrypted_phrase", "verifier", "invite_kdf_salt", "invite_kdf_params", "couple_id", "created_at",
        "expires_at", "accepted_at",
    ]

    init(row: any SQLRow) throws {
        code = try row.decode(column: "code", as: String.self)
        inviterID = try row.decode(column: "user_id", as: String.self)
        status = try row.decode(column: "status", as: String.self)
        encryptionVersion = try row.decode(column: "encryption_version", as: Int?.self)
        wrappedCoupleKey = try row.decode(column: "wrapped_couple_key", as: String?.self)
        kdfSalt = try row.decode(column: "kdf_salt", as: String?.self)
        kdfParams = try row.decode(column: "kdf_params", as: String?.self)
        encryptedPhrase = try row.decode(column: "encrypted_phrase", as: String?.self)
        verifier = try row.decode(column: "verifier", as: String?.self)
        inviteKdfSalt = try row.decode(column: "invite_kdf_salt", as: String?.self)
        inviteKdfParams = try row.decode(column: "invite_kdf_params", as: String?.self)
        coupleID = try row.decode(column: "couple_id", as: String?.self)
        createdAt = try row.decode(column: "created_at", as: Int64.self)
        expiresAt = try row.decode(column: "expires_at", as: Int64.self)
        acceptedAt = try row.decode(column: "accepted_at", as: Int64?.self)
    }

    /// Loads an invite by canonical code.
    static func load(_ code: String, on sql: any SQLDatabase) async throws -> InviteRecord? {
        try await sql.select().columns(columns.map { SQLIdentifier($0) }).from("closer_invites").where("code", .equal, code)
            .first().map(InviteRecord.init(row:))
    }

    /// The canonical form of a code from a path, or nil when it cannot name an invite.
    static func canonical(_ code: String) -> String? {
        guard CloserWireFormat.isInviteCode(code) else { return nil }
        return try? InviteCode.canonicalize(code)
    }

    /// The status as the inviter sees it at `now`.
    func apiStatus(now: Int64) -> Components.Schemas.CloserInvite.StatusPayload {
        if status == "accepted" { return .accepted }
        if expiresAt <= now { return .expired }
        return status == "open" ? .open : .pending
    }

    /// The API document.
    func api(now: Int64) -> Components.Schemas.CloserInvite {
        Components.Schemas.CloserInvite(
            code: code, status: apiStatus(now: now), encryptionVersion: encryptionVersion.flatMap { .init(rawValue: $0) },
            createdAt: Date(millisecondsSince1970: createdAt), expiresAt: Date(millisecondsSince1970: expiresAt),
            acceptedAt: acceptedAt.map(Date.init(millisecondsSince1970:)), coupleId: coupleID
        )
    }
}
