import Crypto
import Testing
@testable import KindredCrypto

@Suite struct SoulMateChatKeyTests {
    struct Vector: Decodable {
        let aliceRawPrivateKeyHex, bobRawPrivateKeyHex, alicePublicKeyBase64, bobPublicKeyBase64: String
        let pairKeyHex, nonceHex, payloadJSON, envelope: String
    }

    let vector: Vector
    let alice: SoulMateIdentity
    let bob: SoulMateIdentity

    init() throws {
        vector = try Vectors.load("soulmate-chat")
        alice = try SoulMateIdentity(rawPrivateKey: Hex.decode(vector.aliceRawPrivateKeyHex))
        bob = try SoulMateIdentity(rawPrivateKey: Hex.decode(vector.bobRawPrivateKeyHex))
    }

    @Test func knownAnswerPublicKeysAndPairKey() throws {
        #expect(alice.publicKeyBase64 == vector.alicePublicKeyBase64)
        #expect(bob.publicKeyBase64 == vector.bobPublicKeyBase64)
        let fromAlice = try SoulMateChatKey(identity: alice, partnerPublicKeyBase64: bob.publicKeyBase64)
        let fromBob = try SoulMateChatKey(identity: bob, partnerPublicKeyBase64: alice.publicKeyBase64)
        #expect(Hex.encode(fromAlice.keyBytes) == vector.pairKeyHex)
        #expect(fromBob.keyBytes == fromAlice.keyBytes)
    }

    @Test func knownAnswerEnvelope() throws {
        let key = try SoulMateChatKey(identity: alice, partnerPublicKeyBase64: bob.publicKeyBase64)
        let payload = try ChatPayload(decoding: Array(vector.payloadJSON.utf8))
        #expect(payload == ChatPayload(type: .text, value: "Merhaba aşkım 💜"))
        #expect(try payload.encoded() == Array(vector.payloadJSON.utf8))
        let nonce = try AES.GCM.Nonce(data: Hex.decode(vector.nonceHex))
        #expect(try key.seal(payload, nonce: nonce) == vector.envelope)
        let bobKey = try SoulMateChatKey(identity: bob, partnerPublicKeyBase64: alice.publicKeyBase64)
        #expect(try bobKey.open(vector.envelope) == payload)
    }

    @Test(arguments: ChatPayload.Kind.allCases)
    func everyKindRoundTrips(kind: ChatPayload.Kind) throws {
        let key = try SoulMateChatKey(identity: alice, partnerPublicKeyBase64: bob.publicKeyBase64)
        let value = kind == .heartbeat ? "" : "value of \(kind.rawValue) 🫶"
        let payload = ChatPayload(type: kind, value: value)
        let envelope = try key.seal(payload)
        #expect(try SoulMateChatKey(keyBytes: key.keyBytes).open(envelope) == payload)
    }

    @Test func wrongPartnerCannotOpen() throws {
        let eve = SoulMateIdentity()
        let key = try SoulMateChatKey(identity: alice, partnerPublicKeyBase64: bob.publicKeyBase64)
        let eveKey = try SoulMateChatKey(identity: eve, partnerPublicKeyBase64: alice.publicKeyBase64)
        let envelope = try key.seal(ChatPayload(type: .secret, value: "only for bob"))
        #expect(throws: KindredCryptoError.authenticationFailed) { try eveKey.open(envelope) }
    }

    @Test func invalidInputsGetTypedErrors() throws {
        let key = try SoulMateChatKey(identity: alice, partnerPublicKeyBase64: bob.publicKeyBase64)
        #expect(throws: KindredCryptoError.malformed(format: "soulmate-payload", reason: "text message has an empty value")) {
            try key.seal(ChatPayload(type: .text, value: ""))
        }
        #expect(throws: KindredCryptoError.truncated(format: "soulmate-envelope")) { try key.open("AAAA") }
        #expect(throws: KindredCryptoError.invalidKeySize(expected: 32, actual: 3)) {
            try SoulMateChatKey(identity: alice, partnerPublicKeyBase64: "AAAA")
        }
        #expect(throws: KindredCryptoError.malformed(format: "soulmate-payload", reason: "unknown message type")) {
            try ChatPayload(decoding: Array(#"{"type":"voice","value":"x"}"#.utf8))
        }
        #expect(throws: KindredCryptoError.malformed(format: "soulmate-payload", reason: "not a chat payload object")) {
            try ChatPayload(decoding: Array("[1,2]".utf8))
        }
    }

    @Test func tenThousandMutatedEnvelopesNeverOpen() throws {
        let key = try SoulMateChatKey(identity: alice, partnerPublicKeyBase64: bob.publicKeyBase64)
        let envelope = try key.seal(ChatPayload(type: .text, value: "a message long enough to mutate"))
        var rng = SeededGenerator(seed: 0x5011_4a7e)
        for _ in 0..<10_000 {
            let mutated = Mutator.mutate(envelope, using: &rng)
            do {
                _ = try key.open(mutated)
                Issue.record("a mutated envelope opened: \(mutated)")
            } catch {
                // Every failure is a KindredCryptoError by the typed-throws signature.
            }
        }
    }
}
