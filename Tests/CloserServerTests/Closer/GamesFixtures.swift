@testable import CloserServer
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredCrypto
import SQLKit
import Testing

/// One partner's slot of a round as an honest device prepares it: a real `enc:v1:` ciphertext
/// under the couple key (AAD the couple id), a fresh nonce and the commitment to both.
struct GameTurn: Sendable {
    var ciphertext: String
    var nonce: [UInt8]
    var commitment: String
    var nonceText: String { Base64.encode(nonce, alphabet: .standard) }
    var openingJSON: String { #"{"ciphertext":"\#(ciphertext)","nonce":"\#(nonceText)"}"# }
    var commitmentJSON: String { #"{"commitment":"\#(commitment)"}"# }

    init(_ plaintext: String, cipher: CloserFieldCipher, coupleID: String, sessionID: String, userID: String, round: Int = 1) throws {
        ciphertext = try cipher.encrypt(plaintext, coupleId: coupleID)
        nonce = SecureRandom.bytes(32)
        commitment = GameCommitment.commitment(sessionID: sessionID, userID: userID, round: round, nonce: nonce, ciphertext: ciphertext)
    }
}

extension TestClientProtocol {
    /// Starts a session of `kind` over `pack` as `token`; returns its id.
    func startGame(_ couple: DatesCouple, _ kind: String, pack: String, token: String) async throws -> String {
        let response = try await call(.post, "\(couple.base)/games", token: token, json: #"{"kind":"\#(kind)","packId":"\#(pack)"}"#)
        #expect(response.status == .created, "\(response.text)")
        return object(response)["id"] as? String ?? ""
    }

    /// PUTs a commitment.
    func commit(_ couple: DatesCouple, _ session: String, _ turn: GameTurn, round: Int = 1, token: String) async throws -> TestResponse {
        try await call(.put, "\(couple.base)/games/\(session)/rounds/\(round)/commitment", token: token, json: turn.commitmentJSON)
    }

    /// PUTs an opening.
    func open(_ couple: DatesCouple, _ session: String, _ turn: GameTurn, round: Int = 1, token: String) async throws -> TestResponse {
        try await call(.put, "\(couple.base)/games/\(session)/rounds/\(round)/opening", token: token, json: turn.openingJSON)
    }

    /// The session as `token` sees it.
    func gameSession(_ couple: DatesCouple, _ session: String, token: String) async throws -> [String: Any] {
        object(try await call(.get, "\(couple.base)/games/\(session)", token: token))
    }

    /// The slot of `userID` in `round` of a session document.
    func slot(_ session: [String: Any], _ userID: String, round: Int = 1) -> [String: Any]? {
        (session["slots"] as? [[String: Any]] ?? []).first { $0["userId"] as? String == userID && $0["round"] as? Int == round }
    }
}

enum GamesFixtures {
    /// A fresh couple key's field cipher.
    static func cipher() throws -> CloserFieldCipher {
        try CloserFieldCipher(coupleKeyset: .generateAES256GCM())
    }
}
