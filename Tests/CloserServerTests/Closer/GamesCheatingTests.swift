@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import KindredCrypto
import SQLKit
import Testing

/// A modified client against the commit-then-open protocol: it tries to read the partner's slot
/// early, to change its answer after seeing the partner's, and to replay commitments. Every try
/// is refused with a typed error, on both backends.
@Suite struct GamesCheatingTests {
    @Test(arguments: Backend.all)
    func aCheaterCannotReadThePartnersSlotBeforeOpeningItsOwn(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("cheat-read")
            let (honest, cheat) = (couple.a, couple.b)
            let cipher = try GamesFixtures.cipher()
            let session = try await client.startGame(couple, "this_or_that", pack: "tot-everyday", token: honest.accessToken)
            let honestTurn = try GameTurn("honest", cipher: cipher, coupleID: couple.pair.coupleID, sessionID: session, userID: honest.user.id)
            #expect(try await client.commit(couple, session, honestTurn, token: honest.accessToken).status == .ok)
            // Without committing, the cheater can neither open nor read.
            let openFirst = try await client.open(couple, session, honestTurn, token: cheat.accessToken)
            #expect(openFirst.status == .conflict)
            #expect(openFirst.errorCode == "game_not_committed")
            let cheatTurn = try GameTurn("cheat", cipher: cipher, coupleID: couple.pair.coupleID, sessionID: session, userID: cheat.user.id)
            #expect(try await client.commit(couple, session, cheatTurn, token: cheat.accessToken).status == .ok)
            #expect(try await client.open(couple, session, honestTurn, token: honest.accessToken).status == .ok)
            // Committed but not opened: the honest partner's opening is still withheld, in the
            // session and in the list.
            let view = try await client.gameSession(couple, session, token: cheat.accessToken)
            #expect(client.slot(view, honest.user.id)?["ciphertext"] == nil)
            #expect(client.slot(view, honest.user.id)?["nonce"] == nil)
            let listed = client.object(try await client.call(.get, "\(couple.base)/games", token: cheat.accessToken))
            let listedSlots = (listed["sessions"] as? [[String: Any]])?.first?["slots"] as? [[String: Any]] ?? []
            #expect(listedSlots.count == 2)
            #expect(listedSlots.allSatisfy { $0["userId"] as? String == cheat.user.id || $0["ciphertext"] == nil })
            // Opening with the honest partner's ciphertext (as if copied) does not match its own commitment.
            let stolen = try await client.open(couple, session, honestTurn, token: cheat.accessToken)
            #expect(stolen.errorCode == "game_opening_mismatch")
        }
    }

    @Test(arguments: Backend.all)
    func aCheaterCannotChangeItsAnswerAfterSeeingThePartners(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("cheat-change")
            let (honest, cheat) = (couple.a, couple.b)
            let cipher = try GamesFixtures.cipher()
            let id = couple.pair.coupleID
            let session = try await client.startGame(couple, "how_well", pack: "hw-basics", token: honest.accessToken)
            let honestTurn = try GameTurn("A", cipher: cipher, coupleID: id, sessionID: session, userID: honest.user.id)
            let committed = try GameTurn("B", cipher: cipher, coupleID: id, sessionID: session, userID: cheat.user.id)
            let changed = try GameTurn("A", cipher: cipher, coupleID: id, sessionID: session, userID: cheat.user.id)
            #expect(try await client.commit(couple, session, honestTurn, token: honest.accessToken).status == .ok)
            #expect(try await client.commit(couple, session, committed, token: cheat.accessToken).status == .ok)
            // A second, different commitment is refused.
            let recommit = try await client.commit(couple, session, changed, token: cheat.accessToken)
            #expect(recommit.status == .conflict)
            #expect(recommit.errorCode == "game_commitment_exists")
            #expect(try await client.open(couple, session, honestTurn, token: honest.accessToken).status == .ok)
            // Another answer under the same nonce, or the committed answer under another nonce: refused.
            var forged = changed
            forged.nonce = committed.nonce
            let mismatch = try await client.open(couple, session, forged, token: cheat.accessToken)
            #expect(mismatch.status == .conflict)
            #expect(mismatch.errorCode == "game_opening_mismatch")
            var otherNonce = committed
            otherNonce.nonce = Array(repeating: 7, count: 32)
            #expect(try await client.open(couple, session, otherNonce, token: cheat.accessToken).errorCode == "game_opening_mismatch")
            // The honest opening is accepted; changing it afterwards is not.
            #expect(try await client.open(couple, session, committed, token: cheat.accessToken).status == .ok)
            let reopen = try await client.open(couple, session, changed, token: cheat.accessToken)
            #expect(reopen.status == .conflict)
            #expect(reopen.errorCode == "game_opening_exists")
            let honestReopen = try await client.open(couple, session, try GameTurn("C", cipher: cipher, coupleID: id, sessionID: session, userID: honest.user.id), token: honest.accessToken)
            #expect(honestReopen.errorCode == "game_opening_exists")
            // What both partners see is the committed answer.
            let slot = client.slot(try await client.gameSession(couple, session, token: honest.accessToken), cheat.user.id)
            #expect(slot?["ciphertext"] as? String == committed.ciphertext)
            #expect(try cipher.decryptText(committed.ciphertext, coupleId: id) == "B")
        }
    }

    @Test(arguments: Backend.all)
    func replayedCommitmentsAreRefused(backend: Backend) async throws {
        try await TestApplication.run(on: backend) { _, client in
            let couple = try await client.datesCouple("cheat-replay")
            let (honest, cheat) = (couple.a, couple.b)
            let cipher = try GamesFixtures.cipher()
            let id = couple.pair.coupleID
            let first = try await client.startGame(couple, "wheel", pack: "wheel-evening", token: honest.accessToken)
            let honestTurn = try GameTurn("share-a", cipher: cipher, coupleID: id, sessionID: first, userID: honest.user.id)
            #expect(try await client.commit(couple, first, honestTurn, token: honest.accessToken).status == .ok)
            // Mirroring the partner's commitment (to copy its opening later) is refused…
            let mirrored = try await client.commit(couple, first, honestTurn, token: cheat.accessToken)
            #expect(mirrored.status == .conflict)
            #expect(mirrored.errorCode == "game_commitment_replayed")
            let cheatTurn = try GameTurn("share-b", cipher: cipher, coupleID: id, sessionID: first, userID: cheat.user.id)
            #expect(try await client.commit(couple, first, cheatTurn, token: cheat.accessToken).status == .ok)
            #expect(try await client.open(couple, first, honestTurn, token: honest.accessToken).status == .ok)
            #expect(try await client.open(couple, first, cheatTurn, token: cheat.accessToken).status == .ok)
            // …and so is a commitment from an earlier session, by either partner.
            let second = try await client.startGame(couple, "wheel", pack: "wheel-evening", token: honest.accessToken)
            for (turn, token) in [(honestTurn, cheat.accessToken), (cheatTurn, cheat.accessToken), (honestTurn, honest.accessToken)] {
                let replay = try await client.commit(couple, second, turn, token: token)
                #expect(replay.status == .conflict)
                #expect(replay.errorCode == "game_commitment_replayed")
            }
            // An opening copied from the earlier session does not match a commitment bound to
            // another session, even with the same ciphertext and nonce.
            var copied = cheatTurn
            copied.nonce = SecureRandom.bytes(32)
            copied.commitment = GameCommitment.commitment(
                sessionID: first, userID: cheat.user.id, round: 1, nonce: copied.nonce, ciphertext: cheatTurn.ciphertext
            )
            let fresh = try GameTurn("fresh", cipher: cipher, coupleID: id, sessionID: second, userID: honest.user.id)
            #expect(try await client.commit(couple, second, copied, token: cheat.accessToken).status == .ok)
            #expect(try await client.commit(couple, second, fresh, token: honest.accessToken).status == .ok)
            #expect(try await client.open(couple, second, copied, token: cheat.accessToken).errorCode == "game_opening_mismatch")
        }
    }
}
