import Foundation
import CloserAPI
import KindredAPI
import KindredClient
import KindredCrypto

/// One Closer device: the account's session, this device's secure store and pending-key store,
/// and every Closer flow on top of them (pairing, answering, revealing, history, leaving).
///
/// All cryptography happens here, on the device; the server receives only the strings
/// KindredCrypto makes (docs/closer.md, "Device side: CloserKit").
public struct CloserDevice: Sendable {
    /// The signed-in session (tokens in the profile).
    public let session: KindredSession
    /// Where the device and couple secrets live.
    public let secureStore: any SecureStore
    /// The one-time answer keys awaiting reveal.
    public let pending: PendingKeyStore
    /// Argon2id parameters for new wraps and invites (`.closer` in production).
    public let kdfParameters: CloserKDFParameters
    /// The platform this device reports with its public key.
    public let platform: CloserAPI.Components.Schemas.CloserDeviceKeyUpload.PlatformPayload
    /// The couple and device keys this device remembers, and its request count.
    public let cache: CloserCache
    /// The clock (answers and pending rows are stamped with it).
    let now: @Sendable () -> Date

    /// A device from its parts.
    /// - Parameters:
    ///   - session: the account's session for the `closer` app.
    ///   - secureStore: the device's secure store.
    ///   - pending: the pending-key store.
    ///   - platform: what the device key says it runs on (`.ios` in the app; no default, so a
    ///     build for a phone cannot publish its key as Linux's by omission).
    ///   - kdfParameters: Argon2id parameters for wraps and invites this device makes.
    ///   - cache: what the device remembers between requests (a new, empty one by default).
    ///   - now: the clock.
    public init(session: KindredSession, secureStore: any SecureStore, pending: PendingKeyStore,
                platform: CloserAPI.Components.Schemas.CloserDeviceKeyUpload.PlatformPayload,
                kdfParameters: CloserKDFParameters = .closer,
                cache: CloserCache = CloserCache(),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.cache = cache
        self.session = session
        self.secureStore = secureStore
        self.pending = pending
        self.kdfParameters = kdfParameters
        self.platform = platform
        self.now = now
    }

    /// A Linux device whose secrets live in a profile folder: `secure-store.bin` (key file, or
    /// `KINDRED_PROFILE_PASSPHRASE` from `environment`) and `closer-pending.sqlite` (the
    /// `kindred closer` phones).
    /// - Throws: `CloserKitError.secureStore` / `.pendingStore` when they cannot be opened.
    public static func profile(at folder: URL, session: KindredSession, environment: [String: String],
                               kdfParameters: CloserKDFParameters = .closer) throws(CloserKitError) -> CloserDevice {
        do {
            try ProfileDirectory(url: folder).create()
        } catch {
            throw .secureStore(error.description)
        }
        let store = FileSecureStore(profileDirectory: folder, environment: environment)
        let pending = try PendingKeyStore(url: folder.appendingPathComponent(PendingKeyStore.fileName), secureStore: store)
        return CloserDevice(session: session, secureStore: store, pending: pending, platform: .linux, kdfParameters: kdfParameters)
    }

    /// The `X-Kindred-App` header value.
    var app: CloserAPI.Components.Schemas.AppID {
        // The same enumeration in both contracts (a shared component, kept identical by a test).
        CloserAPI.Components.Schemas.AppID(rawValue: session.app.rawValue) ?? .closer
    }

    /// This device's key (made on first use).
    public func deviceKey() throws(CloserKitError) -> DeviceKey {
        try DeviceKey.loadOrCreate(in: secureStore)
    }

    /// The couple's keys on this device. - Throws: `.notPaired` when there are none.
    public func keyring() throws(CloserKitError) -> CoupleKeyring {
        guard let keyring = try CoupleKeyring.load(from: secureStore) else { throw .notPaired }
        return keyring
    }

    /// The signed-in account's id. - Throws: `.client(.notSignedIn)` without a session.
    public func userId() async throws(CloserKitError) -> String {
        do throws(KindredClientError) {
            guard let stored = try await session.storedSession() else { throw .notSignedIn }
            return stored.userID
        } catch {
            throw .client(error)
        }
    }
}
