/// The enabled keys of a keyset turned into primitives, as Tink's `PrimitiveSet` and its
/// AEAD / hybrid wrappers use them: encrypt with the primary; decrypt by trying the keys whose
/// 5-byte output prefix starts the ciphertext, then every RAW key on the whole ciphertext.
/// Spec: `docs/wire-formats.md`, "Keyset validation" and "Output prefixes".
struct PrimitiveSet<Primitive: Sendable>: Sendable {
    /// One enabled key and its primitive.
    struct Entry: Sendable {
        /// The key id.
        let keyID: UInt32
        /// The output prefix (`0x01 ‖ id`, `0x00 ‖ id`, or empty for RAW).
        let prefix: [UInt8]
        /// The primitive built from the key's material.
        let primitive: Primitive
    }

    /// The length of a TINK, LEGACY or CRUNCHY prefix.
    static var nonRawPrefixSize: Int { 5 }

    /// The primary entry, which encrypts.
    let primary: Entry
    /// Every enabled key, in keyset order.
    let entries: [Entry]

    /// Validates a keyset as Tink's `Util.validateKeyset` does and builds each enabled key.
    ///
    /// Disabled and destroyed keys are ignored. Each enabled key must have a known output prefix
    /// type and one of `typeURLs`; the primary must exist once and be enabled.
    /// - Parameters:
    ///   - keyset: the keyset.
    ///   - typeURLs: the key types this primitive accepts (one or two; a list is cheaper than hashing).
    ///   - make: builds the primitive from one key's data.
    /// - Throws: `.invalidKeyset`, `.unsupportedKeyType`, or whatever `make` throws.
    init(keyset: Keyset, typeURLs: [String],
         make: (Keyset.KeyData) throws(KindredCryptoError) -> Primitive) throws(KindredCryptoError) {
        var entries: [Entry] = []
        var primary: Entry?
        for key in keyset.keys where key.status == .enabled {
            guard key.outputPrefixType != .unknown else {
                throw .invalidKeyset(reason: "key \(key.keyID) has an unknown output prefix type")
            }
            guard typeURLs.contains(key.keyData.typeURL) else {
                throw .unsupportedKeyType(typeURL: key.keyData.typeURL)
            }
            let entry = Entry(keyID: key.keyID, prefix: key.outputPrefix, primitive: try make(key.keyData))
            if key.keyID == keyset.primaryKeyID {
                guard primary == nil else { throw .invalidKeyset(reason: "several enabled keys share the primary key id") }
                primary = entry
            }
            entries.append(entry)
        }
        guard !entries.isEmpty else { throw .invalidKeyset(reason: "the keyset has no enabled key") }
        guard let primary else {
            throw .invalidKeyset(reason: keyset.keys.contains { $0.keyID == keyset.primaryKeyID }
                ? "the primary key is not enabled" : "no key has the primary key id")
        }
        self.primary = primary
        self.entries = entries
    }

    /// Tries the candidate keys for a ciphertext in Tink's order until one succeeds.
    /// - Parameters:
    ///   - ciphertext: the full ciphertext, prefix included.
    ///   - attempt: decrypts with one primitive; it gets the ciphertext after the prefix.
    /// - Returns: the first successful result.
    /// - Throws: `.noMatchingKey` when no key matches the prefix and there is no RAW key; when
    ///   keys were tried, the error they all agree on, otherwise `.authenticationFailed`.
    func decrypt<Output>(_ ciphertext: [UInt8],
                         _ attempt: (Primitive, ArraySlice<UInt8>) throws(KindredCryptoError) -> Output) throws(KindredCryptoError) -> Output {
        var failures: [KindredCryptoError] = []
        if ciphertext.count > Self.nonRawPrefixSize {
            let prefix = ciphertext[0..<Self.nonRawPrefixSize]
            for entry in entries where !entry.prefix.isEmpty && entry.prefix[...] == prefix {
                do throws(KindredCryptoError) {
                    return try attempt(entry.primitive, ciphertext[Self.nonRawPrefixSize...])
                } catch {
                    failures.append(error)
                }
            }
        }
        for entry in entries where entry.prefix.isEmpty {
            do throws(KindredCryptoError) {
                return try attempt(entry.primitive, ciphertext[...])
            } catch {
                failures.append(error)
            }
        }
        guard let first = failures.first else { throw .noMatchingKey }
        throw failures.allSatisfy { $0 == first } ? first : .authenticationFailed
    }
}
