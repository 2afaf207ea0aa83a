import KindredServerCore

/// The admin console's settings (`admin.*` keys; docs/admin.md lists them).
public struct AdminSettings: Sendable, Equatable {
    /// Whether the session cookie always carries `Secure` (set it when a TLS proxy fronts the
    /// server; without it, `Secure` is set only when a trusted proxy says `X-Forwarded-Proto: https`).
    public var secureCookies: Bool = false
    /// The longest a console session lives, however active (12 hours).
    public var sessionLifetime: Duration = .seconds(12 * 3600)
    /// A session unused this long ends (30 minutes).
    public var idleTimeout: Duration = .seconds(30 * 60)
    /// Failed console logins admitted per operator e-mail per 15 minutes.
    public var loginFailuresPerOperator: Int = 5
    /// Failed console logins admitted per client address per 15 minutes.
    public var loginFailuresPerAddress: Int = 20
    /// The time zone of operators who have not chosen one (`admin.timeZone`: `UTC`, the default,
    /// or an IANA name such as `Europe/Paris`; `isTimeZone` tells which names are accepted).
    public var defaultTimeZone: String = "UTC"

    /// Whether `name` is a time zone the console accepts: `UTC` or an IANA name this system knows.
    public static func isTimeZone(_ name: String) -> Bool {
        AdminTimeZone(name: name) != nil
    }

    /// The defaults.
    public init() {}
}
