import CloserServer
import Foundation
@testable import KindredServer
import Testing

/// `closer.challengeReminderHour` (0–23) and `closer.capsulesPerCouple` (1–100000): defaults,
/// values from the environment, and a typed settings error for anything out of range.
@Suite struct ServerSettingsCloserLimitsTests {
    @Test func defaultsAndEnvironment() async throws {
        let defaults = try await ServerSettings.resolve(flags: .init(), environment: [:]).server.closer
        #expect(defaults.challengeReminderHour == 19)
        #expect(defaults.capsulesPerCouple == 500)
        let set = try await ServerSettings.resolve(flags: .init(), environment: [
            "KINDRED_CLOSER_CHALLENGE_REMINDER_HOUR": "0", "KINDRED_CLOSER_CAPSULES_PER_COUPLE": "20",
        ]).server.closer
        #expect(set.challengeReminderHour == 0)
        #expect(set.capsulesPerCouple == 20)
    }

    @Test func outOfRangeIsATypedError() async throws {
        let cases = [
            ("KINDRED_CLOSER_CHALLENGE_REMINDER_HOUR", "24", "closer.challengeReminderHour must be 0–23, not 24"),
            ("KINDRED_CLOSER_CHALLENGE_REMINDER_HOUR", "-1", "closer.challengeReminderHour must be 0–23, not -1"),
            ("KINDRED_CLOSER_CAPSULES_PER_COUPLE", "0", "closer.capsulesPerCouple must be 1–100000, not 0"),
        ]
        for (key, value, message) in cases {
            await #expect(throws: ServerSettings.Invalid(description: message)) {
                _ = try await ServerSettings.resolve(flags: .init(), environment: [key: value])
            }
        }
    }
}
