/// Why the access-token signing keys cannot be loaded, sealed, rotated or retired.
///
/// Start-up (`kindred serve`) and `kindred keys` print `description` as their one-line error.
public enum SigningKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The configured key-encryption key is unusable (not base64 of 32 bytes, unreadable file).
    case invalidKeyEncryptionKey(String)
    /// Production mode without a key-encryption key: the signing keys would sit in the
    /// database in plaintext.
    case keyEncryptionKeyRequired
    /// The stored keys are sealed, but no key-encryption key is configured.
    case keysAreSealed(fingerprint: String)
    /// The stored keys were sealed under another key-encryption key than the configured one.
    case wrongKeyEncryptionKey(stored: String, configured: String)
    /// A sealed key did not open (its row was altered or copied onto another id).
    case cannotOpen(keyID: String)
    /// AES-GCM or the random source failed while sealing.
    case sealingFailed
    /// No key is active (every stored key was retired or the table was edited by hand).
    case noActiveKey
    /// No key has this id.
    case unknownKey(String)
    /// The active key signs new tokens; rotate first, then retire it.
    case cannotRetireActive(String)
    /// The key was retired already.
    case alreadyRetired(String)
    /// `kindred keys reseal` needs the new key-encryption key (`KINDRED_KEY_ENCRYPTION_KEY`).
    case resealNeedsKeyEncryptionKey
    /// The previous key-encryption key is the configured one: there is nothing to change to.
    case previousKeyEncryptionKeyIsCurrent

    public var description: String {
        switch self {
        case .invalidKeyEncryptionKey(let why):
            "the key-encryption key (KINDRED_KEY_ENCRYPTION_KEY or KINDRED_KEY_ENCRYPTION_KEY_FILE) is invalid: \(why)"
        case .keyEncryptionKeyRequired:
            "mode is production but no key-encryption key is set: set KINDRED_KEY_ENCRYPTION_KEY (openssl rand -base64 32) or KINDRED_KEY_ENCRYPTION_KEY_FILE"
        case .keysAreSealed(let fingerprint):
            "the signing keys are sealed under key-encryption key \(fingerprint), and no key-encryption key is set (KINDRED_KEY_ENCRYPTION_KEY or KINDRED_KEY_ENCRYPTION_KEY_FILE)"
        case .wrongKeyEncryptionKey(let stored, let configured):
            "the signing keys are sealed under key-encryption key \(stored), not the configured one (\(configured))"
        case .cannotOpen(let id):
            "signing key \(id) does not open under the key-encryption key: its row was altered"
        case .sealingFailed:
            "a signing key could not be sealed"
        case .noActiveKey:
            "no signing key is active; run kindred keys rotate"
        case .unknownKey(let id):
            "no signing key \(id)"
        case .cannotRetireActive(let id):
            "signing key \(id) is the active key; rotate first (kindred keys rotate), then retire it"
        case .alreadyRetired(let id):
            "signing key \(id) is retired already"
        case .resealNeedsKeyEncryptionKey:
            "re-sealing needs the new key-encryption key in KINDRED_KEY_ENCRYPTION_KEY or KINDRED_KEY_ENCRYPTION_KEY_FILE (and the old one in KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY or …_FILE)"
        case .previousKeyEncryptionKeyIsCurrent:
            "the previous key-encryption key (KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY) is the configured one; set the new key in KINDRED_KEY_ENCRYPTION_KEY"
        }
    }
}
