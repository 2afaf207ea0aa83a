import KindredCrypto

extension FuzzTargets {
    /// The end-to-end wire formats of `KindredCrypto`: Tink keysets and ciphertexts, canonical
    /// JSON, PHC strings, Closer's wire strings and SoulMate's chat envelopes.
    static let cryptoTargets: [FuzzTarget] = [
        FuzzTarget(name: "tink-keyset", summary: "Keyset(serialized:), then TinkAEAD and TinkHybridDecrypt over it", body: tinkKeyset),
        FuzzTarget(name: "tink-ciphertext", summary: "TinkAEAD.decrypt and TinkHybridDecrypt.decrypt with the vectors' keys", body: tinkCiphertext),
        FuzzTarget(name: "canonical-json", summary: "CanonicalJSON.parse / parseCanonical, then encode", body: canonicalJSON),
        FuzzTarget(name: "phc-string", summary: "Argon2id.PHC(parsing:), then its string", body: phcString),
        FuzzTarget(name: "closer-wire", summary: "CloserWireFormat, WireInspection, invite codes, recovery phrases, enc:v1 and keybox:v1", body: closerWire),
        FuzzTarget(name: "soulmate-wire", summary: "ChatPayload(decoding:), SoulMateChatKey.open, identity public keys", body: soulMateWire),
    ]

    /// A keyset that parses serializes to bytes that parse to the same keyset.
    static func tinkKeyset(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        guard let keyset = try? Keyset(serialized: input) else { return false }
        let again = try? Keyset(serialized: keyset.serialized())
        try expect(again == keyset, "tink-keyset", "a parsed keyset does not survive serialized() and parsing again")
        _ = try? keyset.primaryKey()
        _ = try? TinkAEAD(keyset: keyset)
        _ = try? TinkHybridDecrypt(privateKeyset: keyset)
        _ = try? keyset.publicKeyset()
        return true
    }

    /// Ciphertexts under fixed keys: a refusal is fine; a plaintext re-encrypts and opens to itself.
    static func tinkCiphertext(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        let aead = try FuzzFixtures.loaded(FuzzFixtures.aead, "tink-ciphertext", "AEAD keyset")
        let hybrid = try FuzzFixtures.loaded(FuzzFixtures.hybridDecrypt, "tink-ciphertext", "hybrid keyset")
        let associatedData = Array("ad".utf8)
        let opened = try? aead.decrypt(input, associatedData: associatedData)
        if let plaintext = opened {
            let sealed = try? aead.encrypt(plaintext, associatedData: associatedData)
            let again = sealed.flatMap { try? aead.decrypt($0, associatedData: associatedData) }
            try expect(again == plaintext, "tink-ciphertext", "an opened AEAD plaintext does not survive encrypt and decrypt")
        }
        let hybridOpened = try? hybrid.decrypt(input, contextInfo: Array("context".utf8))
        return opened != nil || hybridOpened != nil
    }

    /// Parsed JSON re-encodes canonically and parses to the same value; a canonical parse is the
    /// input's exact bytes.
    static func canonicalJSON(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        let parsed = try? CanonicalJSON.parse(input)
        if let value = parsed, let encoded = try? CanonicalJSON.encode(value) {
            let again = try? CanonicalJSON.parseCanonical(encoded)
            try expect(again == value, "canonical-json", "encode(parse(x)) does not parse canonically to the same value")
        }
        if let value = try? CanonicalJSON.parseCanonical(input) {
            let encoded = try? CanonicalJSON.encode(value)
            try expect(encoded == input, "canonical-json", "a canonical parse does not encode to the input's bytes")
        }
        return parsed != nil
    }

    /// A PHC string that parses prints a string that parses to the same value.
    static func phcString(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        guard let phc = try? Argon2id.PHC(parsing: text(input)) else { return false }
        let again = try? Argon2id.PHC(parsing: phc.string)
        try expect(again == phc, "phc-string", "PHC(parsing: phc.string) differs from phc")
        return true
    }

    /// Every Closer wire check over the text; a body that decodes has no problem.
    static func closerWire(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        let string = text(input)
        var accepted = false
        for format in CloserWireFormat.Format.allCases {
            let problem = CloserWireFormat.problem(string, as: format)
            accepted = accepted || problem == nil
            if format != .inviteCode, (try? CloserWireFormat.decodeBody(string, as: format)) != nil {
                try expect(problem == nil, "closer-wire", "decodeBody accepted a \(format.rawValue) that problem() refuses: \(problem ?? "")")
            }
        }
        _ = CloserWireFormat.claimedFormat(of: string)
        _ = WireInspection.inspect(string)
        if let code = try? InviteCode.canonicalize(string) {
            accepted = true
            try expect(CloserWireFormat.isInviteCode(code), "closer-wire", "canonicalize returned \(code), not an invite code")
        }
        if let phrase = try? RecoveryPhrase(parsing: string) {
            accepted = true
            let again = try? RecoveryPhrase(parsing: phrase.normalized)
            try expect(again == phrase, "closer-wire", "a recovery phrase does not survive normalizing and parsing")
        }
        let cipher = try FuzzFixtures.loaded(FuzzFixtures.fieldCipher, "closer-wire", "couple keyset")
        _ = try? cipher.decrypt(string, coupleId: FuzzFixtures.coupleId)
        let hybrid = try FuzzFixtures.loaded(FuzzFixtures.hybridDecrypt, "closer-wire", "hybrid keyset")
        if let context = try? KeyboxContext(coupleId: FuzzFixtures.coupleId, questionId: "q-2024-05-01", senderUserId: "a", recipientUserId: "b") {
            _ = try? Keybox.unwrap(string, recipient: hybrid, context: context)
        }
        return accepted
    }

    /// A chat payload that decodes encodes to bytes that decode to it; envelopes open or are refused.
    static func soulMateWire(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        let decoded = try? ChatPayload(decoding: input)
        if let payload = decoded {
            let again = (try? payload.encoded()).flatMap { try? ChatPayload(decoding: $0) }
            try expect(again == payload, "soulmate-wire", "a decoded chat payload does not survive encoded() and decoding")
        }
        let key = try FuzzFixtures.loaded(FuzzFixtures.chatKey, "soulmate-wire", "pair key")
        let string = text(input)
        let opened = try? key.open(string)
        if let payload = opened {
            let resealed = (try? key.seal(payload)).flatMap { try? key.open($0) }
            try expect(resealed == payload, "soulmate-wire", "an opened chat payload does not survive seal and open")
        }
        let publicKey = try? SoulMateIdentity.publicKey(fromBase64: string)
        return decoded != nil || opened != nil || publicKey != nil
    }
}
