import Foundation
import KindredClient
import KindredCrypto

/// The couple's secrets on this device: the couple keyset (Tink AES-256-GCM; seals `enc:v1:`
/// fields and commitment seals) and the recovery phrase that wraps it on the server.
public struct CoupleKeyring: Sendable {
    /// The couple keyset; never leaves the device except wrapped by the phrase.
    public let keyset: Keyset
    /// The recovery phrase (`kindred closer phrase show`).
    public let phrase: RecoveryPhrase
    /// The field cipher over `keyset`, made once.
    public let cipher: CloserFieldCipher

    /// A keyring from its parts. - Throws: `CloserKitError.crypto` for an unusable keyset.
    public init(keyset: Keyset, phrase: RecoveryPhrase) throws(CloserKitError) {
        self.keyset = keyset
        self.phrase = phrase
        do {
            cipher = try CloserFieldCipher(coupleKeyset: keyset)
        } catch {
            throw .crypto(error)
        }
    }

    /// A new couple: a fresh keyset and a fresh phrase.
    public static func generate() throws(CloserKitError) -> CoupleKeyring {
        try CoupleKeyring(keyset: .generateAES256GCM(), phrase: .generate())
    }

    /// The same keyset under another phrase.
    public func withPhrase(_ phrase: RecoveryPhrase) throws(CloserKitError) -> CoupleKeyring {
        try CoupleKeyring(keyset: keyset, phrase: phrase)
    }

    /// The keyset wrapped by the phrase, for the server (`wrappedCoupleKey`, `kdfSalt`, `kdfParams`).
    /// - Parameter parameters: Argon2id parameters (`.closer` in production).
    public func wrapped(parameters: CloserKDFParameters = .closer) throws(CloserKitError) -> WrappedCoupleKey {
        do {
            return try WrappedCoupleKey.wrap(keyset, phrase: phrase, parameters: parameters)
        } catch {
            throw .crypto(error)
        }
    }

    /// Unwraps the server's wrapped key with a phrase (accepting an invite, recovering a device).
    /// - Throws: `CloserKitError.crypto(.wrongPhrase)` when the phrase does not open it.
    public static func unwrap(_ wrapped: WrappedCoupleKey, phrase: RecoveryPhrase) throws(CloserKitError) -> CoupleKeyring {
        do {
            return try CoupleKeyring(keyset: wrapped.unwrap(phrase: phrase), phrase: phrase)
        } catch let error as CloserKitError {
            throw error
        } catch {
            throw .crypto(error as? KindredCryptoError ?? .wrongPhrase)
        }
    }

    /// Saves the keyring in `store` (`phrase words ‖ '\n' ‖ keyset`).
    public func save(in store: any SecureStore) throws(CloserKitError) {
        let entry = Array(phrase.normalized.utf8) + [0x0a] + keyset.serialized()
        try secureStoreCall { () throws(SecureStoreError) in try store.write(.couple, entry) }
    }

    /// The keyring in `store`, or `nil` when this device holds none.
    /// - Throws: `CloserKitError.secureStore` / `.crypto` for a damaged entry.
    public static func load(from store: any SecureStore) throws(CloserKitError) -> CoupleKeyring? {
        guard let bytes = try secureStoreCall({ () throws(SecureStoreError) in try store.read(.couple) }) else { return nil }
        guard let newline = bytes.firstIndex(of: 0x0a) else { throw .secureStore("the couple entry is malformed") }
        do {
            let phrase = try RecoveryPhrase(parsing: String(decoding: bytes[..<newline], as: UTF8.self))
            return try CoupleKeyring(keyset: Keyset(serialized: Array(bytes[(newline + 1)...])), phrase: phrase)
        } catch let error as CloserKitError {
            throw error
        } catch {
            throw .crypto(error as? KindredCryptoError ?? .invalidKeyset(reason: "unreadable"))
        }
    }
}
