import KindredCrypto

/// The device side of pairing, without the network: what the inviter uploads, what the acceptor
/// proves and unwraps, recovery with the phrase, and changing the phrase. Every wire string is
/// KindredCrypto's (docs/wire-formats.md, "Couple-key wrap" and "Invite transport").
public enum Pairing {
    /// Everything an inviter makes for one invite code.
    public struct PreparedInvite: Sendable {
        /// The couple's secrets (stored on the inviter's device).
        public let keyring: CoupleKeyring
        /// The keyset wrapped by the phrase (`wrappedCoupleKey`, `kdfSalt`, `kdfParams`).
        public let wrapped: WrappedCoupleKey
        /// The invite transport: `encryptedPhrase`, `verifier`, the invite's own salt and parameters,
        /// and the secret that never leaves the device.
        public let transport: InviteTransport.Creation
        /// What the inviter shares: `CODE-XXXXX-XXXXX-XXXC`.
        public let share: InviteShare
    }

    /// Prepares an invite for `code`: wraps the couple keyset with its phrase and encrypts the
    /// phrase for the invite transport.
    /// - Parameters:
    ///   - code: the six-character code (the server's, or one proposed to it).
    ///   - keyring: the couple (a new one for a first invite).
    ///   - parameters: Argon2id parameters for both the wrap and the invite (`.closer` in production).
    /// - Throws: `CloserKitError.crypto` for a bad code or parameters.
    public static func prepareInvite(code: String, keyring: CoupleKeyring, parameters: CloserKDFParameters = .closer)
        throws(CloserKitError) -> PreparedInvite {
        do {
            let wrapped = try keyring.wrapped(parameters: parameters)
            let transport = try InviteTransport.create(phrase: keyring.phrase, code: code, parameters: parameters)
            let share = try InviteShare(code: code, secret: transport.secret)
            return PreparedInvite(keyring: keyring, wrapped: wrapped, transport: transport, share: share)
        } catch let error as CloserKitError {
            throw error
        } catch {
            throw .crypto(error as? KindredCryptoError ?? .invalidParameters("\(error)"))
        }
    }

    /// Reads a share string as the acceptor typed it.
    /// - Throws: `CloserKitError.crypto(.malformed…)` naming the position of a bad character.
    public static func parseShare(_ text: String) throws(CloserKitError) -> InviteShare {
        do {
            return try InviteShare(parsing: text)
        } catch {
            throw .crypto(error)
        }
    }

    /// The acceptor's keys for an invite, from the share and the invite's public salt and parameters.
    /// `keys.verifier` goes with the accept request.
    public static func inviteKeys(share: InviteShare, kdfSalt: String, kdfParams: String) throws(CloserKitError) -> InviteKeys {
        do {
            return try InviteKeys(secret: share.secret, code: share.code, kdfSalt: kdfSalt, kdfParams: kdfParams)
        } catch {
            throw .crypto(error)
        }
    }

    /// After a successful accept: decrypts the phrase with the invite keys and unwraps the keyset.
    /// - Throws: `.crypto(.wrongInviteSecret)` when the blob does not open, `.crypto(.wrongPhrase)`
    ///   when the phrase does not unwrap the keyset.
    public static func completeAcceptance(keys: InviteKeys, encryptedPhrase: String, wrapped: WrappedCoupleKey)
        throws(CloserKitError) -> CoupleKeyring {
        let phrase: RecoveryPhrase
        do {
            phrase = try keys.decryptPhrase(encryptedPhrase)
        } catch {
            throw .crypto(error)
        }
        return try CoupleKeyring.unwrap(wrapped, phrase: phrase)
    }

    /// Recovers the couple on a new device from the phrase the user typed.
    /// - Throws: `.crypto(.invalidPhrase…)` for a phrase not from the word list, `.crypto(.wrongPhrase)`.
    public static func recover(phrase text: String, wrapped: WrappedCoupleKey) throws(CloserKitError) -> CoupleKeyring {
        let phrase: RecoveryPhrase
        do {
            phrase = try RecoveryPhrase(parsing: text)
        } catch {
            throw .crypto(error)
        }
        return try CoupleKeyring.unwrap(wrapped, phrase: phrase)
    }

    /// A new phrase for the same keyset, and the re-wrapped key to upload.
    /// - Parameters:
    ///   - keyring: the couple as this device holds it.
    ///   - parameters: Argon2id parameters of the new wrap.
    /// - Returns: the keyring with the new phrase and its wrap.
    public static func changePhrase(_ keyring: CoupleKeyring, parameters: CloserKDFParameters = .closer)
        throws(CloserKitError) -> (keyring: CoupleKeyring, wrapped: WrappedCoupleKey) {
        let next = try keyring.withPhrase(.generate())
        return (next, try next.wrapped(parameters: parameters))
    }
}
