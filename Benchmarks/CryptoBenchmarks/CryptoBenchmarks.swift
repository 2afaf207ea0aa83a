import Crypto
import KindredCrypto

/// `kindred-crypto-bench`: Closer's per-answer formats against the raw swift-crypto primitives
/// they are built from, measured in the same run and printed as ratios. Run it through
/// `scripts/bench-crypto` (release build).
@main
struct CryptoBenchmarks {
    static func main() throws {
        let payloadSize = 1024
        let answer = String(repeating: "a", count: payloadSize)
        let bytes = [UInt8](repeating: 0x61, count: payloadSize)
        let coupleKeyset = Keyset.generateAES256GCM()
        let recipient = Keyset.generateECIESP256()
        let recipientPublic = try recipient.publicKeyset()
        let sealContext = try SealedAnswerContext(coupleId: "couple-0001", questionId: "q-2026-11-22", userId: "alice")
        let keyboxContext = try KeyboxContext(coupleId: "couple-0001", questionId: "q-2026-11-22", senderUserId: "alice", recipientUserId: "bob")
        let fieldCipher = try CloserFieldCipher(coupleKeyset: coupleKeyset)
        let rawKey = SymmetricKey(size: .bits256)
        let recipientRaw = P256.KeyAgreement.PrivateKey()
        var sink = 0

        print("KindredCrypto benchmarks, \(payloadSize)-byte payloads, median of \(Bench.rounds) rounds (ns per operation)")

        let aesGCM = Bench.measure("raw AES-256-GCM seal+open") {
            let box = try AES.GCM.seal(bytes, using: rawKey)
            sink &+= try AES.GCM.open(box, using: rawKey).count
        }
        let aesGCMPlusSHA = Bench.measure("raw AES-256-GCM seal+open + SHA-256") {
            let box = try AES.GCM.seal(bytes, using: rawKey)
            sink &+= try AES.GCM.open(box, using: rawKey).count
            sink &+= SHA256.hash(data: bytes).withUnsafeBytes { Int($0[0]) }
        }
        let p256 = Bench.measure("raw P-256 ephemeral key + 2 key agreements") {
            let ephemeral = P256.KeyAgreement.PrivateKey()
            let a = try ephemeral.sharedSecretFromKeyAgreement(with: recipientRaw.publicKey)
            let b = try recipientRaw.sharedSecretFromKeyAgreement(with: ephemeral.publicKey)
            sink &+= a.withUnsafeBytes { Int($0[0]) } &+ b.withUnsafeBytes { Int($0[0]) }
        }
        // A client keeps one `CloserFieldCipher` per couple, so the cipher is made once here.
        let sealOpen = Bench.measure("sealed:v1 seal+open (commitment, commitmentSeal)") {
            let sealed = try SealedAnswer.seal(answer: answer, context: sealContext, cipher: fieldCipher)
            sink &+= try SealedAnswer.open(payload: sealed.payload, commitment: sealed.commitment, commitmentSeal: sealed.commitmentSeal,
                                           oneTimeKey: sealed.oneTimeKey, context: sealContext, cipher: fieldCipher).utf8.count
        }
        Bench.measure("sealed:v1 seal+open, keyset read per call") {
            let sealed = try SealedAnswer.seal(answer: answer, context: sealContext, coupleKeyset: coupleKeyset)
            sink &+= try SealedAnswer.open(payload: sealed.payload, commitment: sealed.commitment, commitmentSeal: sealed.commitmentSeal,
                                           oneTimeKey: sealed.oneTimeKey, context: sealContext, coupleKeyset: coupleKeyset).utf8.count
        }
        let oneTimeKey = [UInt8](repeating: 7, count: 32)
        // A client keeps its own decrypter and the partner's encrypter, so both are made once here.
        let encrypter = try TinkHybridEncrypt(publicKeyset: recipientPublic)
        let decrypter = try TinkHybridDecrypt(privateKeyset: recipient)
        let keybox = Bench.measure("keybox:v1 wrap+unwrap") {
            let box = try Keybox.wrap(oneTimeKey: oneTimeKey, recipient: encrypter, context: keyboxContext)
            sink &+= try Keybox.unwrap(box, recipient: decrypter, context: keyboxContext).count
        }
        Bench.measure("keybox:v1 wrap+unwrap, keysets read per call") {
            let box = try Keybox.wrap(oneTimeKey: oneTimeKey, recipientPublicKeyset: recipientPublic, context: keyboxContext)
            sink &+= try Keybox.unwrap(box, recipientPrivateKeyset: recipient, context: keyboxContext).count
        }
        let encV1 = Bench.measure("enc:v1 encrypt+decrypt") {
            let text = try fieldCipher.encrypt(bytes: bytes, coupleId: "couple-0001")
            sink &+= try fieldCipher.decrypt(text, coupleId: "couple-0001").count
        }

        print("")
        print("ratios (lower is better)")
        Bench.ratio("sealed:v1 seal+open", sealOpen, against: "raw AES-GCM seal+open + SHA-256", aesGCMPlusSHA, target: 2.0)
        Bench.ratio("keybox:v1 wrap+unwrap", keybox, against: "raw P-256 keygen + 2 ECDH", p256, target: nil)
        Bench.ratio("enc:v1 encrypt+decrypt", encV1, against: "raw AES-GCM seal+open", aesGCM, target: nil)
        if sink == 42 { print("") }  // keeps the optimiser from discarding the work
    }
}
