@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// `kindred billing show|sync|events|double-billing` on a database the server has written: a
/// Pulse user bought through RevenueCat and Stripe (so flagged for double billing).
@Suite struct BillingCommandLiveTests {
    /// 2100-01-01T00:00:00Z: after any real "now" the command compares against.
    static let expires: Int64 = 4_102_444_800

    @Test func operatorsShowSyncAndAuditSubscriptions() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("kindred.sqlite").path
        let database = try await Database.open(DatabaseConfiguration(url: .sqlite(path: path)))
        let application = try await TestApplication(
            clock: TestClock(start: BillingFixtures.start), database: database, billing: BillingFixtures.settings()
        )
        try await application.app.test(.router) { client in
            let user = try await client.signUp("dora@example.com", app: "pulse").user.id
            let other = try await client.signUp("eve@example.com", app: "pulse").user.id
            let purchase = BillingFixtures.revenueCat(
                id: "rc-cli-1", type: "INITIAL_PURCHASE", user: user, product: "pc_1y", expiresAt: Self.expires,
                eventAt: BillingFixtures.now - 60, original: "otx-cli"
            )
            #expect(try await client.revenueCatWebhook(purchase).status == .ok)
            let subscription = BillingFixtures.stripeSubscription(id: "sub_cli", customer: "cus_cli", user: user, periodEnd: Self.expires)
            let created = BillingFixtures.stripeEvent(
                id: "evt_cli_1", type: "customer.subscription.created", created: BillingFixtures.now - 30, object: subscription
            )
            #expect(try await client.stripeWebhook(created).status == .ok)
            await application.drainInbox()
            let url = "sqlite:\(path)"
            func kindred(_ arguments: String...) throws -> KindredRun {
                try runKindred(["billing"] + arguments + ["--database-url", url, "--log-level", "error"])
            }

            let show = try kindred("show", user)
            #expect(show.status == 0, "\(show.stderr)")
            #expect(show.stdout == Self.expectedShow(user))

            let events = try kindred("events", "--limit", "5")
            #expect(events.status == 0, "\(events.stderr)")
            #expect(events.stdout == """
                2025-06-15T15:06:40Z\tstripe\tevt_cli_1\tcustomer.subscription.created\t\(user)\tapplied\t2025-06-15T15:06:10Z
                2025-06-15T15:06:40Z\trevenuecat\trc-cli-1\tINITIAL_PURCHASE\t\(user)\tapplied\t2025-06-15T15:05:40Z

                """)
            let none = try kindred("events", "--user", other)
            #expect(none.status == 0 && none.stdout == "")

            let flagged = try kindred("double-billing")
            #expect(flagged.status == 0, "\(flagged.stderr)")
            #expect(flagged.stdout == "\(user)\tpulse\tdora@example.com\tweb\tpulsecheck-monthly\tactive\t2100-01-01T00:00:00Z\n")

            // Eve has nothing to read; Dora has a Stripe customer and no Stripe key is configured.
            let synced = try kindred("sync", other)
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(synced.stdout.hasPrefix("synced \(other): 0 plan entries appended\nstored state\tunknown\nactive\tUnknown\n"))
            let failed = try kindred("sync", user)
            #expect(failed.status != 0)
            #expect(failed.stdout.hasPrefix("synced \(user): 0 plan entries appended\nstored state\tactive\nactive\tActive\n"))
            #expect(failed.stderr.contains("could not read stripe"))

            let missing = try kindred("show", "no-such-user")
            #expect(missing.status != 0)
            #expect(missing.stderr.contains("no user no-such-user"))
            let badLimit = try kindred("events", "--limit", "0")
            #expect(badLimit.status != 0)
            #expect(badLimit.stderr.contains("--limit must be between 1 and 1000"))

            // The seed's Stripe-only trigger, and the other provider alone.
            let stripeOnly = try kindred("sync", user, "--provider", "stripe")
            #expect(stripeOnly.status != 0)
            #expect(stripeOnly.stdout.hasPrefix("synced \(user) (stripe only): 0 plan entries appended\n"))
            let revenueCatOnly = try kindred("sync", user, "--provider", "revenuecat", "--json")
            #expect(revenueCatOnly.status == 0, "\(revenueCatOnly.stderr)")
            let syncedJSON = try Self.object(revenueCatOnly.stdout)
            #expect(syncedJSON["providers"] as? [String] == ["revenuecat"])
            #expect(syncedJSON["failed"] as? [String] == [])
            #expect(syncedJSON["appended"] as? Int == 0)
            let badProvider = try kindred("sync", user, "--provider", "paypal")
            #expect(badProvider.status != 0)
            #expect(badProvider.stderr.contains("paypal"))

            // Pulse's document, field by field against the seed's example shape.
            let document = try kindred("document", user)
            #expect(document.status == 0, "\(document.stderr)")
            let seed = try Self.object(document.stdout)
            #expect(Set(seed.keys) == ["userId", "userEmail", "platform", "status", "plans", "createdAt", "updatedAt"])
            #expect(seed["userId"] as? String == user)
            #expect(seed["userEmail"] as? String == "dora@example.com")
            #expect(seed["platform"] as? String == "web")
            #expect(seed["status"] as? String == "active")
            #expect(seed["createdAt"] as? Int == 1_750_000_000)
            #expect((seed["updatedAt"] as? Int).map { $0 >= 1_750_000_000 } == true)
            let plans = try #require(seed["plans"] as? [[String: Any]])
            #expect(plans.count == 2)
            for (plan, expected) in zip(plans, [("pulsecheck-annual", "ios", "pc_1y"), ("pulsecheck-monthly", "web", "pc_1m")]) {
                #expect(Set(plan.keys) == ["type", "expiration", "createdAt", "updatedAt", "platform", "productId"])
                #expect(plan["type"] as? String == expected.0)
                #expect(plan["platform"] as? String == expected.1)
                #expect(plan["productId"] as? String == expected.2)
                #expect(plan["expiration"] as? Int == Int(Self.expires))
                #expect(plan["createdAt"] as? Int == 1_750_000_000)
                #expect(plan["updatedAt"] as? Int == 1_750_000_000)
            }
            // No provider answered anything yet (no RevenueCat project, no Stripe key): nothing kept.
            let raw = try kindred("show", user, "--raw")
            #expect(raw.status == 0, "\(raw.stderr)")
            #expect(raw.stdout.hasSuffix("raw\t-\n"))
            let noDocument = try kindred("document", "no-such-user")
            #expect(noDocument.status != 0)
            #expect(noDocument.stderr.contains("no user no-such-user"))

            // --json everywhere: show, events, double-billing.
            let shown = try Self.object(try kindred("show", user, "--json").stdout)
            #expect((shown["computed"] as? [String: Any])?["state"] as? String == "active")
            #expect((shown["plans"] as? [Any])?.count == 2)
            #expect((shown["events"] as? [Any])?.count == 2)
            let eventsJSON = try JSONSerialization.jsonObject(with: Data(try kindred("events", "--json").stdout.utf8)) as? [[String: Any]]
            #expect(eventsJSON?.map { $0["eventId"] as? String } == ["evt_cli_1", "rc-cli-1"])
            let flaggedJSON = try JSONSerialization.jsonObject(with: Data(try kindred("double-billing", "--json").stdout.utf8)) as? [[String: Any]]
            #expect(flaggedJSON?.map { $0["userID"] as? String } == [user])

            // The backfills from the shell: a dry run reports, the write changes, progress on stderr.
            try await application.database.sql.raw("UPDATE kindred_billing_subscriptions SET email = NULL").run()
            let dryRun = try kindred("backfill", "user-fields", "--dry-run", "--json")
            #expect(dryRun.status == 0, "\(dryRun.stderr)")
            let dryReport = try Self.object(dryRun.stdout)
            #expect(dryReport["dryRun"] as? Bool == true)
            #expect(dryReport["examined"] as? Int == 2)
            #expect((dryReport["changes"] as? [[String: Any]])?.compactMap { $0["userId"] as? String }.sorted() == [other, user].sorted())
            #expect(dryRun.stderr.contains("user-fields: 2/2 (100%)"))
            let written = try kindred("backfill", "user-fields")
            #expect(written.status == 0, "\(written.stderr)")
            #expect(written.stdout.hasPrefix("user-fields: examined 2, wrote 2 changes, 0 failures\n"))
            let again = try kindred("backfill", "user-fields", "--dry-run")
            #expect(again.stdout == "user-fields (dry run): examined 2, would write 0 changes, 0 failures\n")
            let noStripe = try kindred("backfill", "expiration-history", "--dry-run")
            #expect(noStripe.status != 0)
            #expect(noStripe.stderr.contains("stripe"))
            let userForFields = try kindred("backfill", "user-fields", "--user", user)
            #expect(userForFields.status != 0)
            #expect(userForFields.stderr.contains("--user applies to expiration-history only"))
        }
        await database.close()
    }

    /// The JSON object a `--json` run printed.
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// What `kindred billing show` prints for Dora.
    static func expectedShow(_ user: String) -> String {
        """
        user\t\(user)
        computed state\tactive
        computed latest expiration\t2100-01-01T00:00:00Z
        computed trial end\t-
        computed double billing\tyes
        links\tstripe:cus_cli
        stored state\tactive
        active\tActive
        latest expiration\t2100-01-01T00:00:00Z
        trial end\t-
        double billing\tyes
        app\tpulse
        plan type\tpulsecheck-monthly
        platform\tweb
        username\t-
        e-mail\tdora@example.com
        plan\tpulsecheck-annual\tpc_1y\tios\trevenuecat\totx-cli\tpurchase\t2100-01-01T00:00:00Z\t2025-06-15T15:05:40Z\trc-cli-1
        plan\tpulsecheck-monthly\tpc_1m\tweb\tstripe\tsub_cli\tpurchase\t2100-01-01T00:00:00Z\t2025-06-15T15:06:10Z\tevt_cli_1
        event\t2025-06-15T15:06:40Z\tstripe\tevt_cli_1\tcustomer.subscription.created\t\(user)\tapplied\t2025-06-15T15:06:10Z
        event\t2025-06-15T15:06:40Z\trevenuecat\trc-cli-1\tINITIAL_PURCHASE\t\(user)\tapplied\t2025-06-15T15:05:40Z

        """
    }
}
