import Configuration
import KindredServerCore

extension ServerSettings {
    /// `mode` (`KINDRED_MODE`: `development`, the default, or `production`), the key-encryption
    /// key of the signing keys (`keyEncryptionKey` → `KINDRED_KEY_ENCRYPTION_KEY`, base64 of 32
    /// bytes, a secret; or `keyEncryptionKeyFile` → `KINDRED_KEY_ENCRYPTION_KEY_FILE`, a file
    /// holding it), and `auth.signingKeyRefreshSeconds` (30): how often replicas re-read the keys.
    /// Production mode without a key-encryption key is refused when the server starts
    /// (`SigningKeyError.keyEncryptionKeyRequired`).
    static func resolveSigningKeys(_ config: ConfigReader) throws -> SigningKeySettings {
        var settings = SigningKeySettings()
        let mode = config.string(forKey: "mode", default: "development").lowercased()
        switch mode {
        case "development": settings.requireKeyEncryptionKey = false
        case "production": settings.requireKeyEncryptionKey = true
        default: throw Invalid(description: "mode must be development or production, not \(mode.prefix(20))")
        }
        let text = config.string(forKey: "keyEncryptionKey", isSecret: true).flatMap { $0.isEmpty ? nil : $0 }
        let file = config.string(forKey: "keyEncryptionKeyFile").flatMap { $0.isEmpty ? nil : $0 }
        do {
            switch (text, file) {
            case (.some, .some):
                throw Invalid(description: "set keyEncryptionKey or keyEncryptionKeyFile, not both")
            case (.some(let text), nil):
                settings.keyEncryptionKey = try KeyEncryptionKey(base64: text)
            case (nil, .some(let path)):
                settings.keyEncryptionKey = try KeyEncryptionKey(contentsOfFile: path)
            case (nil, nil):
                break
            }
        } catch let error as SigningKeyError {
            throw Invalid(description: error.description)
        }
        let refresh = config.int(forKey: ConfigKey(["auth", "signingKeyRefreshSeconds"]), default: 30)
        guard (1...3600).contains(refresh) else {
            throw Invalid(description: "auth.signingKeyRefreshSeconds must be 1 to 3600, not \(refresh)")
        }
        settings.refreshInterval = .seconds(refresh)
        return settings
    }
}
