import Foundation
import CloserAPI
import KindredClient
import KindredCrypto

/// An invite this device created: what the inviter shares.
public struct CreatedInvite: Sendable, Equatable {
    /// The share string `CODE-XXXXX-XXXXX-XXXC` (code and secret; the secret never reaches the server).
    public let share: String
    /// The six-character code.
    public let code: String
    /// When the server forgets the invite.
    public let expiresAt: Date
}

extension CloserDevice {
    /// Publishes this device's `pub:v1:` key (creating the key on first use); repeating it is harmless.
    @discardableResult
    public func publishDeviceKey() async throws(CloserKitError) -> DeviceKey {
        let key = try deviceKey()
        let body = Components.Schemas.CloserDeviceKeyUpload(publicKey: key.publicKey, platform: platform)
        let output = try await call { [app] in
            try await $0.putCloserDeviceKey(path: .init(deviceId: key.deviceId), headers: .init(xKindredApp: app), body: .json(body))
        }
        switch output {
        case .ok, .created: return key
        default: throw Self.failure(output)
        }
    }

    /// Creates an invite: reserves a code, makes a new couple keyset and phrase, wraps the keyset,
    /// encrypts the phrase for the invite transport, keeps the keyring on this device (before
    /// uploading anything), then uploads the material.
    /// - Returns: the share string and the invite's expiry.
    /// - Throws: `CloserKitError.client` (`upgrade_required`, `already_paired`, …), crypto and storage errors.
    public func createInvite() async throws(CloserKitError) -> CreatedInvite {
        try await publishDeviceKey()
        let reserved = try await call { [app] in try await $0.createCloserInvite(headers: .init(xKindredApp: app)) }
        guard case .created(let created) = reserved, case .json(let invite) = created.body else { throw Self.failure(reserved) }
        let prepared = try Pairing.prepareInvite(code: invite.code, keyring: try .generate(), parameters: kdfParameters)
        try prepared.keyring.save(in: secureStore)
        try secureStoreCall { () throws(SecureStoreError) in try secureStore.write(.openInvite, Array(prepared.share.text.utf8)) }
        let material = Components.Schemas.CloserInviteMaterial(
            wrappedCoupleKey: prepared.wrapped.wrappedCoupleKey, kdfSalt: prepared.wrapped.kdfSalt, kdfParams: prepared.wrapped.kdfParams,
            encryptedPhrase: prepared.transport.encryptedPhrase, verifier: prepared.transport.verifier,
            inviteKdfSalt: prepared.transport.kdfSalt, inviteKdfParams: prepared.transport.kdfParams)
        let uploaded = try await call { [app] in
            try await $0.putCloserInviteMaterial(path: .init(code: invite.code), headers: .init(xKindredApp: app), body: .json(material))
        }
        guard case .ok(let ok) = uploaded, case .json(let open) = ok.body else { throw Self.failure(uploaded) }
        return CreatedInvite(share: prepared.share.text, code: open.code, expiresAt: open.expiresAt)
    }

    /// Accepts an invite from its share string: proves the secret with the verifier, receives the
    /// couple and the encrypted phrase, decrypts the phrase and unwraps the couple keyset.
    /// - Returns: the new couple.
    /// - Throws: `CloserKitError.crypto` for a mistyped share, `.client` for the server's refusals
    ///   (`invite_not_found`, `invite_expired`, `invite_used`, `own_invite`, `already_paired`,
    ///   `invite_verifier_mismatch`, `rate_limited`, …).
    @discardableResult
    public func acceptInvite(_ shareText: String) async throws(CloserKitError) -> Components.Schemas.CloserCouple {
        let share = try Pairing.parseShare(shareText)
        try await publishDeviceKey()
        let looked = try await call { [app] in
            try await $0.getCloserInviteParameters(path: .init(code: share.code), headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = looked, case .json(let parameters) = ok.body else { throw Self.failure(looked) }
        guard let salt = parameters.inviteKdfSalt, let params = parameters.inviteKdfParams else {
            throw .invalidServerData("the invite has no encryption parameters (a legacy plaintext invite); this device joins only encrypted couples")
        }
        let keys = try Pairing.inviteKeys(share: share, kdfSalt: salt, kdfParams: params)
        let body = Components.Schemas.CloserAcceptInvite(verifier: keys.verifier)
        let accepted = try await call { [app] in
            try await $0.acceptCloserInvite(path: .init(code: share.code), headers: .init(xKindredApp: app), body: .json(body))
        }
        guard case .created(let created) = accepted, case .json(let answer) = created.body else { throw Self.failure(accepted) }
        guard let encryptedPhrase = answer.encryptedPhrase else { throw .invalidServerData("the accepted invite carries no encrypted phrase") }
        let keyring = try Pairing.completeAcceptance(keys: keys, encryptedPhrase: encryptedPhrase, wrapped: try Self.wrapped(of: answer.couple))
        try keyring.save(in: secureStore)
        cache.couple = answer.couple
        return answer.couple
    }

    /// Recovers the couple on this device with the phrase: unwraps the server's wrapped key,
    /// keeps the keyring and publishes this device's key (answers sealed from now on open here).
    /// - Throws: `.crypto(.invalidPhrase…)`, `.crypto(.wrongPhrase)`, `.noCouple`, client errors.
    public func recover(phrase: String) async throws(CloserKitError) {
        let couple = try await freshCouple()
        let keyring = try Pairing.recover(phrase: phrase, wrapped: try Self.wrapped(of: couple))
        try keyring.save(in: secureStore)
        try secureStoreCall { () throws(SecureStoreError) in try secureStore.remove(.openInvite) }
        try await publishDeviceKey()
    }

    /// The recovery phrase held on this device. - Throws: `.notPaired`.
    public func phrase() throws(CloserKitError) -> RecoveryPhrase {
        try keyring().phrase
    }

    /// The recovery phrase held on this device, checked against the server's wrapped key (one
    /// Argon2id run). - Throws: `.stalePhrase` when it no longer opens it, `.notPaired`, `.noCouple`.
    public func verifiedPhrase() async throws(CloserKitError) -> RecoveryPhrase {
        let phrase = try phrase()
        let wrapped = try Self.wrapped(of: try await freshCouple())
        do {
            _ = try wrapped.unwrap(phrase: phrase)
        } catch .wrongPhrase {
            throw .stalePhrase
        } catch {
            throw .crypto(error)
        }
        return phrase
    }

    /// Replaces the recovery phrase: re-wraps the couple keyset under a new phrase and uploads
    /// the wrap. The new keyring is kept before the upload and the old one put back if the
    /// server refuses, so the phrase this device shows always opens the server's copy.
    /// - Returns: the new phrase.
    public func changePhrase() async throws(CloserKitError) -> RecoveryPhrase {
        let couple = try await couple()
        let old = try keyring()
        let (next, wrapped) = try Pairing.changePhrase(old, parameters: kdfParameters)
        try next.save(in: secureStore)
        let body = Components.Schemas.CloserRecoveryWrap(wrappedCoupleKey: wrapped.wrappedCoupleKey, kdfSalt: wrapped.kdfSalt, kdfParams: wrapped.kdfParams)
        do throws(CloserKitError) {
            let output = try await call { [app] in
                try await $0.putCloserRecoveryWrap(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app), body: .json(body))
            }
            guard case .ok = output else { throw Self.failure(output) }
        } catch {
            try old.save(in: secureStore)
            throw error
        }
        cache.couple = nil  // its wrapped key is the old one
        return next.phrase
    }

    /// The couple's wrapped key as the server holds it.
    static func wrapped(of couple: Components.Schemas.CloserCouple) throws(CloserKitError) -> WrappedCoupleKey {
        guard let key = couple.wrappedCoupleKey, let salt = couple.kdfSalt, let params = couple.kdfParams else {
            throw .invalidServerData("the couple has no wrapped couple key (encryption version 0)")
        }
        return WrappedCoupleKey(wrappedCoupleKey: key, kdfSalt: salt, kdfParams: params)
    }
}
