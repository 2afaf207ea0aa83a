import Foundation
import KindredServerCore
import KindredStore
import SQLKit
import StreakAPI

/// Friend codes: six characters per account from an alphabet without 0, O, 1 or I, unique,
/// created on first read, looked up in any case.
extension StreakController {
    /// The code alphabet: 32 characters, none that reads as another.
    static let codeAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    /// The caller's code, created on first read.
    func friendCode(_ user: AuthenticatedUser) async throws -> Components.Schemas.StreakSyncFriendCode {
        if let row = try await database.sql.select().columns("code", "created_at").from("streaksync_friend_codes")
            .where("user_id", .equal, user.id).first()
        {
            return .init(code: try row.decode(column: "code", as: String.self), createdAt: Self.date(try row.decode(column: "created_at", as: Int64.self)))
        }
        let now = nowMS
        let userID = user.id
        // 32⁶ ≈ 10⁹ codes: a collision is rare, and the unique index settles one (and a race with
        // the same user's other device) with a redraw.
        for _ in 0..<16 {
            let code = String((0..<6).map { _ in Self.codeAlphabet.randomElement()! })
            let stored: (String, Int64)? = try await database.transaction { sql in
                let inserted = try await sql.insert(into: "streaksync_friend_codes").columns("user_id", "code", "created_at")
                    .values(SQLBind(userID), SQLBind(code), SQLBind(now)).ignoringConflicts()
                    .returning("code").all()
                if !inserted.isEmpty { return (code, now) }
                guard let row = try await sql.select().columns("code", "created_at").from("streaksync_friend_codes")
                    .where("user_id", .equal, userID).first()
                else { return nil }
                return (try row.decode(column: "code", as: String.self), try row.decode(column: "created_at", as: Int64.self))
            }
            if let stored { return .init(code: stored.0, createdAt: Self.date(stored.1)) }
        }
        throw KindredError.refused(status: 503, code: "not_ready", message: "no free friend code was found; try again")
    }

    /// A code as typed: any case, spaces and `-` ignored.
    /// - Throws: 422 `invalid_friend_code`.
    static func normalizedCode(_ raw: String) throws -> String {
        let code = raw.uppercased().filter { !$0.isWhitespace && $0 != "-" }
        guard code.count == 6, code.allSatisfy(codeAlphabet.contains) else { throw KindredError.invalidFriendCode }
        return code
    }

    /// Counts a code look-up against the caller and (unless exempt) the client address.
    /// - Throws: 429 `rate_limited`.
    func countLookUp(_ userID: String, scope: RequestScope) async throws {
        var keys = [("streaksync-code-lookup:user:\(userID)", settings.codeLookupsPerUserPerHour)]
        if !accounts.isExempt(scope) {
            keys.append(("streaksync-code-lookup:address:\(scope.addressKey)", settings.codeLookupsPerAddressPerHour))
        }
        for (key, limit) in keys {
            if case .retryAfter(let seconds) = try await rateLimiter.check(key: key, limit: limit, window: .seconds(3600)) {
                throw KindredError.rateLimited(retryAfterSeconds: seconds)
            }
        }
    }
}
