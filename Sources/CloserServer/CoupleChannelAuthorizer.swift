import KindredServerCore
import KindredStore
import SQLKit

/// `couple:<id>`: readable by the couple's two members (Closer accounts only).
struct CoupleChannelAuthorizer: ChannelAuthorizing {
    let database: Database

    func mayRead(_ channel: RealtimeChannel, userID: String, app: AppID) async throws -> Bool {
        guard app == .closer else { return false }
        let row = try await database.sql.select().column("couple_id").from("closer_members")
            .where("user_id", .equal, userID).where("couple_id", .equal, channel.id).first()
        return row != nil
    }
}
