@testable import CloserServer
import Foundation
import Testing

/// The server's commitment check has the same known answer as CloserKit's
/// (`GameRulesTests.theCommitmentHasItsKnownAnswer`; docs/wire-formats.md, "Closer games").
@Suite struct GamesCommitmentTests {
    @Test func theCommitmentHasItsKnownAnswer() {
        let nonce = [UInt8](repeating: 0xAB, count: 32)
        let commitment = "sha256:IHg-uaQz-FiauH0W38a7bYYmhLnUrSACLxrpP_Pll2g"
        #expect(GameCommitment.commitment(sessionID: "s", userID: "u", round: 1, nonce: nonce, ciphertext: "enc:v1:QUJD") == commitment)
        #expect(GameCommitment.verifies(commitment, sessionID: "s", userID: "u", round: 1, nonce: nonce, ciphertext: "enc:v1:QUJD"))
        #expect(!GameCommitment.verifies(commitment, sessionID: "s", userID: "v", round: 1, nonce: nonce, ciphertext: "enc:v1:QUJD"))
        #expect(!GameCommitment.verifies(commitment, sessionID: "s", userID: "u", round: 2, nonce: nonce, ciphertext: "enc:v1:QUJD"))
        #expect(!GameCommitment.verifies(commitment, sessionID: "s", userID: "u", round: 1, nonce: nonce, ciphertext: "enc:v1:QUJE"))
    }
}
