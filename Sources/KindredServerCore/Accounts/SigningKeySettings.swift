/// How the access-token signing keys are protected at rest and how often replicas re-read them.
///
/// `keyEncryptionKey` comes from `KINDRED_KEY_ENCRYPTION_KEY` or `KINDRED_KEY_ENCRYPTION_KEY_FILE`
/// (`keyEncryptionKey`, `keyEncryptionKeyFile`), never from the database. Without one the keys
/// are stored in plaintext: allowed in development mode (with a warning at start), refused in
/// production mode (`requireKeyEncryptionKey`, `mode: production`).
public struct SigningKeySettings: Sendable {
    /// The key that seals the signing keys; nil: they are stored in plaintext.
    public var keyEncryptionKey: KeyEncryptionKey?
    /// The key-encryption key being replaced (`KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY` or
    /// `…_FILE`), set only while a change of key-encryption key is under way: keys still sealed
    /// under it open, and `kindred keys reseal` seals them again under `keyEncryptionKey`.
    /// New keys are always sealed under `keyEncryptionKey`.
    public var previousKeyEncryptionKey: KeyEncryptionKey?
    /// Whether a missing key-encryption key refuses start (`mode: production`).
    public var requireKeyEncryptionKey = false
    /// How long a replica uses the keys it read before reading them again
    /// (`auth.signingKeyRefreshSeconds`, 30 s): a rotation or retirement made elsewhere
    /// reaches every replica within this time.
    public var refreshInterval: Duration = .seconds(30)
    /// The least time between two extra reads caused by tokens naming a key id this replica does
    /// not know (a key rotated in a moment ago), so forged key ids cannot flood the database.
    public var unknownKeyReloadInterval: Duration = .seconds(1)

    /// The defaults: no key-encryption key, development mode.
    public init() {}
}
