import CloserKit
import KindredCrypto
import Testing

@Suite struct PairingTests {
    static let cheap = try! CloserKDFParameters(memoryKiB: 64, iterations: 1, parallelism: 1)

    @Test func anAcceptorWithTheShareGetsTheSameKeyring() throws {
        let inviter = try CoupleKeyring.generate()
        let invite = try Pairing.prepareInvite(code: "7K3QXM", keyring: inviter, parameters: Self.cheap)
        #expect(invite.share.code == "7K3QXM")
        #expect(CloserWireFormat.isInvitePhrase(invite.transport.encryptedPhrase))
        #expect(CloserWireFormat.isInviteVerifier(invite.transport.verifier))

        let share = try Pairing.parseShare(invite.share.text.lowercased())
        let keys = try Pairing.inviteKeys(share: share, kdfSalt: invite.transport.kdfSalt, kdfParams: invite.transport.kdfParams)
        #expect(keys.verifier == invite.transport.verifier)
        let accepted = try Pairing.completeAcceptance(keys: keys, encryptedPhrase: invite.transport.encryptedPhrase, wrapped: invite.wrapped)
        #expect(accepted.keyset == inviter.keyset)
        #expect(accepted.phrase == inviter.phrase)
    }

    @Test func aWrongSecretGivesAnotherVerifierAndCannotOpenThePhrase() throws {
        let invite = try Pairing.prepareInvite(code: "7K3QXM", keyring: try .generate(), parameters: Self.cheap)
        let wrong = try InviteShare(code: "7K3QXM", secret: .generate())
        let keys = try Pairing.inviteKeys(share: wrong, kdfSalt: invite.transport.kdfSalt, kdfParams: invite.transport.kdfParams)
        #expect(keys.verifier != invite.transport.verifier)
        #expect(throws: CloserKitError.crypto(.wrongInviteSecret)) {
            try Pairing.completeAcceptance(keys: keys, encryptedPhrase: invite.transport.encryptedPhrase, wrapped: invite.wrapped)
        }
    }

    @Test func recoveryTakesThePhraseInAnyCaseAndPrefixes() throws {
        let keyring = try CoupleKeyring.generate()
        let wrapped = try keyring.wrapped(parameters: Self.cheap)
        let typed = keyring.phrase.words.map { String($0.prefix(4)).uppercased() }.joined(separator: "  ")
        #expect(try Pairing.recover(phrase: typed, wrapped: wrapped).keyset == keyring.keyset)
        #expect(throws: CloserKitError.crypto(.invalidPhrase("expected 10 words, got 2"))) {
            try Pairing.recover(phrase: "acorn zipper", wrapped: wrapped)
        }
    }

    @Test func changingThePhraseKeepsTheKeysetAndRetiresTheOldPhrase() throws {
        let keyring = try CoupleKeyring.generate()
        let (changed, wrapped) = try Pairing.changePhrase(keyring, parameters: Self.cheap)
        #expect(changed.keyset == keyring.keyset)
        #expect(changed.phrase != keyring.phrase)
        #expect(try Pairing.recover(phrase: changed.phrase.normalized, wrapped: wrapped).keyset == keyring.keyset)
        #expect(throws: CloserKitError.crypto(.wrongPhrase)) {
            try Pairing.recover(phrase: keyring.phrase.normalized, wrapped: wrapped)
        }
    }
}
