import Foundation
import KindredServerCore
import KindredStore

/// What the overview says about the server itself: its version, database and uptime.
struct AdminHealth: Sendable {
    /// Kindred's version.
    var version: String
    /// The database's dialect (`sqlite`, `postgresql`).
    var database: String
    /// When this console (this process) started.
    var startedAt: Date

    /// Whether the database answers a trivial query, and how long it took in milliseconds.
    static func ping(_ database: Database) async -> (ok: Bool, milliseconds: Int) {
        let start = ContinuousClock.now
        do {
            _ = try await database.sql.raw("SELECT 1 AS one").first()
            let elapsed = ContinuousClock.now - start
            return (true, Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
        } catch {
            return (false, 0)
        }
    }
}
