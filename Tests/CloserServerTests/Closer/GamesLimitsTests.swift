@testable import CloserServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// The games' two limits are settings (`closer.gameSessionsPerHour`,
/// `closer.gamePushIntervalMinutes`): a couple past its sessions is refused with 429 and a
/// Retry-After until the hour rolls on, and the push interval decides how often a partner hears.
@Suite struct GamesLimitsTests {
    @Test(arguments: Backend.all)
    func sessionsPerHourAndThePushIntervalFollowTheSettings(backend: Backend) async throws {
        let clock = TestClock()
        var closer = CloserSettings()
        closer.gameSessionsPerHour = 3
        closer.gamePushInterval = .seconds(60)
        try await TestApplication.run(on: backend, clock: clock, closer: closer) { app, client in
            let couple = try await client.datesCouple("games-limits")
            let pushesToB = { try await DatesFixtures.notifications(of: couple.b.user.id, on: app.database.sql).filter { $0 == "game_session" }.count }
            _ = try await client.startGame(couple, "wheel", pack: "wheel-evening", token: couple.a.accessToken)
            // Within the minute: no second push to B.
            _ = try await client.startGame(couple, "wheel", pack: "wheel-evening", token: couple.a.accessToken)
            #expect(try await pushesToB() == 1)
            // Past the minute, B hears again.
            clock.advance(by: .seconds(61))
            _ = try await client.startGame(couple, "wheel", pack: "wheel-evening", token: couple.a.accessToken)
            #expect(try await pushesToB() == 2)
            // The fourth session in the hour is refused, for either partner, until the window rolls on.
            let fourth = try await client.call(.post, "\(couple.base)/games", token: couple.b.accessToken, json: #"{"kind":"wheel","packId":"wheel-evening"}"#)
            #expect(fourth.status == .tooManyRequests, "\(fourth.text)")
            #expect(fourth.errorCode == "rate_limited")
            let retryAfter = Int(fourth.headers[.retryAfter] ?? "") ?? 0
            #expect((3400...3600).contains(retryAfter), "\(fourth.headers)")
            #expect(try await pushesToB() == 2)
        }
    }
}
