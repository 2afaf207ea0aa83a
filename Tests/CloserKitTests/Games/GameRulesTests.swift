@testable import CloserKit
import Foundation
import KindredCrypto
import Testing

/// This or That, How Well Do You Know Me, Spin the Wheel and the slot's commitment.
@Suite struct GameRulesTests {
    @Test func thisOrThatScoresAgreement() throws {
        let score = try GameRules.thisOrThat(itemIDs: ["t1", "t2", "t3", "t4"], [0, 1, 1, 0], [0, 0, 1, 1])
        #expect(score.matches == 2 && score.total == 4 && score.percent == 50)
        #expect(score.matchedItems == ["t1", "t3"])
        #expect(throws: CloserKitError.tampered("a slot has 3 answers for 4 items")) {
            try GameRules.thisOrThat(itemIDs: ["t1", "t2", "t3", "t4"], [0, 1, 1], [0, 0, 1, 1])
        }
        #expect(throws: CloserKitError.tampered("answer 2 to item 1 is out of range")) {
            try GameRules.thisOrThat(itemIDs: ["t1"], [2], [0])
        }
    }

    @Test func howWellScoresTheGuesserAgainstTheSubject() throws {
        let score = try GameRules.howWell(itemIDs: ["h1", "h2", "h3"], optionCounts: [4, 2, 3], subject: [3, 1, 0], guesser: [3, 0, 0])
        #expect(score == GameRules.Score(matches: 2, total: 3, matchedItems: ["h1", "h3"]))
        #expect(score.percent == 66)
        #expect(throws: CloserKitError.tampered("answer 3 to item 2 is out of range")) {
            try GameRules.howWell(itemIDs: ["h1", "h2"], optionCounts: [4, 2], subject: [0, 3], guesser: [0, 0])
        }
        let me = GameSlotContent(sessionId: "s", userId: "a", choices: [0], role: "guess")
        let you = GameSlotContent(sessionId: "s", userId: "b", choices: [0], role: "self")
        #expect(try GameRules.howWellRoles(me, you).subject.userId == "b")
        #expect(throws: CloserKitError.tampered("a How Well session needs one partner answering about themself and one guessing")) {
            try GameRules.howWellRoles(me, me)
        }
    }

    @Test func theWheelIsTheHashOfBothSharesModN() throws {
        let a = [UInt8](repeating: 1, count: 32), b = [UInt8](repeating: 2, count: 32)
        let spin = try GameRules.wheel(shares: ["user-a": a, "user-b": b], count: 35)
        // Order-independent (by user id), and a known answer: SHA-256("kindred/closer/wheel/v1\0" ‖ 01…01 ‖ 02…02) mod 35.
        #expect(try GameRules.wheel(shares: ["user-b": b, "user-a": a], count: 35) == spin)
        #expect(spin == Self.knownSpin)
        // Either share changes it (over many shares, every segment is reachable).
        var seen = Set<Int>()
        for byte in 0..<200 { seen.insert(try GameRules.wheel(shares: ["user-a": a, "user-b": [UInt8](repeating: UInt8(byte), count: 32)], count: 7)) }
        #expect(seen == Set(0..<7))
        #expect(throws: CloserKitError.tampered("a spin needs two 32-byte shares")) { try GameRules.wheel(shares: ["a": a], count: 3) }
        #expect(throws: CloserKitError.invalidInput("the wheel has no segments")) { try GameRules.wheel(shares: ["a": a, "b": b], count: 0) }
    }

    /// Python's `int.from_bytes(sha256(b"kindred/closer/wheel/v1\0" + b"\x01" * 32 + b"\x02" * 32).digest(), "big") % 35`.
    static let knownSpin = 6

    @Test func aSlotSealsOpensAndRefusesReplays() throws {
        let cipher = try CloserFieldCipher(coupleKeyset: .generateAES256GCM())
        let content = GameSlotContent(sessionId: "s-1", userId: "u-a", choices: [1, 0])
        let opening = try GameOpening.seal(content, cipher: cipher, coupleID: "c-1")
        #expect(opening.ciphertext.hasPrefix("enc:v1:"))
        let opened = try GameOpening.open(
            ciphertext: opening.ciphertext, nonce: opening.nonce, commitment: opening.commitment, sessionID: "s-1", userID: "u-a", round: 1,
            cipher: cipher, coupleID: "c-1"
        )
        #expect(opened == content)
        // The same slot presented as another member's, or another session's, does not match.
        #expect(throws: CloserKitError.tampered("the partner's slot does not match its commitment")) {
            try GameOpening.open(
                ciphertext: opening.ciphertext, nonce: opening.nonce, commitment: opening.commitment, sessionID: "s-2", userID: "u-a", round: 1,
                cipher: cipher, coupleID: "c-1"
            )
        }
        // A commitment recomputed for a replayed ciphertext matches, but the content names its own session.
        let nonce = [UInt8](repeating: 9, count: 32)
        let replayed = GameCommitment.commitment(sessionID: "s-2", userID: "u-a", round: 1, nonce: nonce, ciphertext: opening.ciphertext)
        #expect(throws: CloserKitError.tampered("the partner's slot belongs to another session, member or round")) {
            try GameOpening.open(
                ciphertext: opening.ciphertext, nonce: Base64.encode(nonce, alphabet: .standard), commitment: replayed, sessionID: "s-2",
                userID: "u-a", round: 1, cipher: cipher, coupleID: "c-1"
            )
        }
    }

    @Test func theCommitmentHasItsKnownAnswer() {
        let nonce = [UInt8](repeating: 0xAB, count: 32)
        #expect(GameCommitment.commitment(sessionID: "s", userID: "u", round: 1, nonce: nonce, ciphertext: "enc:v1:QUJD") == "sha256:IHg-uaQz-FiauH0W38a7bYYmhLnUrSACLxrpP_Pll2g")
    }
}
