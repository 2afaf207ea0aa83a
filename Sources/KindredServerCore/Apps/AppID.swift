/// The apps one Kindred deployment serves; the value of the `X-Kindred-App` header.
public enum AppID: String, Sendable, Hashable, CaseIterable, Codable {
    /// Closer: couples answer a daily question privately and reveal together.
    case closer
    /// SoulMate: couples chat through a transient encrypted relay.
    case soulmate
    /// StreakSync: puzzle streaks, achievements and friends' leaderboards.
    case streaksync
    /// Ex-Eraser: on-device photo and event clean-up; the server stores no PII for it.
    case exeraser
    /// Pulse: web and iOS subscriptions on an append-only plan history.
    case pulse
}
