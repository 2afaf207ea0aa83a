import CloserKit
import Crypto
import Foundation
import KindredCrypto

/// The device side of one Closer cycle, on its own: the cryptography both phones do in CloserKit
/// (two `SealedAnswer.seal`, two `Keybox.wrap` to the partner's published key, two
/// `Keybox.unwrap` and four `SealedAnswer.open` — each device opens its own answer and the
/// partner's, `RevealMachine.open`) against raw swift-crypto doing the same primitives on the
/// same sizes (AES-256-GCM, SHA-256, P-256 key generation and agreement, HKDF-SHA256), measured
/// one after the other in this process with nothing else running. Figures are process CPU time.
enum DeviceCost {
    /// Median-of-rounds CPU time per cycle, in milliseconds, for CloserKit and for raw swift-crypto.
    struct Figure {
        let closerKit: Double
        let raw: Double
    }

    /// Measures `cycles` cycles per round, `rounds` rounds each, alternating the two.
    static func measure(cycles: Int = 200, rounds: Int = 5) throws -> Figure {
        let couple = try CoupleKeyring.generate()
        let aliceDevice = Keyset.generateECIESP256(), bobDevice = Keyset.generateECIESP256()
        let alicePublic = try CloserPublicKey.encode(aliceDevice.publicKeyset())
        let bobPublic = try CloserPublicKey.encode(bobDevice.publicKeyset())
        let aliceDecrypter = try TinkHybridDecrypt(privateKeyset: aliceDevice)
        let bobDecrypter = try TinkHybridDecrypt(privateKeyset: bobDevice)
        let coupleID = "7f4c1a52-9a3e-4d0b-8c55-0d6f3e2a9b10", questionID = "everyday-017"
        let aliceID = "0b6f1d7e-3c2a-4e59-9a61-5d8e7c4b2a13", bobID = "c3e9a4f2-6b1d-4a87-b2c0-9e5f1a7d3c46"
        let aliceText = "alice's answer to the question of the day, couple 123"
        let bobText = "bob's answer to the question of the day, couple 123"
        let aliceContext = try SealedAnswerContext(coupleId: coupleID, questionId: questionID, userId: aliceID)
        let bobContext = try SealedAnswerContext(coupleId: coupleID, questionId: questionID, userId: bobID)
        let toBob = try KeyboxContext(coupleId: coupleID, questionId: questionID, senderUserId: aliceID, recipientUserId: bobID)
        let toAlice = try KeyboxContext(coupleId: coupleID, questionId: questionID, senderUserId: bobID, recipientUserId: aliceID)
        var sink = 0

        func closerKitCycle() throws {
            let a = try SealedAnswer.seal(answer: aliceText, context: aliceContext, cipher: couple.cipher)
            let b = try SealedAnswer.seal(answer: bobText, context: bobContext, cipher: couple.cipher)
            let aBox = try Keybox.wrap(oneTimeKey: a.oneTimeKey, recipientPublicKeyset: CloserPublicKey.decode(bobPublic), context: toBob)
            // Bob opens his own answer, unwraps Alice's key and opens hers, then releases his.
            sink &+= try SealedAnswer.open(payload: b.payload, commitment: b.commitment, commitmentSeal: b.commitmentSeal,
                                           oneTimeKey: b.oneTimeKey, context: bobContext, cipher: couple.cipher).utf8.count
            let aKey = try Keybox.unwrap(aBox, recipient: bobDecrypter, context: toBob)
            sink &+= try SealedAnswer.open(payload: a.payload, commitment: a.commitment, commitmentSeal: a.commitmentSeal,
                                           oneTimeKey: aKey, context: aliceContext, cipher: couple.cipher).utf8.count
            let bBox = try Keybox.wrap(oneTimeKey: b.oneTimeKey, recipientPublicKeyset: CloserPublicKey.decode(alicePublic), context: toAlice)
            // Alice opens her own answer, unwraps Bob's key and opens his.
            sink &+= try SealedAnswer.open(payload: a.payload, commitment: a.commitment, commitmentSeal: a.commitmentSeal,
                                           oneTimeKey: a.oneTimeKey, context: aliceContext, cipher: couple.cipher).utf8.count
            let bKey = try Keybox.unwrap(bBox, recipient: aliceDecrypter, context: toAlice)
            sink &+= try SealedAnswer.open(payload: b.payload, commitment: b.commitment, commitmentSeal: b.commitmentSeal,
                                           oneTimeKey: bKey, context: bobContext, cipher: couple.cipher).utf8.count
        }

        // The same primitives on the same sizes: the payload is the canonical JSON CloserKit seals.
        let aliceJSON = try SealedPayload.canonicalJSON(answer: aliceText, context: aliceContext)
        let bobJSON = try SealedPayload.canonicalJSON(answer: bobText, context: bobContext)
        let coupleKey = SymmetricKey(size: .bits256)
        let aliceRaw = P256.KeyAgreement.PrivateKey(), bobRaw = P256.KeyAgreement.PrivateKey()
        let aliceAD = Array("\(coupleID)|\(questionID)|\(aliceID)".utf8), bobAD = Array("\(coupleID)|\(questionID)|\(bobID)".utf8)
        let info = Array("keybox:v1|\(coupleID)|\(questionID)|\(aliceID)|\(bobID)".utf8)

        struct RawSealed { let payload: AES.GCM.SealedBox; let seal: AES.GCM.SealedBox; let key: SymmetricKey }
        func rawSeal(_ json: [UInt8], _ ad: [UInt8]) throws -> RawSealed {
            let key = SymmetricKey(size: .bits256)
            let payload = try AES.GCM.seal(json, using: key, authenticating: ad)
            let commitment = SHA256.hash(data: json).withUnsafeBytes { Array($0) }
            return RawSealed(payload: payload, seal: try AES.GCM.seal(commitment, using: coupleKey, authenticating: ad), key: key)
        }
        func rawOpen(_ sealed: RawSealed, key: SymmetricKey, _ ad: [UInt8]) throws {
            let json = try AES.GCM.open(sealed.payload, using: key, authenticating: ad)
            let commitment = try AES.GCM.open(sealed.seal, using: coupleKey, authenticating: ad)
            sink &+= SHA256.hash(data: json).withUnsafeBytes { Int($0[0]) } &+ commitment.count
        }
        func rawWrap(_ key: SymmetricKey, to recipient: P256.KeyAgreement.PublicKey) throws -> (P256.KeyAgreement.PublicKey, AES.GCM.SealedBox) {
            let ephemeral = P256.KeyAgreement.PrivateKey()
            let kem = ephemeral.publicKey.x963Representation
            let dem = try ephemeral.sharedSecretFromKeyAgreement(with: recipient)
                .hkdfDerivedSymmetricKey(using: SHA256.self, salt: kem, sharedInfo: info, outputByteCount: 32)
            return (ephemeral.publicKey, try key.withUnsafeBytes { try AES.GCM.seal(Array($0), using: dem) })
        }
        func rawUnwrap(_ box: (P256.KeyAgreement.PublicKey, AES.GCM.SealedBox), with recipient: P256.KeyAgreement.PrivateKey) throws -> SymmetricKey {
            let dem = try recipient.sharedSecretFromKeyAgreement(with: box.0)
                .hkdfDerivedSymmetricKey(using: SHA256.self, salt: box.0.x963Representation, sharedInfo: info, outputByteCount: 32)
            return SymmetricKey(data: try AES.GCM.open(box.1, using: dem))
        }
        func rawCycle() throws {
            let a = try rawSeal(aliceJSON, aliceAD), b = try rawSeal(bobJSON, bobAD)
            let aBox = try rawWrap(a.key, to: bobRaw.publicKey)
            try rawOpen(b, key: b.key, bobAD)
            try rawOpen(a, key: try rawUnwrap(aBox, with: bobRaw), aliceAD)
            let bBox = try rawWrap(b.key, to: aliceRaw.publicKey)
            try rawOpen(a, key: a.key, aliceAD)
            try rawOpen(b, key: try rawUnwrap(bBox, with: aliceRaw), bobAD)
        }

        var kit: [Double] = [], raw: [Double] = []
        try closerKitCycle(); try rawCycle()  // warm-up
        for _ in 0..<rounds {
            kit.append(try cpuMilliseconds { for _ in 0..<cycles { try closerKitCycle() } } / Double(cycles))
            raw.append(try cpuMilliseconds { for _ in 0..<cycles { try rawCycle() } } / Double(cycles))
        }
        if sink == 42 { print("") }  // keeps the optimiser from discarding the work
        return Figure(closerKit: kit.sorted()[rounds / 2], raw: raw.sorted()[rounds / 2])
    }

    /// The process CPU time `body` takes, in milliseconds.
    static func cpuMilliseconds(_ body: () throws -> Void) rethrows -> Double {
        func now() -> Double {
            var spec = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
            return Double(spec.tv_sec) * 1e3 + Double(spec.tv_nsec) / 1e6
        }
        let start = now()
        try body()
        return now() - start
    }
}
