import KindredServerCore
import Foundation

/// The values the templates render, one struct per page (read by mustache through `Mirror`, so
/// each property name is the name a template uses). Every text is escaped by the template.
enum AdminViews {
    /// The signed-in operator, for the header's logout form and every form's CSRF field.
    struct Session {
        var csrfToken: String
        var email: String
    }

    /// `login.mustache`.
    struct Login {
        var title = "Log in"
        var session: Session? = nil
        var notice: String? = nil
        var error: String?
        var email: String
        var loginToken: String
    }

    /// `message.mustache`: a refusal or failure.
    struct Message {
        var title: String
        var session: Session?
        var notice: String? = nil
        var message: String
    }

    /// One dead letter.
    struct Letter {
        var id, queue: String
        var attempts: Int
        var createdAt, failedAt, lastError, payload: String
    }

    /// `dead_letters.mustache`.
    struct DeadLetters {
        var title = "Dead letters"
        var nav = Nav(deadLetters: true)
        var session: Session
        var notice: String?
        var queue: String
        var hasLetters: Bool
        var letters: [Letter]
    }

    /// A `<select>` option.
    struct Option {
        var value: String
        var selected: Bool
    }

    /// One table row.
    struct Row {
        var subscriptionID, userID, username, email, platform, planType, status, active, latestExpiration: String
        var doubleBilling: Bool
        var detailLink: String
    }

    /// A backfill's dry-run button.
    struct BackfillButton {
        var kind, title: String
    }

    /// `subscriptions.mustache`.
    struct Subscriptions {
        var title = "Subscriptions"
        var nav = Nav(subscriptions: true)
        var session: Session
        var notice: String? = nil
        var q: String
        var statuses: [Option]
        var platforms: [Option]
        var total, pageNumber, pageCount: Int
        var rows: [Row]
        var previousLink, nextLink: String?
        var refreshLink: String
        var flags: [Row]
        var backfills: [BackfillButton]
    }

    /// One plan history entry.
    struct Plan {
        var planType, productID, platform, provider, lineage, kind, expiration, eventTime, eventID: String
        var sandbox: Bool
    }

    /// `subscription.mustache`.
    struct Detail {
        var title: String
        var nav = Nav(subscriptions: true)
        var session: Session
        var notice: String?
        var userID, computedStatus, computedExpiration, trialEnd: String
        var row: Row?
        var links: [String]
        var plans: [Plan]
        var events: [String]
        var raw: [String]
        var selfLink: String
    }

    /// One backfill change.
    struct Change {
        var userID, summary: String
    }

    /// `backfill.mustache`: a dry run's report (an apply redirects instead).
    struct Backfill {
        var title: String
        var nav = Nav(subscriptions: true)
        var session: Session
        var notice: String? = nil
        var kind: String
        var userID: String?
        var examined, changeCount, failureCount: Int
        var changes: [Change]
        var hasFailures: Bool
        var failures: [String]
        var canApply: Bool
    }

    /// A date as the console shows it: in the operator's time zone with its abbreviation
    /// (`AdminTimeZone.current`), or an em dash.
    static func date(_ date: Date?) -> String {
        date.map(AdminTimeZone.current.text) ?? "—"
    }

    /// A possibly missing text, or an em dash.
    static func text(_ value: String?) -> String {
        guard let value, !value.isEmpty else { return "—" }
        return value
    }

    /// `/admin/subscriptions/<id>`, the id percent-encoded.
    static func detailLink(_ userID: String) -> String {
        "/admin/subscriptions/" + (userID.addingPercentEncoding(withAllowedCharacters: pathSegment) ?? userID)
    }

    /// `path?name=value&…` with the non-empty values percent-encoded.
    static func link(_ path: String, _ items: [(String, String?)]) -> String {
        let query = items.compactMap { name, value -> String? in
            guard let value, !value.isEmpty else { return nil }
            return name + "=" + (value.addingPercentEncoding(withAllowedCharacters: queryValue) ?? "")
        }
        return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }

    /// Characters left as they are in a path segment.
    static let pathSegment = CharacterSet(charactersIn: asciiAlphanumerics + "-._~")
    /// Characters left as they are in a query value.
    static let queryValue = CharacterSet(charactersIn: asciiAlphanumerics + "-._~@")
    private static let asciiAlphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

    /// A row of the directory as the table shows it.
    static func row(_ row: AdminSubscriptionRow) -> Row {
        Row(
            subscriptionID: row.subscriptionID, userID: row.userID, username: text(row.username), email: text(row.email),
            platform: text(row.platform), planType: text(row.planType), status: row.status, active: row.active,
            latestExpiration: date(row.latestExpiration), doubleBilling: row.doubleBilling, detailLink: detailLink(row.userID)
        )
    }
}
