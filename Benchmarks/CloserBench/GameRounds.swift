import CloserKit
import Foundation
import KindredCrypto
import Synchronization

/// One couple's This or That round, sealed before the timed phase: the session (started in
/// setup, because every ciphertext and commitment binds its id) and both partners' openings.
struct PreparedRound: Sendable {
    let sessionID: String
    let alice: GameOpening
    let bob: GameOpening
    let aliceChoices: [Int]
    let bobChoices: [Int]
}

/// Game rounds for `scripts/bench-closer-games`: the device work (sealing, commitments) before
/// the clock starts, the server's work (two commitments, two openings, two reads of the finished
/// session) timed, and every result checked after it.
enum GameRounds {
    /// The pack every round plays (bundled, free, This or That).
    static let packID = "tot-everyday"

    /// Starts one session per couple and seals both partners' answers to it.
    static func prepare(_ alice: CloserDevice, _ bob: CloserDevice, itemCount: Int) async throws -> PreparedRound {
        let session = try await alice.startGame(.thisOrThat, packId: packID)
        let couple = try await alice.couple()
        let aliceChoices = (0..<itemCount).map { _ in Int.random(in: 0...1) }
        let bobChoices = (0..<itemCount).map { _ in Int.random(in: 0...1) }
        let aliceSlot = GameSlotContent(sessionId: session.id, userId: try await alice.userId(), choices: aliceChoices)
        let bobSlot = GameSlotContent(sessionId: session.id, userId: try await bob.userId(), choices: bobChoices)
        return PreparedRound(
            sessionID: session.id,
            alice: try GameOpening.seal(aliceSlot, cipher: try alice.keyring().cipher, coupleID: couple.id),
            bob: try GameOpening.seal(bobSlot, cipher: try bob.keyring().cipher, coupleID: couple.id),
            aliceChoices: aliceChoices, bobChoices: bobChoices
        )
    }

    /// The timed part: both commit, both open, both read the finished session.
    static func play(_ alice: CloserDevice, _ bob: CloserDevice, _ round: PreparedRound) async throws {
        _ = try await alice.commitGameSlot(round.sessionID, round: 1, commitment: round.alice.commitment)
        _ = try await bob.commitGameSlot(round.sessionID, round: 1, commitment: round.bob.commitment)
        _ = try await alice.openGameSlot(round.sessionID, round: 1, opening: round.alice)
        _ = try await bob.openGameSlot(round.sessionID, round: 1, opening: round.bob)
        let aliceSees = try await alice.gameSession(round.sessionID)
        let bobSees = try await bob.gameSession(round.sessionID)
        guard aliceSees.status == .finished, bobSees.status == .finished else {
            throw CloserKitError.invalidServerData("session \(round.sessionID) is \(aliceSees.status), \(bobSees.status) after both openings")
        }
    }

    /// After the clock: each device opens the partner's slot from the server's copy (commitment,
    /// decryption, binding) and the score equals the one computed from the prepared answers.
    static func check(_ alice: CloserDevice, _ bob: CloserDevice, _ round: PreparedRound, itemIDs: [String]) async throws {
        let expected = try GameRules.thisOrThat(itemIDs: itemIDs, round.aliceChoices, round.bobChoices)
        let couple = try await alice.couple()
        for (device, own) in [(alice, round.aliceChoices), (bob, round.bobChoices)] {
            let session = try await device.gameSession(round.sessionID)
            let me = try await device.userId()
            guard let slot = session.slots.first(where: { $0.userId != me && $0.round == 1 }),
                let ciphertext = slot.ciphertext, let nonce = slot.nonce, let commitment = slot.commitment
            else { throw CloserKitError.invalidServerData("the partner's slot of \(round.sessionID) is not served") }
            let partner = try GameOpening.open(
                ciphertext: ciphertext, nonce: nonce, commitment: commitment, sessionID: round.sessionID, userID: slot.userId, round: 1,
                cipher: try device.keyring().cipher, coupleID: couple.id
            )
            let score = try GameRules.thisOrThat(itemIDs: itemIDs, own, partner.choices ?? [])
            guard score == expected else { throw CloserKitError.tampered("session \(round.sessionID) scored \(score), expected \(expected)") }
        }
    }
}

/// The prepared rounds, filled concurrently during setup and read during the timed phase.
final class RoundBox: Sendable {
    private let rounds: Mutex<[PreparedRound?]>

    /// Room for `count` rounds.
    init(count: Int) { rounds = Mutex(Array(repeating: nil, count: count)) }

    /// Stores couple `index`'s round.
    func set(_ index: Int, _ round: PreparedRound) { rounds.withLock { $0[index] = round } }

    /// Couple `index`'s round. - Throws: when setup did not prepare it.
    func get(_ index: Int) throws -> PreparedRound {
        guard let round = rounds.withLock({ $0[index] }) else { throw CloserKitError.invalidInput("couple \(index) has no prepared round") }
        return round
    }
}
