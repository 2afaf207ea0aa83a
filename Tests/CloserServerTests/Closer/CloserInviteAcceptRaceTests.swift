@testable import CloserServer
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Issue 21, item 7: the hourly invite-accept attempts hold against concurrent accepts (the
/// count and the insert of an attempt are serialized per user on PostgreSQL too).
@Suite struct CloserInviteAcceptRaceTests {
    @Test(arguments: Backend.all)
    func fiftyConcurrentAcceptsRecordAtMostTheHourlyLimit(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { app, client in
            let inviter = try await client.signUp("accept-race-a@example.com")
            let guesser = try await client.signUp("accept-race-b@example.com")
            let code = try await client.closerInvite(inviter.accessToken, verifier: CloserFixtures.verifier())
            let statuses = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        try await client.call(
                            .post, "/v1/closer/invites/\(code)/accept", token: guesser.accessToken,
                            json: #"{"verifier":"\#(CloserFixtures.verifier())"}"#
                        ).errorCode
                    }
                }
                var codes: [String: Int] = [:]
                for try await code in group { codes[code ?? "ok", default: 0] += 1 }
                return codes
            }
            let limit = CloserSettings().acceptAttemptsPerHour
            #expect(statuses == ["invite_verifier_mismatch": limit, "rate_limited": 50 - limit])
            let recorded = try await app.database.sql.select()
                .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("closer_invite_attempts")
                .where("user_id", .equal, guesser.user.id).where("kind", .equal, "accept")
                .first()?.decode(column: "n", as: Int.self)
            #expect(recorded == limit)
        }
    }
}
