import ArgumentParser
import BillingServer
import Foundation
import KindredServerCore
import Synchronization

extension BillingCommand {
    /// `kindred billing document USER`: Pulse's `subscriptions/{userId}` document.
    struct Document: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A user's record in Pulse's subscriptions/{userId} document shape (JSON, Unix seconds).",
            discussion: "The same document `GET /v1/me/subscription/document` serves the user; docs/billing.md has the mapping."
        )
        @OptionGroup var options: ServerOptions
        @Argument(help: "The user id.") var userID: String
        @Flag(help: "Accepted for uniformity: the output is always one JSON document.") var json = false

        func run() async throws {
            try BillingCommand.checkUserID(userID)
            let id = userID
            guard let document = try await BillingCommand.withAdministration(options, { try await $0.document(userID: id) }) else {
                throw CommandFailure("no user \(id)")
            }
            print(try UsersCommand.json(document))
        }
    }

    /// `kindred billing backfill user-fields|expiration-history [--dry-run] [--user ID]`.
    struct Backfill: AsyncParsableCommand {
        /// The console's two backfills.
        enum Kind: String, ExpressibleByArgument, CaseIterable {
            case userFields = "user-fields"
            case expirationHistory = "expiration-history"
        }

        static let configuration = CommandConfiguration(
            abstract: "Run a backfill (the console's report; progress on standard error).",
            discussion: """
                user-fields copies each user's display name and e-mail into the subscriptions table where \
                the app allows search fields (and clears them where it does not); expiration-history \
                appends each paid Stripe invoice period the history lacks (needs KINDRED_STRIPE_API_KEY). \
                With --dry-run nothing is written. Exits with a failure when a provider could not be read \
                for some user (the others are written).
                """
        )
        @OptionGroup var options: ServerOptions
        @Argument(help: "user-fields or expiration-history.") var kind: Kind
        @Flag(help: "Report what would change without writing.") var dryRun = false
        @Option(help: "Only this user (expiration-history only).") var user: String?
        @Flag(help: "Print the report as one JSON document.") var json = false

        func validate() throws {
            if let user {
                try BillingCommand.checkUserID(user)
                if kind == .userFields { throw ValidationError("--user applies to expiration-history only") }
            }
        }

        func run() async throws {
            let (kind, dryRun, user) = (kind, dryRun, user)
            let progress = BackfillProgressLine(label: kind.rawValue)
            let report = try await BillingCommand.withAdministration(options) { administration in
                switch kind {
                case .userFields:
                    try await administration.backfillUserFields(dryRun: dryRun, progress: progress.report)
                case .expirationHistory:
                    try await administration.backfillExpirationHistory(dryRun: dryRun, userID: user, progress: progress.report)
                }
            }
            progress.finish()
            if json {
                print(try UsersCommand.json(BillingJSON.Backfill(kind: kind.rawValue, report)))
            } else {
                let verb = dryRun ? "would write" : "wrote"
                print("\(kind.rawValue)\(dryRun ? " (dry run)" : ""): examined \(report.examined), \(verb) \(report.changes.count) changes, \(report.failures.count) failures")
                for change in report.changes { print("\(change.userID)\t\(change.summary)") }
                for failure in report.failures { print("failed\t\(failure)") }
            }
            if !report.failures.isEmpty {
                throw CommandFailure("could not read the provider for \(report.failures.count) users")
            }
        }
    }
}

/// A backfill's progress on standard error: `label: done/total (percent)` at most every 250 ms
/// and at the end, so a long run shows it is moving without flooding a log.
final class BackfillProgressLine: Sendable {
    private let label: String
    private let state = Mutex<(last: ContinuousClock.Instant?, done: Int, total: Int)>((nil, 0, 0))

    init(label: String) { self.label = label }

    /// The callback the backfill calls.
    var report: BackfillProgress {
        { [self] done, total in
            let now = ContinuousClock.now
            let due = state.withLock { value -> Bool in
                value.done = done
                value.total = total
                guard let last = value.last, now - last < .milliseconds(250), done < total else {
                    value.last = now
                    return true
                }
                return false
            }
            if due { write(done: done, total: total) }
        }
    }

    /// Prints the final figures once more when there was any progress.
    func finish() {
        let (done, total) = state.withLock { ($0.done, $0.total) }
        if total > 0 { write(done: done, total: total) }
    }

    private func write(done: Int, total: Int) {
        let percent = total > 0 ? done * 100 / total : 100
        FileHandle.standardError.write(Data("\(label): \(done)/\(total) (\(percent)%)\n".utf8))
    }
}
