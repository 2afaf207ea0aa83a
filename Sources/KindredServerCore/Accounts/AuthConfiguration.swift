import KindredCrypto

/// The account settings of a deployment (`auth.*` keys; docs/server.md lists them).
public struct AuthConfiguration: Sendable {
    /// Lifetime of access tokens (15 minutes).
    public var accessTokenLifetime: Duration = .seconds(900)
    /// Lifetime of refresh tokens and idle sessions (30 days).
    public var refreshTokenLifetime: Duration = .seconds(30 * 86_400)
    /// How long after its first use a refresh token still gets a sibling pair (10 seconds).
    public var refreshReuseGrace: Duration = .seconds(10)
    /// Argon2id cost of password hashes (OWASP's m=19456 KiB, t=2, p=1).
    public var passwordParameters: Argon2id.Parameters = .password
    /// The most password hashes computed at once; the rest wait (bounds memory to this × m).
    public var maxConcurrentHashes: Int = 2
    /// The most password hashes waiting for a permit; past that a login or sign-up gets 429
    /// `rate_limited` (`Retry-After: 1`) at once instead of waiting in an unbounded queue.
    public var maxQueuedHashes: Int = 64
    /// Anonymous sign-ups admitted per client address per hour.
    public var anonymousSignUpsPerHour: Int = 30
    /// E-mail and password sign-ups admitted per client address per hour (successful or not,
    /// once the input is well formed).
    public var signUpsPerAddressPerHour: Int = 20
    /// Failed logins admitted per account per 15 minutes.
    public var loginFailuresPerAccount: Int = 5
    /// Failed logins admitted per client address per 15 minutes.
    public var loginFailuresPerAddress: Int = 20
    /// Whether loopback clients skip the per-address limits (for benchmarks on one machine).
    public var loopbackExempt: Bool = false
    /// Proxies whose `X-Forwarded-For` is believed (addresses or CIDR blocks), and the IPv6
    /// prefix length per-address limits key clients on (`ipv6ClientPrefixLength`, 64).
    public var trustedProxies: TrustedProxies = TrustedProxies()
    /// How the access-token signing keys are sealed at rest and re-read (`SigningKeySettings`).
    public var signingKeys = SigningKeySettings()

    /// The defaults.
    public init() {}
}
