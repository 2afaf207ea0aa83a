import Foundation
import KindredServerCore

extension AdminViews {
    /// A `<time>`: the ISO 8601 value in UTC (`datetime`) and its text in the operator's time
    /// zone with the zone's abbreviation (`AdminTimeZone.current`).
    struct Time {
        var iso: String
        var text: String

        init(_ date: Date) {
            iso = date.formatted(.iso8601)
            text = AdminTimeZone.current.text(date)
        }
    }

    /// One number with its label and, when the domain keeps its days, a sparkline.
    struct Stat {
        var label: String
        var value: String
        var hasSeries: Bool
        var points: String
        var seriesLabel: String
        var width = AdminFormat.chartWidth
        var height = AdminFormat.chartHeight

        init(label: String, value: Int, series: [Int]? = nil, unit: AdminFormat.SeriesUnit = .days) {
            self.label = label
            self.value = AdminFormat.number(value)
            hasSeries = series != nil
            points = series.map(AdminFormat.sparkline) ?? ""
            seriesLabel = series.map { AdminFormat.seriesLabel($0, unit: unit) } ?? ""
        }
    }

    /// A group of numbers under one heading (an app, a domain).
    struct StatGroup {
        var title: String
        var stats: [Stat]
        var failed: String?
    }

    /// `overview.mustache`.
    struct Overview {
        var title = "Overview"
        var session: Session
        var notice: String?
        var nav = Nav(overview: true)
        var health: [Stat]
        var version, database, uptime: String
        var startedAt: Time
        var apps: [StatGroup]
        var domains: [StatGroup]
        var hasDomains: Bool
    }

    /// Which navigation link is the current page (`aria-current`).
    struct Nav {
        var overview = false, users = false, subscriptions = false, jobs = false, queues = false, deadLetters = false
        var audit = false, operators = false, push = false, realtime = false
    }

    /// One account in a list.
    struct AccountRow {
        var id, app, email, name: String
        var createdAt: Time
        var disabled: Bool
        var link: String
    }

    /// An app `<option>`.
    struct AppOption {
        var value: String
        var selected: Bool
    }

    /// `users.mustache`.
    struct Users {
        var title = "Users"
        var session: Session
        var notice: String?
        var nav = Nav(users: true)
        var q: String
        var apps: [AppOption]
        var heading: String
        var searched: Bool
        var rows: [AccountRow]
        var nextLink: String?
        var previousLink: String?
    }

    /// One session on a user's page.
    struct SessionRow {
        var id: String
        var createdAt, refreshedAt, expiresAt: Time
        var state: String
        var live: Bool
    }

    /// One push token on a user's page.
    struct TokenRow {
        var app, transport, deviceID, tokenPrefix: String
        var updatedAt: Time
    }

    /// One domain table's row count on a user's page.
    struct DataRow {
        var domain, table, rows: String
    }

    /// `user.mustache`.
    struct User {
        var title: String
        var session: Session
        var notice: String?
        var nav = Nav(users: true)
        var id, app, email, name, providers: String
        var createdAt: Time
        var disabled: Bool
        var disabledAt: Time?
        var liveSessions: String
        var sessions: [SessionRow]
        var hasLiveSessions: Bool
        var tokens: [TokenRow]
        var data: [DataRow]
        var subscription: String?
        var subscriptionLink: String
        var link: String
    }

    /// One job on the jobs page.
    struct JobRow {
        var name, schedule, timeZone: String
        var nextRunAt: Time
        var lastStartedAt: Time?
        var lastDuration, lastOutcome, lastMessage: String
        var failed: Bool
    }

    /// `jobs.mustache`.
    struct Jobs {
        var title = "Jobs"
        var session: Session
        var notice: String?
        var nav = Nav(jobs: true)
        var jobs: [JobRow]
        var leader: String
    }

    /// One queue on the queues page.
    struct QueueRow {
        var queue, depth, due, retrying, oldestAge, deadLetters: String
        var deadLettersLink: String
        var hasDeadLetters: Bool
        /// Items this replica completed in the last hour, with a per-minute chart.
        var completed: Stat
        /// Their mean per minute over the hour.
        var perMinute: String
        /// Attempts that failed on this replica in the last hour.
        var failed: String
        /// Items dead-lettered in the last hour (every replica).
        var deadLetteredLastHour: String
    }

    /// `queues.mustache`.
    struct Queues {
        var title = "Queues"
        var session: Session
        var notice: String?
        var nav = Nav(queues: true)
        var queues: [QueueRow]
    }

    /// One audit log entry.
    struct AuditRow {
        var createdAt: Time
        var operatorEmail, action, target, detail: String
    }

    /// `audit.mustache`.
    struct Audit {
        var title = "Audit log"
        var session: Session
        var notice: String?
        var nav = Nav(audit: true)
        var total: String
        var pageNumber, pageCount: Int
        var entries: [AuditRow]
        var previousLink, nextLink: String?
    }

    /// One operator.
    struct OperatorRow {
        var id, email: String
        var createdAt: Time
        var disabled: Bool
        var isSelf: Bool
    }

    /// `operators.mustache`.
    struct Operators {
        var title = "Operators"
        var session: Session
        var notice: String?
        var nav = Nav(operators: true)
        var operators: [OperatorRow]
        var error: String?
        var email: String
        /// The signed-in operator's time zone, and every choice.
        var timeZone: String
        var zones: [Option]
        /// Whether the operator follows the console's default zone, and that zone's name.
        var usesDefaultZone: Bool
        var defaultZone: String
    }
}
