import Testing
@testable import KindredCrypto

/// Property tests: 10,000 seeded random mutations per Tink format must each give a typed
/// `KindredCryptoError` (or, for keysets, a still-valid keyset that works), never a crash.
@Suite struct TinkMutationTests {
    private static let rounds = 10_000

    /// Fixed keys, so that a failing seed replays exactly.
    private static func aeadKeyset() throws -> Keyset {
        var keyset = try Keyset.aes256GCM(key: Array(0...31), keyID: 0x0102_0304)
        keyset.keys += try Keyset.aes256GCM(key: Array(32...63), keyID: 77, outputPrefixType: .raw).keys
        keyset.keys += try Keyset.aes256GCM(key: Array(64...95), keyID: 78, outputPrefixType: .legacy).keys
        return keyset
    }

    private static func hybridKeyset() throws -> Keyset {
        let c = try TinkHybridVectors.load().cases
        var keyset = try Keyset(serialized: try Hex.decode(c[0].privateKeyset))
        keyset.keys += try Keyset(serialized: try Hex.decode(c[1].privateKeyset32)).keys
        return keyset
    }

    @Test func mutatedAEADCiphertexts() throws {
        let keyset = try Self.aeadKeyset()
        // With a RAW key every ciphertext has a candidate; without one, foreign prefixes match nothing.
        let withRaw = try TinkAEAD(keyset: keyset)
        let prefixedOnly = try TinkAEAD(keyset: Keyset(primaryKeyID: keyset.primaryKeyID, keys: [keyset.keys[0], keyset.keys[2]]))
        let ciphertext = try withRaw.encrypt(Array("mutate me".utf8), associatedData: [1], iv: Array(repeating: 9, count: 12))
        var rng = SeededGenerator(seed: 0x7417_AEAD)
        var seen: [String: Int] = [:]
        for round in 0..<Self.rounds {
            let mutated = Mutator.mutate(ciphertext, using: &rng)
            for aead in [withRaw, prefixedOnly] {
                do throws(KindredCryptoError) {
                    _ = try aead.decrypt(mutated, associatedData: [1])
                    Issue.record("round \(round): mutated ciphertext \(Hex.encode(mutated)) decrypted")
                } catch {
                    seen[error.description, default: 0] += 1
                }
            }
        }
        let allowed: [KindredCryptoError] = [.authenticationFailed, .noMatchingKey, .truncated(format: "tink aead")]
        #expect(Set(seen.keys) == Set(allowed.map(\.description)), "\(seen)")
        #expect(seen[KindredCryptoError.authenticationFailed.description, default: 0] > 1000)
        #expect(seen.values.reduce(0, +) == 2 * Self.rounds)
    }

    @Test func mutatedHybridCiphertexts() throws {
        let privateKeyset = try Self.hybridKeyset()
        let decrypter = try TinkHybridDecrypt(privateKeyset: privateKeyset)
        let prefixedOnly = try TinkHybridDecrypt(privateKeyset: Keyset(primaryKeyID: privateKeyset.primaryKeyID, keys: [privateKeyset.keys[0]]))
        let c = try TinkHybridVectors.load().cases[0]
        let ciphertext = try Hex.decode(c.ciphertext)
        let context = try Hex.decode(c.contextInfo)
        #expect(try decrypter.decrypt(ciphertext, contextInfo: context) == (try Hex.decode(c.plaintext)))
        var rng = SeededGenerator(seed: 0x7417_ECE5)
        var seen: [String: Int] = [:]
        for round in 0..<Self.rounds {
            let mutated = Mutator.mutate(ciphertext, using: &rng)
            for primitive in [decrypter, prefixedOnly] {
                do throws(KindredCryptoError) {
                    _ = try primitive.decrypt(mutated, contextInfo: context)
                    Issue.record("round \(round): mutated ciphertext \(Hex.encode(mutated)) decrypted")
                } catch {
                    seen[error.description, default: 0] += 1
                }
            }
        }
        let allowed: [KindredCryptoError] = [.authenticationFailed, .noMatchingKey, .truncated(format: "tink hybrid")]
        #expect(Set(seen.keys) == Set(allowed.map(\.description)), "\(seen)")
        #expect(seen[KindredCryptoError.authenticationFailed.description, default: 0] > 1000)
    }

    /// Errors a keyset may legitimately produce while being parsed or turned into a primitive.
    private static func isKeysetError(_ error: KindredCryptoError) -> Bool {
        switch error {
        case .malformed, .truncated, .invalidKeyset, .unsupportedKeyType, .invalidKeySize, .invalidPublicKey, .invalidParameters: true
        default: false
        }
    }

    @Test func mutatedAEADKeysets() throws {
        let serialized = try Self.aeadKeyset().serialized()
        var rng = SeededGenerator(seed: 0x7417_5E7A)
        var accepted = 0, refused = 0
        for round in 0..<Self.rounds {
            let mutated = Mutator.mutate(serialized, using: &rng)
            do throws(KindredCryptoError) {
                let aead = try TinkAEAD(keyset: try Keyset(serialized: mutated))
                // A mutation can leave a valid keyset (a changed key byte, id or unknown field): it must work.
                let ciphertext = try aead.encrypt([round.isMultiple(of: 2) ? 1 : 2], associatedData: [])
                #expect(try aead.decrypt(ciphertext, associatedData: []) == [round.isMultiple(of: 2) ? 1 : 2])
                accepted += 1
            } catch {
                #expect(Self.isKeysetError(error), "round \(round): \(error)")
                refused += 1
            }
        }
        #expect(accepted > 100 && refused > 1000, "accepted \(accepted), refused \(refused)")
    }

    @Test func mutatedHybridKeysets() throws {
        let privateKeyset = try Self.hybridKeyset()
        let serializedPrivate = privateKeyset.serialized()
        let serializedPublic = try privateKeyset.publicKeyset().serialized()
        var rng = SeededGenerator(seed: 0x7417_4B59)
        var accepted = 0
        var refused: [String: Int] = [:]
        for round in 0..<Self.rounds {
            let mutatePrivate = round.isMultiple(of: 2)
            let mutated = Mutator.mutate(mutatePrivate ? serializedPrivate : serializedPublic, using: &rng)
            do throws(KindredCryptoError) {
                let keyset = try Keyset(serialized: mutated)
                if mutatePrivate {
                    let decrypter = try TinkHybridDecrypt(privateKeyset: keyset)
                    let ciphertext = try TinkHybridEncrypt(publicKeyset: try keyset.publicKeyset()).encrypt([3], contextInfo: [])
                    #expect(try decrypter.decrypt(ciphertext, contextInfo: []) == [3])
                } else {
                    _ = try TinkHybridEncrypt(publicKeyset: keyset).encrypt([3], contextInfo: [])
                }
                accepted += 1
            } catch {
                #expect(Self.isKeysetError(error), "round \(round): \(error)")
                refused[error.description, default: 0] += 1
            }
        }
        // Most mutations break the protobuf or the point; a few only touch ids, statuses or unknown fields.
        #expect(accepted > 10 && refused.values.reduce(0, +) > 9000, "accepted \(accepted)")
    }
}
