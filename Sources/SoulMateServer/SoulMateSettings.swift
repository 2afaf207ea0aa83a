/// SoulMate's settings (`soulmate.*` in the server's configuration; docs/server.md).
public struct SoulMateSettings: Sendable, Equatable {
    /// Pair-code look-ups (pair requests) one account may make per hour.
    public var codeLookupsPerUserPerHour = 20
    /// Pair-code look-ups one client address may make per hour (a 6-digit space is small).
    public var codeLookupsPerAddressPerHour = 60
    /// How long an unacknowledged envelope waits before the cleanup job deletes it.
    public var envelopeRetention: Duration = .seconds(7 * 86_400)
    /// How long an unanswered unpair request waits before its requester may leave alone.
    public var unpairGrace: Duration = .seconds(7 * 86_400)
    /// The longest ciphertext (Base64 characters) a push carries for the notification extension;
    /// longer envelopes get a bare "new message" push (APNs allows 4096 bytes in all).
    public var pushEnvelopeLimit = 3_000

    /// The defaults.
    public init() {}
}
