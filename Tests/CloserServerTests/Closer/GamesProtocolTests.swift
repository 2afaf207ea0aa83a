@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// Commit, then open: a round of a game between two honest partners, what each sees when, the
/// events and the rate-limited pushes, on both backends.
@Suite struct GamesProtocolTests {
    @Test(arguments: Backend.all)
    func aRoundServesThePartnersSlotOnlyAfterOnesOwnIsOpened(backend: Backend) async throws {
        let clock = TestClock()
        try await TestApplication.run(on: backend, clock: clock) { app, client in
            let couple = try await client.datesCouple("games-round")
            let (a, b) = (couple.a, couple.b)
            let cipher = try GamesFixtures.cipher()
            let session = try await client.startGame(couple, "this_or_that", pack: "tot-everyday", token: a.accessToken)
            let turnA = try GameTurn(#"{"choices":[0,1]}"#, cipher: cipher, coupleID: couple.pair.coupleID, sessionID: session, userID: a.user.id)
            let turnB = try GameTurn(#"{"choices":[0,0]}"#, cipher: cipher, coupleID: couple.pair.coupleID, sessionID: session, userID: b.user.id)

            let committedA = try await client.commit(couple, session, turnA, token: a.accessToken)
            #expect(committedA.status == .ok, "\(committedA.text)")
            #expect(client.object(committedA)["status"] as? String == "committing")
            // Opening before the partner's commitment is refused.
            let early = try await client.open(couple, session, turnA, token: a.accessToken)
            #expect(early.status == .conflict)
            #expect(early.errorCode == "game_waiting_for_partner")
            // The partner sees that A committed, not to what.
            let seenByB = try await client.gameSession(couple, session, token: b.accessToken)
            let aSlot = client.slot(seenByB, a.user.id)
            #expect(aSlot?["committed"] as? Bool == true)
            #expect(aSlot?["commitment"] == nil && aSlot?["ciphertext"] == nil && aSlot?["nonce"] == nil)

            #expect(try await client.commit(couple, session, turnB, token: b.accessToken).status == .ok)
            let opened = try await client.open(couple, session, turnA, token: a.accessToken)
            #expect(opened.status == .ok, "\(opened.text)")
            #expect(client.object(opened)["status"] as? String == "opening")
            // A opened, B has not: B still gets nothing of A's slot but the flags.
            let stillHidden = client.slot(try await client.gameSession(couple, session, token: b.accessToken), a.user.id)
            #expect(stillHidden?["opened"] as? Bool == true)
            #expect(stillHidden?["ciphertext"] == nil && stillHidden?["nonce"] == nil && stillHidden?["commitment"] == nil)
            // And A, who opened, sees B only as committed (B has not opened).
            let bSeenByA = client.slot(try await client.gameSession(couple, session, token: a.accessToken), b.user.id)
            #expect(bSeenByA?["commitment"] as? String == turnB.commitment)
            #expect(bSeenByA?["ciphertext"] == nil)

            let finished = try await client.open(couple, session, turnB, token: b.accessToken)
            #expect(finished.status == .ok)
            #expect(client.object(finished)["status"] as? String == "finished")
            #expect(client.object(finished)["finishedAt"] != nil)
            for (token, other, turn) in [(a.accessToken, b.user.id, turnB), (b.accessToken, a.user.id, turnA)] {
                let slot = client.slot(try await client.gameSession(couple, session, token: token), other)
                #expect(slot?["ciphertext"] as? String == turn.ciphertext)
                #expect(slot?["nonce"] as? String == turn.nonceText)
                #expect(slot?["commitment"] as? String == turn.commitment)
            }
            // Resending the same commitment or opening is a harmless retry.
            #expect(try await client.commit(couple, session, turnA, token: a.accessToken).status == .ok)
            #expect(try await client.open(couple, session, turnA, token: a.accessToken).status == .ok)

            let sql = app.database.sql
            #expect(try await DatesFixtures.events(of: couple.pair.coupleID, on: sql).filter { $0.hasPrefix("closer.game") } == [
                "closer.game_started", "closer.game_committed", "closer.game_committed", "closer.game_opened", "closer.game_opened",
                "closer.game_finished",
            ])
            // B was pushed once (the start); the later "your turn" pushes fell inside the limit.
            #expect(try await DatesFixtures.notifications(of: b.user.id, on: sql).filter { $0 == "game_session" }.count == 1)
            #expect(try await DatesFixtures.notifications(of: a.user.id, on: sql).filter { $0 == "game_session" }.isEmpty)
            // Past the limit, a new session pushes again.
            clock.advance(by: .seconds(11 * 60))
            _ = try await client.startGame(couple, "wheel", pack: "wheel-evening", token: a.accessToken)
            #expect(try await DatesFixtures.notifications(of: b.user.id, on: sql).filter { $0 == "game_session" }.count == 2)

            let list = try await client.call(.get, "\(couple.base)/games?kind=this_or_that", token: b.accessToken)
            #expect(client.ids(list, "sessions") == [session])
            #expect(client.ids(try await client.call(.get, "\(couple.base)/games", token: b.accessToken), "sessions").count == 2)
        }
    }

    @Test(arguments: Backend.all)
    func desireSyncHasASecondRoundThatOpensAfterTheFirst(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("games-rounds")
            let (a, b) = (couple.a, couple.b)
            let cipher = try GamesFixtures.cipher()
            let session = try await client.startGame(couple, "desire_sync", pack: "ds-together", token: b.accessToken)
            func turn(_ user: SessionBody, _ round: Int) throws -> GameTurn {
                try GameTurn("{}", cipher: cipher, coupleID: couple.pair.coupleID, sessionID: session, userID: user.user.id, round: round)
            }
            let early = try await client.commit(couple, session, try turn(a, 2), round: 2, token: a.accessToken)
            #expect(early.status == .conflict)
            #expect(early.errorCode == "game_round_not_open")
            let r1 = (try turn(a, 1), try turn(b, 1))
            #expect(try await client.commit(couple, session, r1.0, token: a.accessToken).status == .ok)
            #expect(try await client.commit(couple, session, r1.1, token: b.accessToken).status == .ok)
            #expect(try await client.open(couple, session, r1.0, token: a.accessToken).status == .ok)
            #expect(try await client.commit(couple, session, try turn(a, 2), round: 2, token: a.accessToken).errorCode == "game_round_not_open")
            let openedB = try await client.open(couple, session, r1.1, token: b.accessToken)
            #expect(client.object(openedB)["status"] as? String == "committing")
            #expect(client.object(openedB)["round"] as? Int == 2)
            let r2 = (try turn(a, 2), try turn(b, 2))
            #expect(try await client.commit(couple, session, r2.0, round: 2, token: a.accessToken).status == .ok)
            #expect(try await client.commit(couple, session, r2.1, round: 2, token: b.accessToken).status == .ok)
            #expect(try await client.open(couple, session, r2.0, round: 2, token: a.accessToken).status == .ok)
            let done = try await client.open(couple, session, r2.1, round: 2, token: b.accessToken)
            #expect(client.object(done)["status"] as? String == "finished")
            #expect((client.object(done)["slots"] as? [[String: Any]])?.count == 4)
            // A one-round game has no round 2.
            let wheel = try await client.startGame(couple, "wheel", pack: "wheel-evening", token: a.accessToken)
            let bad = try await client.call(
                .put, "\(couple.base)/games/\(wheel)/rounds/2/commitment", token: a.accessToken, json: r2.0.commitmentJSON
            )
            #expect(bad.status == .badRequest)
            #expect(bad.errorCode == "invalid_game")
        }
    }

    @Test(arguments: Backend.all)
    func badStartsAndShapesAreTypedErrors(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("games-bad")
            let token = couple.a.accessToken
            let mismatch = try await client.call(.post, "\(couple.base)/games", token: token, json: #"{"kind":"wheel","packId":"tot-everyday"}"#)
            #expect(mismatch.status == .badRequest)
            #expect(mismatch.errorCode == "invalid_game")
            let unknown = try await client.call(.post, "\(couple.base)/games", token: token, json: #"{"kind":"wheel","packId":"no-such-pack"}"#)
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "game_pack_not_found")
            let kind = try await client.call(.post, "\(couple.base)/games", token: token, json: #"{"kind":"poker","packId":"tot-everyday"}"#)
            #expect(kind.status == .badRequest)
            let missing = try await client.call(.get, "\(couple.base)/games/\(UUID().uuidString.lowercased())", token: token)
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "game_session_not_found")
            let session = try await client.startGame(couple, "how_well", pack: "hw-basics", token: token)
            let badCommitment = try await client.call(
                .put, "\(couple.base)/games/\(session)/rounds/1/commitment", token: token, json: #"{"commitment":"sha256:short"}"#
            )
            #expect(badCommitment.status == .badRequest)
            let plaintext = try await client.call(
                .put, "\(couple.base)/games/\(session)/rounds/1/opening", token: token,
                json: #"{"ciphertext":"my answer is B","nonce":"\#(String(repeating: "A", count: 43))="}"#
            )
            #expect(plaintext.status == .badRequest)
        }
    }

    @Test(arguments: Backend.all)
    func aCoupleCannotStartMoreThanThirtySessionsAnHour(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("games-limit")
            for _ in 0..<30 { _ = try await client.startGame(couple, "wheel", pack: "wheel-evening", token: couple.a.accessToken) }
            let limited = try await client.call(.post, "\(couple.base)/games", token: couple.b.accessToken, json: #"{"kind":"wheel","packId":"wheel-evening"}"#)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "rate_limited")
        }
    }
}
