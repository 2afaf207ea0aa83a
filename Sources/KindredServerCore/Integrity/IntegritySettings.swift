import DeviceIntegrity

/// One app's App Attest and Play Integrity configuration (either may be absent).
public struct AppIntegritySettings: Sendable {
    /// The App Attest app id, environment and root; nil: the App Attest routes answer 501.
    public var appAttest: AppAttestConfiguration?
    /// The Play Integrity package name and keys; nil: the Play Integrity route answers 501.
    public var playIntegrity: PlayIntegrityConfiguration?

    /// Creates an app's settings.
    public init(appAttest: AppAttestConfiguration? = nil, playIntegrity: PlayIntegrityConfiguration? = nil) {
        self.appAttest = appAttest
        self.playIntegrity = playIntegrity
    }
}

/// The server's device-integrity settings: per app verifiers, the operator's policy and the limits.
public struct IntegritySettings: Sendable {
    /// Each app's verifier configuration.
    public var apps: [AppID: AppIntegritySettings] = [:]
    /// The policy per app and route (log, limit or refuse a missing or failed verdict).
    public var policy = IntegrityPolicy()
    /// How long a challenge may be used (5 minutes by default).
    public var challengeLifetime: Duration = .seconds(300)
    /// How long a passed verdict counts as fresh (24 hours by default).
    public var verdictLifetime: Duration = .seconds(86_400)
    /// The requests per minute a user may make to `limit` routes without a passing verdict.
    public var limitedRequestsPerMinute = 10
    /// The challenges a user may request per hour.
    public var challengesPerHour = 120

    /// Settings with no app configured and an empty policy.
    public init() {}
}

extension Duration {
    /// Whole milliseconds.
    var integrityMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
