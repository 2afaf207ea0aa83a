import Configuration
import KindredServerCore

extension ServerSettings {
    /// `mode` (`KINDRED_MODE`: `development`, the default, or `production`), the key-encryption
    /// key of the signing keys (`keyEncryptionKey` → `KINDRED_KEY_ENCRYPTION_KEY`, base64 of 32
    /// bytes, a secret; or `keyEncryptionKeyFile` → `KINDRED_KEY_ENCRYPTION_KEY_FILE`, a file
    /// holding it), and `auth.signingKeyRefreshSeconds` (30): how often replicas re-read the keys.
    /// Production mode without a key-encryption key is refused when the server starts
    /// (`SigningKeyError.keyEncryptionKeyRequired`). While the key-encryption key is being
    /// changed, `previousKeyEncryptionKey` / `previousKeyEncryptionKeyFile`
    /// (`KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY` / `…_FILE`) names the old one.
    static func resolveSigningKeys(_ config: ConfigReader) throws -> SigningKeySettings {
        var settings = SigningKeySettings()
        let mode = config.string(forKey: "mode", default: "development").lowercased()
        switch mode {
        case "development": settings.requireKeyEncryptionKey = false
        case "production": settings.requireKeyEncryptionKey = true
        default: throw Invalid(description: "mode must be development or production, not \(mode.prefix(20))")
        }
        settings.keyEncryptionKey = try key(config, "keyEncryptionKey")
        settings.previousKeyEncryptionKey = try key(config, "previousKeyEncryptionKey")
        if settings.previousKeyEncryptionKey != nil {
            guard let current = settings.keyEncryptionKey else {
                throw Invalid(description: "previousKeyEncryptionKey is set without keyEncryptionKey: set the new key in KINDRED_KEY_ENCRYPTION_KEY")
            }
            guard current.fingerprint != settings.previousKeyEncryptionKey?.fingerprint else {
                throw Invalid(description: SigningKeyError.previousKeyEncryptionKeyIsCurrent.description)
            }
        }
        let refresh = config.int(forKey: ConfigKey(["auth", "signingKeyRefreshSeconds"]), default: 30)
        guard (1...3600).contains(refresh) else {
            throw Invalid(description: "auth.signingKeyRefreshSeconds must be 1 to 3600, not \(refresh)")
        }
        settings.refreshInterval = .seconds(refresh)
        return settings
    }

    /// A key-encryption key from `name` (a secret: base64 of 32 bytes) or `name`File (a file
    /// holding it), or nil when neither is set.
    private static func key(_ config: ConfigReader, _ name: String) throws -> KeyEncryptionKey? {
        let text = config.string(forKey: ConfigKey(name), isSecret: true).flatMap { $0.isEmpty ? nil : $0 }
        let file = config.string(forKey: ConfigKey(name + "File")).flatMap { $0.isEmpty ? nil : $0 }
        do {
            switch (text, file) {
            case (.some, .some):
                throw Invalid(description: "set \(name) or \(name)File, not both")
            case (.some(let text), nil):
                return try KeyEncryptionKey(base64: text)
            case (nil, .some(let path)):
                return try KeyEncryptionKey(contentsOfFile: path)
            case (nil, nil):
                return nil
            }
        } catch let error as SigningKeyError {
            guard name != "keyEncryptionKey", case .invalidKeyEncryptionKey(let why) = error else {
                throw Invalid(description: error.description)
            }
            throw Invalid(
                description: "the previous key-encryption key (KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY or KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY_FILE) is invalid: \(why)"
            )
        }
    }
}
