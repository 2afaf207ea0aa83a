import Testing
@testable import KindredCrypto

@Suite struct WireInspectionTests {
    @Test func namesFormatsAndProblems() throws {
        let vectors = try CloserVectors.load()
        let cases: [(String, String)] = [
            (vectors.sealed.payload, "sealed:v1: valid — 235 bytes: IV 12, ciphertext 207, tag 16"),
            ("sealed:v1:AAAAAAAAAAAA", "sealed:v1: invalid — body has 12 characters, at least 80 required"),
            (vectors.sealed.commitment, "sha256: valid — 32-byte SHA-256 digest e4158ffc7bb05e2a05db4f19045551744339e1f971d674774dbfb81ec6fdbf94"),
            (vectors.enc.ciphertext, "enc:v1: valid — 55 bytes; first byte 0x01: TINK prefix, key id 705367053"),
            ("enc:v1:QUJDR", "enc:v1: invalid — length is not a multiple of 4"),
            ("enc:v1:QUJD", "enc:v1: invalid — 3 bytes is shorter than a Tink ciphertext (28)"),
            (vectors.invite.verifier, "verifier:v1: valid — 32-byte HMAC-SHA256 ecd45b51f9e10ff2c423875d54bf0f7f53fdd440775469e514993d4bbaaadb80"),
            (vectors.invite.encryptedPhrase, "invite:v1: valid — 92 bytes: IV 12, ciphertext 64, tag 16"),
            ("7K3QXM", "invite code: valid — matches the rule; canonical Crockford form"),
            ("ab12cd", "invite code: valid — matches the rule (not a code Kindred generates: not canonical Crockford)"),
            ("ab12c!", "invite code: invalid — character 6 is not one of A-Z, a-z, 0-9"),
            (vectors.invite.share, "invite share: valid — code 7K3QXM; the secret's check symbol matches"),
            ("7K3QXM-4F8ZT-QW2YH-9KB8", "invite share: invalid — check character does not match (a typo?)"),
            (vectors.invite.kdfParams, "kdfParams: valid — argon2id m=64 KiB, t=2, p=1, len 32 (canonical)"),
            (#"{"alg":"argon2id","len":32,"m":9999999,"p":1,"t":3,"v":19}"#, "kdfParams: invalid — m = 9999999 KiB is outside 8...262144"),
            ("$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", "argon2id PHC: valid — m=64 KiB, t=1, p=1, salt 8 bytes, tag 16 bytes"),
            ("$argon2id$v=19$m=64", "argon2id PHC: invalid — truncated"),
            (Base64.encode(try vectors.coupleKeyset().serialized(), alphabet: .standard),
             "Tink keyset (Base64): valid — 1 key(s), primary 705367053: AesGcmKey id 705367053 tink enabled"),
            (vectors.wrap.phrase.uppercased(), "recovery phrase: valid — 10 words from the list (80 bits)"),
            ("acorn zipper nope", "recovery phrase: invalid — expected 10 words, got 3"),
            ("hello", "unknown: invalid — not a Kindred wire format this tool knows"),
        ]
        for (text, expected) in cases {
            #expect(WireInspection.inspect(text).summary == expected)
        }
        let pub = try CloserPublicKey.encode(Keyset.generateECIESP256().publicKeyset())
        let inspection = WireInspection.inspect(pub)
        #expect(inspection.format == "pub:v1" && inspection.isValid && inspection.detail.contains("EciesAeadHkdfPublicKey"))
        #expect(!WireInspection.inspect("pub:v1:" + Base64.encode(Keyset.generateECIESP256().serialized(), alphabet: .urlSafeNoPadding)).isValid)
    }

    /// Inspection never crashes and is valid only for what the validators accept.
    @Test func mutatedStringsAreInspectedSafely() throws {
        let vectors = try CloserVectors.load()
        let seeds = [vectors.sealed.payload, vectors.sealed.commitment, vectors.enc.ciphertext, vectors.invite.verifier,
                     vectors.invite.encryptedPhrase, vectors.invite.share, vectors.invite.kdfParams, "7K3QXM"]
        var rng = SeededGenerator(seed: 0x494E_5350)
        for i in 0..<10_000 {
            let mutated = Mutator.mutate(seeds[i % seeds.count], using: &rng)
            let inspection = WireInspection.inspect(mutated)
            if inspection.isValid, let format = CloserWireFormat.Format(rawValue: inspection.format) {
                #expect(CloserWireFormat.problem(mutated, as: format) == nil)
            }
        }
    }
}
