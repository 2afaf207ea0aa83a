@testable import AdminConsole
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import Logging
import SQLKit
import Testing

/// `admin.purge-sessions`: console sessions past their lifetime or idle timeout are deleted.
@Suite struct AdminSessionPurgeTests {
    @Test(arguments: Backend.all) func endedSessionsArePurged(backend: Backend) async throws {
        var configured = AdminSettings()
        configured.idleTimeout = .seconds(30 * 60)
        configured.sessionLifetime = .seconds(3600)
        let settings = configured
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        try await AdminTestApp.run(on: backend, settings: settings, clock: clock) { app, client in
            var quiet = Logger(label: "kindred.test")
            quiet.logLevel = .warning
            let platform = try Platform.server(database: app.database, clock: clock, logger: quiet, admin: settings)
            func purge() async throws -> String? {
                let run = try await platform.jobs.runNow("admin.purge-sessions")
                #expect(run.outcome == .ok)
                return run.message
            }
            _ = try await client.adminLogIn()
            _ = try await client.adminLogIn()
            let kept = try await client.adminLogIn()
            #expect(try await app.database.sql.count("kindred_admin_sessions") == 3)
            #expect(try await purge() == "deleted 0 ended admin console sessions")

            clock.advance(by: .seconds(20 * 60))
            #expect(try await client.adminGet("/admin/dead-letters", cookie: kept.cookie).status == .ok)
            clock.advance(by: .seconds(15 * 60))  // the first two are idle for 35 minutes
            #expect(try await purge() == "deleted 2 ended admin console sessions")
            #expect(try await app.database.sql.count("kindred_admin_sessions") == 1)
            #expect(try await client.adminGet("/admin/dead-letters", cookie: kept.cookie).status == .ok)

            clock.advance(by: .seconds(26 * 60))  // in use 26 minutes ago, but logged in 61 minutes ago
            #expect(try await purge() == "deleted 1 ended admin console sessions")
            #expect(try await app.database.sql.count("kindred_admin_sessions") == 0)
        }
    }
}
