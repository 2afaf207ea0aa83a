import Testing
@testable import KindredCrypto

@Suite struct KeyboxTests {
    static let context = try! KeyboxContext(coupleId: "couple-7Hq2", questionId: "q-2024-05-01", senderUserId: "alice", recipientUserId: "bob")

    @Test func wrapsAndUnwraps() throws {
        for prefix in [Keyset.OutputPrefixType.tink, .raw] {
            let bob = Keyset.generateECIESP256(outputPrefixType: prefix)
            let published = try CloserPublicKey.decode(CloserPublicKey.encode(bob.publicKeyset()))
            for _ in 0..<20 {
                let key = SecureRandom.bytes(32)
                let box = try Keybox.wrap(oneTimeKey: key, recipientPublicKeyset: published, context: Self.context)
                #expect(CloserWireFormat.isKeybox(box), "\(box)")
                #expect(box.utf8.count == (prefix == .tink ? 184 : 177))
                #expect(try Keybox.unwrap(box, recipientPrivateKeyset: bob, context: Self.context) == key)
            }
        }
        #expect(Self.context.contextInfo == Array("couple-7Hq2|q-2024-05-01|alice|bob".utf8))
    }

    @Test func bindsContextAndRecipient() throws {
        let bob = Keyset.generateECIESP256()
        let box = try Keybox.wrap(oneTimeKey: SecureRandom.bytes(32), recipientPublicKeyset: bob.publicKeyset(), context: Self.context)
        let others = [try KeyboxContext(coupleId: "couple-x", questionId: "q-2024-05-01", senderUserId: "alice", recipientUserId: "bob"),
                      try KeyboxContext(coupleId: "couple-7Hq2", questionId: "q-x", senderUserId: "alice", recipientUserId: "bob"),
                      try KeyboxContext(coupleId: "couple-7Hq2", questionId: "q-2024-05-01", senderUserId: "bob", recipientUserId: "alice"),
                      try KeyboxContext(coupleId: "couple-7Hq2", questionId: "q-2024-05-01", senderUserId: "alice", recipientUserId: "carol")]
        for other in others {
            #expect(throws: KindredCryptoError.authenticationFailed) { try Keybox.unwrap(box, recipientPrivateKeyset: bob, context: other) }
        }
        #expect(throws: KindredCryptoError.noMatchingKey) { try Keybox.unwrap(box, recipientPrivateKeyset: .generateECIESP256(), context: Self.context) }
        #expect(throws: KindredCryptoError.invalidKeySize(expected: 32, actual: 16)) {
            try Keybox.wrap(oneTimeKey: [UInt8](repeating: 0, count: 16), recipientPublicKeyset: bob.publicKeyset(), context: Self.context)
        }
        // A keybox whose plaintext is not a 32-byte key.
        let short = try TinkHybridEncrypt(publicKeyset: bob.publicKeyset()).encrypt([1, 2, 3], contextInfo: Self.context.contextInfo)
        let wire = "keybox:v1:" + Base64.encode(short, alphabet: .urlSafeNoPadding)
        #expect(throws: KindredCryptoError.invalidKeySize(expected: 32, actual: 3)) { try Keybox.unwrap(wire, recipientPrivateKeyset: bob, context: Self.context) }
    }

    @Test func mutatedKeyboxesGiveTypedErrors() throws {
        let bob = Keyset.generateECIESP256()
        let box = try Keybox.wrap(oneTimeKey: SecureRandom.bytes(32), recipientPublicKeyset: bob.publicKeyset(), context: Self.context)
        var rng = SeededGenerator(seed: 0x4B45_5942)
        for _ in 0..<10_000 {
            let mutated = Mutator.mutate(box, using: &rng)
            do {
                _ = try Keybox.unwrap(mutated, recipientPrivateKeyset: bob, context: Self.context)
                Issue.record("a mutated keybox opened: \(mutated)")
            } catch {
                switch error {
                case .wrongPrefix(format: "keybox:v1", _), .truncated, .malformed(format: "keybox:v1", _), .tooLong(format: "keybox:v1", _),
                     .authenticationFailed, .noMatchingKey, .invalidPublicKey: continue
                default: Issue.record("unexpected \(error)")
                }
            }
        }
        #expect(throws: KindredCryptoError.truncated(format: "keybox:v1")) { try Keybox.unwrap("keybox:v1:AAAA", recipientPrivateKeyset: bob, context: Self.context) }
    }

    /// Python Tink unwraps Swift's keyboxes (to a Python-made pub:v1) and Swift unwraps Python's.
    @Test(.enabled(if: CloserReference.enabled)) func interopWithPythonTink() throws {
        let python = try CloserReference.object(["op": "ecies-new"])
        let pub = try #require(python["publicKey"] as? String)
        #expect(CloserWireFormat.isPublicKey(pub))
        let key = SecureRandom.bytes(32)
        let box = try Keybox.wrap(oneTimeKey: key, recipientPublicKeyset: CloserPublicKey.decode(pub), context: Self.context)
        let unwrapped = try CloserReference.object(["op": "keybox-unwrap", "privateKeyset": try #require(python["privateKeyset"] as? String),
                                                    "keybox": box, "context": "couple-7Hq2|q-2024-05-01|alice|bob"])
        #expect(unwrapped["key"] as? String == Hex.encode(key))

        let bob = Keyset.generateECIESP256()
        let theirs = try CloserReference.object(["op": "keybox-wrap", "publicKey": try CloserPublicKey.encode(bob.publicKeyset()),
                                                 "key": Hex.encode(key), "context": "couple-7Hq2|q-2024-05-01|alice|bob"])
        let theirBox = try #require(theirs["keybox"] as? String)
        #expect(CloserWireFormat.isKeybox(theirBox))
        #expect(try Keybox.unwrap(theirBox, recipientPrivateKeyset: bob, context: Self.context) == key)
    }

    /// Primitives made once wrap and unwrap interchangeably with the keyset-taking API.
    @Test func primitivesMadeOnceMatchTheKeysetAPI() throws {
        let bob = Keyset.generateECIESP256()
        let encrypter = try TinkHybridEncrypt(publicKeyset: bob.publicKeyset())
        let decrypter = try TinkHybridDecrypt(privateKeyset: bob)
        for _ in 0..<5 {
            let key = SecureRandom.bytes(32)
            let box = try Keybox.wrap(oneTimeKey: key, recipient: encrypter, context: Self.context)
            #expect(CloserWireFormat.isKeybox(box) && box.utf8.count == 184)
            #expect(try Keybox.unwrap(box, recipient: decrypter, context: Self.context) == key)
            #expect(try Keybox.unwrap(box, recipientPrivateKeyset: bob, context: Self.context) == key)
            let other = try Keybox.wrap(oneTimeKey: key, recipientPublicKeyset: bob.publicKeyset(), context: Self.context)
            #expect(try Keybox.unwrap(other, recipient: decrypter, context: Self.context) == key)
        }
        let box = try Keybox.wrap(oneTimeKey: SecureRandom.bytes(32), recipient: encrypter, context: Self.context)
        let carol = try KeyboxContext(coupleId: "couple-7Hq2", questionId: "q-2024-05-01", senderUserId: "alice", recipientUserId: "carol")
        #expect(throws: KindredCryptoError.authenticationFailed) { try Keybox.unwrap(box, recipient: decrypter, context: carol) }
        #expect(throws: KindredCryptoError.invalidKeySize(expected: 32, actual: 16)) {
            try Keybox.wrap(oneTimeKey: [UInt8](repeating: 0, count: 16), recipient: encrypter, context: Self.context)
        }
        #expect(throws: KindredCryptoError.wrongPrefix(format: "keybox:v1", expected: "keybox:v1:")) {
            try Keybox.unwrap("sealed:v1:" + box.dropFirst(10), recipient: decrypter, context: Self.context)
        }
    }
}
