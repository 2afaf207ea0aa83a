@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Issue 21, item 5: a refresh token presented twice within the grace window answers the same
/// successor pair, so a thief racing the real client gets no branch of its own; after the
/// window, the family is revoked.
@Suite struct RefreshTokenRaceTests {
    /// The refresh tokens of `session` that are not used yet and whose session is live.
    static func liveUnusedRefreshTokens(_ database: Database) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from(SQLAlias(SQLIdentifier("kindred_refresh_tokens"), as: SQLIdentifier("t")))
            .join(SQLAlias(SQLIdentifier("kindred_sessions"), as: SQLIdentifier("s")),
                  on: SQLColumn("id", table: "s"), .equal, SQLColumn("session_id", table: "t"))
            .where(SQLColumn("used_at", table: "t"), .is, SQLLiteral.null)
            .where(SQLColumn("revoked_at", table: "s"), .is, SQLLiteral.null)
            .first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// Two concurrent `POST /v1/auth/refresh` of `token`.
    static func race(_ client: any TestClientProtocol, _ token: String) async throws -> (TestResponse, TestResponse) {
        async let first = client.refresh(token)
        async let second = client.refresh(token)
        return try await (first, second)
    }

    @Test(arguments: Backend.all)
    func twoClientsRacingOneRefreshTokenKeepOneFamily(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { application, client in
            let stolen = try await client.anonymous()
            let (realA, thiefA) = try await Self.race(client, stolen.refreshToken)
            #expect(realA.status == .ok)
            #expect(thiefA.status == .ok)
            let real = try realA.decode(SessionBody.self)
            let thief = try thiefA.decode(SessionBody.self)
            #expect(real.refreshToken == thief.refreshToken)
            #expect(real.accessToken == thief.accessToken)
            // Each refreshes on: still one chain, not two.
            let (realB, thiefB) = try await Self.race(client, real.refreshToken)
            let realNext = try realB.decode(SessionBody.self)
            let thiefNext = try thiefB.decode(SessionBody.self)
            #expect(realNext.refreshToken == thiefNext.refreshToken)
            #expect(try await Self.liveUnusedRefreshTokens(application.database) == 1)
        }
    }

    @Test(arguments: Backend.all)
    func aReuseAfterTheGraceWindowRevokesTheRacedFamily(backend: Backend) async throws {
        let clock = TestClock(start: Date())
        try await TestApplication.run(on: backend, clock: clock) { application, client in
            let stolen = try await client.anonymous()
            let successor = try await client.refresh(stolen.refreshToken).decode(SessionBody.self)
            clock.advance(by: .seconds(11))
            let late = try await client.refresh(stolen.refreshToken)
            #expect(late.status == .unauthorized)
            #expect(late.errorCode == "refresh_token_reused")
            #expect(try await client.refresh(successor.refreshToken).errorCode == "invalid_refresh_token")
            #expect(try await Self.liveUnusedRefreshTokens(application.database) == 0)
        }
    }

    @Test func aSealedSuccessorOpensOnlyWithItsToken() throws {
        let pair = IssuedTokens(accessToken: "a.b.c", refreshToken: "next-token", expiresIn: 900)
        let sealed = try TokenService.sealSuccessor(pair, of: "the token")
        let opened = try #require(TokenService.openSuccessor(sealed, of: "the token"))
        #expect(opened.accessToken == "a.b.c")
        #expect(opened.refreshToken == "next-token")
        #expect(opened.expiresIn == 900)
        #expect(TokenService.openSuccessor(sealed, of: "another token") == nil)
        #expect(TokenService.openSuccessor("not base64 at all", of: "the token") == nil)
    }
}
