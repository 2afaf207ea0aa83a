#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Crypto
import Foundation
import KindredCrypto
import Synchronization

/// The Linux secure store: every item in one AES-256-GCM-encrypted file in the profile folder
/// (`secure-store.bin`, mode 0600), replaced atomically on every write.
///
/// The key is either 32 random bytes in a separate key file (`secure-store.key`, mode 0600,
/// refused when others may read it), or — when `KINDRED_PROFILE_PASSPHRASE` is set — derived
/// with Argon2id from the passphrase and a random salt kept in the file's header, so nothing on
/// disk opens the store without the passphrase. Every kit of the device keeps its items in the
/// same file. Layout and threat model: docs/closer.md, "Secure storage".
///
/// One process at a time per profile (a profile is one simulated device).
public final class FileSecureStore: SecureStore {
    /// The encrypted store's file name in the profile folder.
    public static let fileName = "secure-store.bin"
    /// The key file's name in the profile folder (key-file mode only).
    public static let keyFileName = "secure-store.key"
    /// The environment variable that switches the store to a passphrase-derived key.
    public static let passphraseVariable = "KINDRED_PROFILE_PASSPHRASE"

    /// Where the store's key comes from.
    public enum KeySource: Sendable {
        /// 32 random bytes in `secure-store.key`, created with the store.
        case keyFile
        /// Argon2id(passphrase, the header's salt) with these parameters for a new store
        /// (an existing store keeps the parameters in its header).
        case passphrase(String, Argon2id.Parameters)
    }

    /// Argon2id parameters for a new passphrase store: OWASP's minimum (m = 19 MiB, t = 2, p = 1).
    public static let passphraseParameters = Argon2id.Parameters(memoryKiB: 19_456, iterations: 2, parallelism: 1)

    let profile: ProfileDirectory
    let keySource: KeySource
    // Mutex: the decrypted items and the key, cached after the first read, for every task that
    // holds this store; writes replace both under the lock.
    private let state = Mutex<Cache?>(nil)

    private struct Cache {
        var header: StoreHeader
        var key: SymmetricKey
        var items: [String: [UInt8]]
    }

    /// A store in `profileDirectory` whose key comes from `keySource`.
    public init(profileDirectory: URL, keySource: KeySource) {
        profile = ProfileDirectory(url: profileDirectory)
        self.keySource = keySource
    }

    /// A store in `profileDirectory`: passphrase mode when `KINDRED_PROFILE_PASSPHRASE` is set
    /// (and not empty) in `environment`, key-file mode otherwise.
    public convenience init(profileDirectory: URL, environment: [String: String]) {
        if let passphrase = environment[Self.passphraseVariable], !passphrase.isEmpty {
            self.init(profileDirectory: profileDirectory, keySource: .passphrase(passphrase, Self.passphraseParameters))
        } else {
            self.init(profileDirectory: profileDirectory, keySource: .keyFile)
        }
    }

    /// The bytes under `item`, or `nil`.
    /// - Throws: `SecureStoreError` for an unreadable, tampered or wrongly keyed store.
    public func read(_ item: SecureStoreItem) throws(SecureStoreError) -> [UInt8]? {
        try withCache { $0?.items[item.rawValue] }
    }

    /// Stores `bytes` under `item` and rewrites the file.
    /// - Throws: `SecureStoreError` when the store cannot be opened, encrypted or written.
    public func write(_ item: SecureStoreItem, _ bytes: [UInt8]) throws(SecureStoreError) {
        try update { $0[item.rawValue] = bytes }
    }

    /// Removes `item` and rewrites the file.
    /// - Throws: `SecureStoreError` when the store cannot be opened, encrypted or written.
    public func remove(_ item: SecureStoreItem) throws(SecureStoreError) {
        try update { $0.removeValue(forKey: item.rawValue) }
    }

    private func update(_ change: (inout [String: [UInt8]]) -> Void) throws(SecureStoreError) {
        try withCache { (cache: Cache?) throws(SecureStoreError) -> Void in
            var next: Cache
            if let cache { next = cache } else { next = try newCache() }
            change(&next.items)
            let iv = SecureRandom.bytes(12)
            let sealed: AES.GCM.SealedBox
            do {
                sealed = try AES.GCM.seal(StoreEntries.encode(next.items), using: next.key,
                                          nonce: AES.GCM.Nonce(data: iv), authenticating: next.header.bytes)
            } catch {
                throw SecureStoreError("cannot encrypt the store")
            }
            let file = next.header.bytes + iv + Array(sealed.ciphertext) + Array(sealed.tag)
            try storageCall { () throws(KindredClientError) in try profile.write(Self.fileName, Data(file)) }
            state.withLock { $0 = next }
        }
    }

    /// Runs `body` with the cache, loading the file first when nothing is cached.
    private func withCache<T>(_ body: (Cache?) throws(SecureStoreError) -> T) throws(SecureStoreError) -> T {
        if let cached = state.withLock({ $0 }) { return try body(cached) }
        let loaded = try load()
        if let loaded { state.withLock { $0 = loaded } }
        return try body(loaded)
    }

    private func load() throws(SecureStoreError) -> Cache? {
        guard let data = try storageCall({ () throws(KindredClientError) in try profile.read(Self.fileName) }) else { return nil }
        let bytes = [UInt8](data)
        let header = try StoreHeader(parsing: bytes, path: path(Self.fileName))
        let key = try key(for: header)
        let body = bytes[header.bytes.count...]
        guard body.count >= 12 + 16 else { throw SecureStoreError("\(path(Self.fileName)) is truncated") }
        let iv = body.prefix(12), tag = body.suffix(16), ciphertext = body.dropFirst(12).dropLast(16)
        let plaintext: Data
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: ciphertext, tag: tag)
            plaintext = try AES.GCM.open(box, using: key, authenticating: header.bytes)
        } catch {
            let hint = header.usesPassphrase ? "wrong \(Self.passphraseVariable)" : "the key file does not match"
            throw SecureStoreError("cannot decrypt \(path(Self.fileName)) (\(hint), or the file was modified)")
        }
        return Cache(header: header, key: key, items: try StoreEntries.decode([UInt8](plaintext)))
    }

    private func newCache() throws(SecureStoreError) -> Cache {
        let header: StoreHeader
        switch keySource {
        case .keyFile: header = .keyFile
        case .passphrase(_, let parameters): header = .passphrase(salt: SecureRandom.bytes(16), parameters: parameters)
        }
        return Cache(header: header, key: try key(for: header, creating: true), items: [:])
    }

    private func key(for header: StoreHeader, creating: Bool = false) throws(SecureStoreError) -> SymmetricKey {
        switch (header, keySource) {
        case (.keyFile, .keyFile):
            return SymmetricKey(data: try keyFileBytes(creating: creating))
        case (.passphrase(let salt, let parameters), .passphrase(let passphrase, _)):
            do {
                return SymmetricKey(data: try Argon2id.hash(password: Array(passphrase.utf8), salt: salt, parameters: parameters))
            } catch {
                throw SecureStoreError("cannot derive the store key: \(error)")
            }
        case (.keyFile, .passphrase):
            throw SecureStoreError("\(path(Self.fileName)) is protected by a key file; unset \(Self.passphraseVariable)")
        case (.passphrase, .keyFile):
            throw SecureStoreError("\(path(Self.fileName)) is protected by a passphrase; set \(Self.passphraseVariable)")
        }
    }

    private func keyFileBytes(creating: Bool) throws(SecureStoreError) -> [UInt8] {
        let keyPath = path(Self.keyFileName)
        var status = stat()
        if stat(keyPath, &status) == 0 {
            guard status.st_mode & 0o077 == 0 else {
                throw SecureStoreError("\(keyPath) may be read by others (mode \(String(status.st_mode & 0o777, radix: 8))); chmod 600 it")
            }
        }
        if let data = try storageCall({ () throws(KindredClientError) in try profile.read(Self.keyFileName) }) {
            guard data.count == 32 else { throw SecureStoreError("\(keyPath) is not a 32-byte key") }
            return [UInt8](data)
        }
        guard creating else { throw SecureStoreError("\(keyPath) is missing: the store cannot be opened without it") }
        let key = SecureRandom.bytes(32)
        try storageCall { () throws(KindredClientError) in try profile.write(Self.keyFileName, Data(key)) }
        return key
    }

    private func path(_ name: String) -> String { profile.url.appendingPathComponent(name).path }

    /// Runs a profile-folder call, reporting its failure as a `SecureStoreError` with the same reason.
    private func storageCall<T>(_ body: () throws(KindredClientError) -> T) throws(SecureStoreError) -> T {
        do {
            return try body()
        } catch {
            // ProfileDirectory throws `.storage` only; its reason names the file and the C library's reason.
            guard case .storage(let reason) = error else { throw SecureStoreError(error.description) }
            throw SecureStoreError(reason)
        }
    }
}
