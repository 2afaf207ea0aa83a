import Foundation
import KindredClient
import KindredCrypto
import SoulMateAPI

/// One SoulMate phone: the account's session, this installation, the secure store (identity
/// key, pair-key cache, local-store key) and the local-first message store, with every SoulMate
/// flow on top of them (docs/soulmate.md, "Device side").
///
/// All cryptography happens here: the server receives envelopes and sealed locations only.
public struct SoulMateDevice: Sendable {
    /// The signed-in session (tokens in the profile).
    public let session: KindredSession
    /// Where the identity key, the pair-key cache and the local store's key live.
    public let secureStore: any SecureStore
    /// The messages, on this phone only (encrypted at rest).
    public let store: LocalMessageStore
    /// This installation as the session lock names it.
    public let installation: Installation
    /// The clock.
    let now: @Sendable () -> Date

    /// An installation of the app: the session lock's holder.
    public struct Installation: Codable, Equatable, Sendable {
        /// A random id made once per installation.
        public var id: String
        /// `ios`, `android`, `linux`, …
        public var platform: String
        /// A name the person recognises ("Ayşe's iPhone").
        public var deviceName: String
        /// The app's version.
        public var appVersion: String

        /// An installation.
        public init(id: String, platform: String, deviceName: String, appVersion: String) {
            self.id = id
            self.platform = platform
            self.deviceName = deviceName
            self.appVersion = appVersion
        }
    }

    /// A device from its parts.
    public init(
        session: KindredSession, secureStore: any SecureStore, store: LocalMessageStore, installation: Installation,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.session = session
        self.secureStore = secureStore
        self.store = store
        self.installation = installation
        self.now = now
    }

    /// A Linux phone in a profile folder (the `kindred chat` phones): the secure store
    /// `secure-store.bin` (key file, or `KINDRED_PROFILE_PASSPHRASE`), the message store
    /// `local_messages.sqlite` under a key kept in the secure store, and an installation id
    /// made on first use.
    /// - Throws: `.secureStore` / `.storeOpen` when they cannot be opened.
    public static func profile(
        at folder: URL, session: KindredSession, environment: [String: String], deviceName: String? = nil
    ) throws(SoulMateKitError) -> SoulMateDevice {
        do {
            try ProfileDirectory(url: folder).create()
        } catch {
            throw .secureStore(SecureStoreError(error.description))
        }
        let secure = FileSecureStore(profileDirectory: folder, environment: environment)
        let key = try Self.localStoreKey(in: secure)
        let store = try LocalMessageStore(path: folder.appendingPathComponent(LocalMessageStore.fileName).path, keyBytes: key)
        let installation = try Self.installation(
            in: secure,
            making: Installation(
                id: UUID().uuidString.lowercased(), platform: "linux",
                deviceName: deviceName ?? ProcessInfo.processInfo.hostName, appVersion: "kindred-cli"
            )
        )
        return SoulMateDevice(session: session, secureStore: secure, store: store, installation: installation)
    }

    /// The signed-in account's id. - Throws: `.client(.notSignedIn)` without a session.
    public func userID() async throws(SoulMateKitError) -> String {
        do throws(KindredClientError) {
            guard let stored = try await session.storedSession() else { throw .notSignedIn }
            return stored.userID
        } catch {
            throw .client(error)
        }
    }
}

/// The secure store's SoulMate items.
extension SecureStoreItem {
    /// This user's X25519 identity private key (32 raw bytes).
    static let soulmateIdentity = SecureStoreItem("soulmate.identity")
    /// The version the server gave this identity key (decimal text).
    static let soulmateKeyVersion = SecureStoreItem("soulmate.key-version")
    /// The key the local message store encrypts payloads with (32 bytes).
    static let soulmateLocalStoreKey = SecureStoreItem("soulmate.local-store-key")
    /// This installation (JSON).
    static let soulmateInstallation = SecureStoreItem("soulmate.installation")
    /// The pair as this phone last saw it (JSON `PairState`).
    static let soulmatePair = SecureStoreItem("soulmate.pair")

    /// The seed's per-partner key cache: `crypto.shared.<partnerUID>` (32 bytes).
    static func sharedKey(_ partnerID: String) throws(SoulMateKitError) -> SecureStoreItem {
        do { return try SecureStoreItem(validating: "crypto.shared.\(partnerID)") } catch { throw .secureStore(error) }
    }

    /// Which keys the cached pair key was derived from (JSON `SharedKeyVersions`).
    static func sharedKeyVersions(_ partnerID: String) throws(SoulMateKitError) -> SecureStoreItem {
        do { return try SecureStoreItem(validating: "soulmate.shared-versions.\(partnerID)") } catch { throw .secureStore(error) }
    }
}

extension SoulMateDevice {
    /// Runs a secure-store call, mapping its error.
    static func secure<T>(_ body: () throws(SecureStoreError) -> T) throws(SoulMateKitError) -> T {
        do { return try body() } catch { throw .secureStore(error) }
    }

    func secure<T>(_ body: () throws(SecureStoreError) -> T) throws(SoulMateKitError) -> T {
        try Self.secure(body)
    }

    /// The local store's key, made on first use.
    static func localStoreKey(in store: any SecureStore) throws(SoulMateKitError) -> [UInt8] {
        if let key = try secure({ () throws(SecureStoreError) in try store.read(.soulmateLocalStoreKey) }), key.count == 32 { return key }
        let key = LocalMessageStore.generateKey()
        try secure { () throws(SecureStoreError) in try store.write(.soulmateLocalStoreKey, key) }
        return key
    }

    /// The stored installation, or `making` stored as it.
    static func installation(in store: any SecureStore, making fresh: Installation) throws(SoulMateKitError) -> Installation {
        if let bytes = try secure({ () throws(SecureStoreError) in try store.read(.soulmateInstallation) }),
           let stored = try? JSONDecoder().decode(Installation.self, from: Data(bytes))
        {
            return stored
        }
        let bytes = [UInt8]((try? JSONEncoder().encode(fresh)) ?? Data())
        try secure { () throws(SecureStoreError) in try store.write(.soulmateInstallation, bytes) }
        return fresh
    }

    /// Reads a JSON item.
    func readJSON<T: Decodable>(_ type: T.Type, _ item: SecureStoreItem) throws(SoulMateKitError) -> T? {
        guard let bytes = try secure({ () throws(SecureStoreError) in try secureStore.read(item) }) else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(bytes))
    }

    /// Writes a JSON item.
    func writeJSON(_ value: some Encodable, _ item: SecureStoreItem) throws(SoulMateKitError) {
        guard let data = try? JSONEncoder().encode(value) else { throw .invalidInput("cannot encode \(item)") }
        try secure { () throws(SecureStoreError) in try secureStore.write(item, [UInt8](data)) }
    }

    /// Removes an item.
    func remove(_ item: SecureStoreItem) throws(SoulMateKitError) {
        try secure { () throws(SecureStoreError) in try secureStore.remove(item) }
    }
}
