import ArgumentParser
import Foundation
import AdminConsole
import BillingServer
import CloserServer
import KindredServer
import KindredServerCore
import KindredStore

/// `kindred billing`: the admin console's billing tools on the server's database — a user's
/// computed state and plan history, "sync this user now", the applied provider events, and the
/// double-billing flags.
struct BillingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "billing",
        abstract: "Show, sync and audit subscriptions (on the server's database).",
        subcommands: [Show.self, Sync.self, Document.self, Backfill.self, Events.self, DoubleBilling.self]
    )

    /// Opens and migrates the database named by the server options, builds billing's
    /// administration with the server's billing settings, runs `body`, closes the database.
    static func withAdministration<T>(
        _ options: ServerOptions, _ body: (BillingAdministration) async throws -> T
    ) async throws -> T {
        try await options.withMigratedDatabase { database, settings, logger in
            let clock = SystemClock()
            let platform = Platform(database: database, clock: clock, logger: logger, settings: settings.server.platform)
            let administration = BillingAdministration.standalone(
                database: database, clock: clock, settings: settings.server.billing, platform: platform
            )
            return try await body(administration)
        }
    }

    /// A user id argument: 1–200 bytes.
    static func checkUserID(_ id: String) throws {
        guard (1...200).contains(id.utf8.count) else { throw ValidationError("a user id is 1–200 bytes") }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A user's computed state, stored record, plan history (with provenance) and provider events."
        )
        @OptionGroup var options: ServerOptions
        @Argument(help: "The user id.") var userID: String
        @Flag(help: "Also print the last sync's exchanges with each provider (redacted: no keys, no personal fields).")
        var raw = false
        @Flag(help: "Print one JSON document instead of name/value lines.") var json = false

        func run() async throws {
            try BillingCommand.checkUserID(userID)
            let id = userID
            guard let detail = try await BillingCommand.withAdministration(options, { try await $0.detail(userID: id) }) else {
                throw CommandFailure("no user \(id)")
            }
            if json {
                print(try UsersCommand.json(BillingJSON.Detail(detail, userID: id, raw: raw)))
            } else {
                print(BillingReport.detail(detail, userID: id, now: SystemClock().now()), terminator: "")
                if raw { print(BillingReport.responses(detail.responses), terminator: "") }
            }
        }
    }

    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the provider syncs for a user now (both, or one), recompute, and print the new state.",
            discussion: "Exits with a failure when a provider could not be read (the other's result is kept)."
        )
        @OptionGroup var options: ServerOptions
        @Argument(help: "The user id.") var userID: String
        @Option(help: "Only this provider: stripe or revenuecat (default: both, in parallel).") var provider: BillingProvider?
        @Flag(help: "Print one JSON document (the outcome and the new record).") var json = false

        func run() async throws {
            try BillingCommand.checkUserID(userID)
            let id = userID
            let providers: Set<BillingProvider> = provider.map { [$0] } ?? [.stripe, .revenuecat]
            guard let outcome = try await BillingCommand.withAdministration(options, {
                try await $0.syncNow(userID: id, providers: providers)
            }) else {
                throw CommandFailure("no user \(id)")
            }
            if json {
                print(try UsersCommand.json(BillingJSON.SyncOutcome(
                    userID: id, providers: providers.map(\.rawValue).sorted(), appended: outcome.appended,
                    failed: outcome.failed.map(\.rawValue), record: outcome.record
                )))
            } else {
                print("synced \(id)\(provider.map { " (\($0.rawValue) only)" } ?? ""): \(outcome.appended) plan entries appended")
                print(BillingReport.state(outcome.record, now: SystemClock().now()), terminator: "")
            }
            if !outcome.failed.isEmpty {
                throw CommandFailure("could not read \(outcome.failed.map(\.rawValue).joined(separator: ", "))")
            }
        }
    }

    struct Events: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recently applied provider events, newest first (tab-separated).",
            discussion: "Columns: applied at, provider, event id, type, user id (- when none), outcome, event time."
        )
        @OptionGroup var options: ServerOptions
        @Option(help: "Only this user's events.") var user: String?
        @Option(help: "At most this many (1–1000).") var limit = 50
        @Flag(help: "Print a JSON array instead of tab-separated lines.") var json = false

        func run() async throws {
            if let user { try BillingCommand.checkUserID(user) }
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000") }
            let (user, limit) = (user, limit)
            let events = try await BillingCommand.withAdministration(options) {
                try await $0.recentEvents(userID: user, limit: limit)
            }
            if json {
                print(try UsersCommand.json(events.map(BillingJSON.Event.init)))
            } else {
                events.forEach { print(BillingReport.line($0)) }
            }
        }
    }

    struct DoubleBilling: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "double-billing",
            abstract: "Users flagged for double billing (Stripe and RevenueCat both active), tab-separated.",
            discussion: "Columns: user id, app, e-mail, platform, plan type, status, latest expiration."
        )
        @OptionGroup var options: ServerOptions
        @Option(help: "At most this many (1–200).") var limit = 100
        @Flag(help: "Print a JSON array of the records instead of tab-separated lines.") var json = false

        func run() async throws {
            guard (1...200).contains(limit) else { throw ValidationError("--limit must be between 1 and 200") }
            let limit = limit
            let flagged = try await BillingCommand.withAdministration(options) { try await $0.doubleBilled(limit: limit) }
            if json {
                print(try UsersCommand.json(flagged))
            } else {
                flagged.forEach { print(BillingReport.line($0)) }
            }
        }
    }
}
