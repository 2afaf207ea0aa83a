import CloserKit
import Foundation
import KindredClient
import KindredCrypto
import KindredTestSupport
import Testing

/// Two devices of one couple, sealed in memory: the reveal machine's states and its tamper checks.
@Suite struct RevealMachineTests {
    struct Party {
        let userId: String
        let device: DeviceKey
        let store: PendingKeyStore
        let row: PendingAnswerKey
        let sealed: SealedAnswer.Sealed
        var document: SealedDocument { SealedDocument(payload: sealed.payload, commitment: sealed.commitment, commitmentSeal: sealed.commitmentSeal) }
    }

    let folder: TemporaryDirectory
    let keyring: CoupleKeyring
    let alice: Party
    let bob: Party

    init() throws {
        let folder = try TemporaryDirectory(), keyring = try CoupleKeyring.generate()
        self.folder = folder
        self.keyring = keyring
        alice = try Self.party("alice", "A picnic by the river", folder: folder, keyring: keyring)
        bob = try Self.party("bob", "Dinner at the old diner", folder: folder, keyring: keyring)
    }

    static func party(_ userId: String, _ answer: String, folder: TemporaryDirectory, keyring: CoupleKeyring) throws -> Party {
        let secure = InMemorySecureStore()
        let store = try PendingKeyStore(url: folder.url.appendingPathComponent("\(userId).sqlite"), secureStore: secure)
        let context = try SealedAnswerContext(coupleId: "c1", questionId: "q1", userId: userId)
        let sealed = try SealedAnswer.seal(answer: answer, context: context, cipher: keyring.cipher)
        let row = try store.insert(coupleId: "c1", dateKey: "2026-03-07", questionId: "q1", sealed: sealed)
        return Party(userId: userId, device: try DeviceKey.loadOrCreate(in: secure), store: store, row: row, sealed: sealed)
    }

    func keybox(from sender: Party, to recipient: Party) throws -> String {
        let context = try KeyboxContext(coupleId: "c1", questionId: "q1", senderUserId: sender.userId, recipientUserId: recipient.userId)
        return try Keybox.wrap(oneTimeKey: sender.sealed.oneTimeKey, recipient: TinkHybridEncrypt(publicKeyset: CloserPublicKey.decode(recipient.device.publicKey)), context: context)
    }

    func evaluate(mine: SealedDocument?, partnerAnswered: Bool, partner: SealedDocument? = nil, released: Bool = false,
                  keybox: String? = nil, pending: PendingAnswerKey?? = nil, key: [UInt8]?? = nil) -> (RevealState, RevealMachine.Action) {
        let inputs = RevealMachine.Inputs(coupleId: "c1", questionId: "q1", userId: "alice", partnerId: "bob",
                                          pending: pending ?? alice.row, mine: mine, partnerAnswered: partnerAnswered,
                                          partner: partner, released: released, keyboxForMe: keybox)
        return RevealMachine.evaluate(inputs, oneTimeKey: key ?? alice.sealed.oneTimeKey, device: alice.device, keyring: keyring)
    }

    @Test func theStatesFollowTheServerToTheReveal() throws {
        #expect(evaluate(mine: nil, partnerAnswered: false) == (.unanswered, .uploadAnswer))
        #expect(evaluate(mine: nil, partnerAnswered: true, pending: .some(nil), key: .some(nil)) == (.unanswered, .none))
        #expect(evaluate(mine: alice.document, partnerAnswered: false) == (.waitingForPartner, .none))
        #expect(evaluate(mine: alice.document, partnerAnswered: true, partner: bob.document) == (.partnerAnswered, .releaseKey))
        #expect(evaluate(mine: alice.document, partnerAnswered: true, partner: bob.document, released: true) == (.releasingKeys, .none))
        let box = try keybox(from: bob, to: alice)
        #expect(evaluate(mine: alice.document, partnerAnswered: true, partner: bob.document, released: true, keybox: box)
            == (.revealed(mine: "A picnic by the river", partner: "Dinner at the old diner"), .none))
    }

    @Test func whenThePartnerReleasedFirstTheAnswerOpensBeforeThisDeviceReleases() throws {
        let box = try keybox(from: bob, to: alice)
        #expect(evaluate(mine: alice.document, partnerAnswered: true, partner: bob.document, keybox: box)
            == (.revealed(mine: "A picnic by the river", partner: "Dinner at the old diner"), .releaseKey))
        // A tampered answer is reported and this device's key is not released.
        let other = try SealedAnswer.seal(answer: "x", context: SealedAnswerContext(coupleId: "c1", questionId: "q1", userId: "bob"), cipher: keyring.cipher)
        let document = SealedDocument(payload: other.payload, commitment: bob.sealed.commitment, commitmentSeal: bob.sealed.commitmentSeal)
        #expect(evaluate(mine: alice.document, partnerAnswered: true, partner: document, keybox: box)
            == (.tampered("the partner's answer does not open with the released key"), .none))
    }

    @Test func aServerThatRewritesPayloadCommitmentAndKeyboxIsCaught() throws {
        // The server forges a whole answer for bob: its own one-time key, payload and commitment,
        // and a keybox to alice's public key. It cannot make the commitment seal.
        let context = try SealedAnswerContext(coupleId: "c1", questionId: "q1", userId: "bob")
        let forged = try SealedAnswer.seal(answer: "forged", context: context, coupleKeyset: .generateAES256GCM())
        let boxContext = try KeyboxContext(coupleId: "c1", questionId: "q1", senderUserId: "bob", recipientUserId: "alice")
        let forgedBox = try Keybox.wrap(oneTimeKey: forged.oneTimeKey, recipientPublicKeyset: CloserPublicKey.decode(alice.device.publicKey), context: boxContext)
        let document = SealedDocument(payload: forged.payload, commitment: forged.commitment, commitmentSeal: bob.sealed.commitmentSeal)
        #expect(evaluate(mine: alice.document, partnerAnswered: true, partner: document, released: true, keybox: forgedBox)
            == (.tampered("the partner's answer does not match its commitment or commitment seal"), .none))
    }

    @Test func aPayloadChangedAloneDoesNotOpen() throws {
        let other = try SealedAnswer.seal(answer: "x", context: SealedAnswerContext(coupleId: "c1", questionId: "q1", userId: "bob"), cipher: keyring.cipher)
        let document = SealedDocument(payload: other.payload, commitment: bob.sealed.commitment, commitmentSeal: bob.sealed.commitmentSeal)
        #expect(evaluate(mine: alice.document, partnerAnswered: true, partner: document, released: true, keybox: try keybox(from: bob, to: alice))
            == (.tampered("the partner's answer does not open with the released key"), .none))
    }

    @Test func aChangedCopyOfMyOwnAnswerIsCaught() throws {
        let changed = SealedDocument(payload: bob.sealed.payload, commitment: alice.sealed.commitment, commitmentSeal: alice.sealed.commitmentSeal)
        #expect(evaluate(mine: changed, partnerAnswered: false) == (.tampered("the server's copy of your answer is not what this device sealed"), .none))
    }

    @Test func aReleaseWithoutTheKeyFails() throws {
        #expect(evaluate(mine: alice.document, partnerAnswered: true, pending: .some(nil), key: .some(nil))
            == (.failed("this device does not hold the key of your answer (it was sealed on another device)"), .none))
    }

    @Test func bobSeesTheSameRevealFromHisSide() throws {
        let inputs = RevealMachine.Inputs(coupleId: "c1", questionId: "q1", userId: "bob", partnerId: "alice", pending: bob.row,
                                          mine: bob.document, partnerAnswered: true, partner: alice.document, released: true,
                                          keyboxForMe: try keybox(from: alice, to: bob))
        let (state, _) = RevealMachine.evaluate(inputs, oneTimeKey: try bob.store.oneTimeKey(of: bob.row), device: bob.device, keyring: keyring)
        #expect(state == .revealed(mine: "Dinner at the old diner", partner: "A picnic by the river"))
    }
}
