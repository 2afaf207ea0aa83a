@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredTestSupport
import Testing

/// Runs the built `kindred migrate` twice on a new SQLite file.
@Suite struct MigrateLiveTests {
    @Test func migrateAppliesOnceThenLists() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-migrate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = "sqlite:\(folder.path)/nested/kindred.sqlite"

        let first = try runKindred(["migrate", "--database-url", url, "--log-level", "error"])
        #expect(first.status == 0, "\(first.stderr)")
        let firstLines = first.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(firstLines.map(\.first) == ServerMigrations.all.flatMap(\.migrations).map(\.name))
        // The third column is the migration's domain: the core's first, then each app's.
        #expect(firstLines.prefix(2).map { $0[2] } == ["store", "accounts"])
        #expect(firstLines.last?[2] == "admin")
        #expect(firstLines.prefix(5).map(\.first) == [
            "0001_rate_limit_events", "0002_accounts", "accounts_0002_refresh_successors", "accounts_0003_identity_token_uses",
            "accounts_0004_signing_key_states",
        ])
        #expect(firstLines.allSatisfy { $0.last == "applied now" })

        let second = try runKindred(["migrate", "--database-url", url, "--log-level", "error"])
        #expect(second.status == 0, "\(second.stderr)")
        let secondLines = second.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(secondLines.map(\.first) == firstLines.map(\.first))
        #expect(secondLines.allSatisfy { $0.count == 3 })  // name, time and domain, not "applied now"
        #expect(secondLines.first?[1] == firstLines.first?[1])
    }

    @Test func badDatabaseURLIsAOneLineError() throws {
        let result = try runKindred(["migrate", "--database-url", "mysql://localhost/kindred"])
        #expect(result.status != 0)
        #expect(result.stderr.contains(#"unsupported scheme "mysql""#))
    }

    @Test func passwordInTheFlagIsRefused() throws {
        let result = try runKindred(["serve", "--database-url", "postgres://kindred:hunter2@127.0.0.1:5432/kindred"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--database-url must not contain a password"))
    }
}

/// What one run of `kindred` printed.
struct KindredRun {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs the built `kindred` with `arguments`, without inheriting `KINDRED_*` settings.
func runKindred(_ arguments: [String], environment extra: [String: String] = [:]) throws -> KindredRun {
    let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KINDRED_") }.merging(extra) { $1 }
    let result = try ChildProcess.run(ChildProcess.kindredExecutable.path, arguments, stdin: nil, environment: environment)
    return KindredRun(status: result.status, stdout: result.text, stderr: result.stderr)
}
