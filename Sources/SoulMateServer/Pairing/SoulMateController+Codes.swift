import Foundation
import KindredServerCore
import KindredStore
import SoulMateAPI
import SQLKit

/// Pair codes: six random digits per account, unique, rotatable at any time.
extension SoulMateController {
    /// The caller's code, created on first read.
    func pairCode(_ user: AuthenticatedUser) async throws -> Components.Schemas.SoulMatePairCode {
        if let row = try await database.sql.select().columns("code", "rotated_at").from("soulmate_pair_codes")
            .where("user_id", .equal, user.id).first()
        {
            return .init(code: try row.decode(column: "code", as: String.self), rotatedAt: Self.date(try row.decode(column: "rotated_at", as: Int64.self)))
        }
        return try await assignCode(user.id, replacing: false)
    }

    /// A new code for the caller; the old one stops matching at once.
    func rotatePairCode(_ user: AuthenticatedUser) async throws -> Components.Schemas.SoulMatePairCode {
        try await assignCode(user.id, replacing: true)
    }

    /// Draws codes until one is free (the unique index settles races; a million codes make a
    /// collision rare until hundreds of thousands of accounts exist, and then a redraw is cheap).
    private func assignCode(_ userID: String, replacing: Bool) async throws -> Components.Schemas.SoulMatePairCode {
        let now = nowMS
        for _ in 0..<32 {
            let code = String(format: "%06d", Int.random(in: 0...999_999))
            let stored: String? = try await database.transaction { sql in
                if try await sql.select().column("user_id").from("soulmate_pair_codes").where("code", .equal, code).first() != nil {
                    return nil
                }
                if replacing {
                    try await sql.delete(from: "soulmate_pair_codes").where("user_id", .equal, userID).run()
                }
                let inserted = try await sql.insert(into: "soulmate_pair_codes").columns("user_id", "code", "rotated_at")
                    .values(SQLBind(userID), SQLBind(code), SQLBind(now)).ignoringConflicts()
                    .returning("code").all()
                if inserted.isEmpty {
                    // Either the code was taken meanwhile or (first read) the user got one concurrently.
                    return try await sql.select().column("code").from("soulmate_pair_codes").where("user_id", .equal, userID)
                        .first()?.decode(column: "code", as: String.self)
                }
                return code
            }
            if let stored {
                return .init(code: stored, rotatedAt: Self.date(now))
            }
        }
        throw KindredError.refused(status: 503, code: "not_ready", message: "no free pair code was found; try again")
    }

    /// A code as typed: digits, spaces ignored.
    static func normalizedCode(_ raw: String) throws -> String {
        let code = raw.filter { !$0.isWhitespace }
        guard code.count == 6, code.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw KindredError.invalidPairCode("a pair code is six digits")
        }
        return code
    }
}
