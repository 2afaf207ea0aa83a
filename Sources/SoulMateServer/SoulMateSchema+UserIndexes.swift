import KindredServerCore
import KindredStore
import SQLKit

extension SoulMateSchema {
    /// The console's user page counts a user's rows in every table the user-data registry lists
    /// (`AdminAccounts.dataSummary`), and account deletion deletes them by the same column: these
    /// indexes make each a range read instead of a scan of the table.
    static let userIndexes = Migration("soulmate_0002_user_indexes") { sql in
        try await sql.create(index: "soulmate_unpair_requests_requester").on("soulmate_unpair_requests").column("requester_id").run()
        try await sql.create(index: "soulmate_pair_members_partner").on("soulmate_pair_members").column("partner_id").run()
    }
}
