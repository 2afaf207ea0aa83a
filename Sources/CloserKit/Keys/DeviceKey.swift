import Foundation
import KindredClient
import KindredCrypto

/// This device's ECIES P-256 key pair (Tink `ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM`), kept in
/// the secure store and published as `pub:v1:` so the partner (and the user's other devices)
/// can release one-time answer keys to it. One per device, never copied between devices.
public struct DeviceKey: Sendable {
    /// The device's id: 32 lower-case hex characters, random, made with the key.
    public let deviceId: String
    /// The private keyset (binary Tink); never leaves the device.
    let privateKeyset: Keyset
    /// The published form of the public key (`pub:v1:`).
    public let publicKey: String
    /// The hybrid decrypter, made once.
    public let decrypter: TinkHybridDecrypt

    /// A key from its parts. - Throws: `CloserKitError.crypto` for an unusable keyset.
    init(deviceId: String, privateKeyset: Keyset) throws(CloserKitError) {
        self.deviceId = deviceId
        self.privateKeyset = privateKeyset
        do {
            publicKey = try CloserPublicKey.encode(privateKeyset.publicKeyset())
            decrypter = try TinkHybridDecrypt(privateKeyset: privateKeyset)
        } catch {
            throw .crypto(error)
        }
    }

    /// The device key in `store`, created (and stored) on first use.
    /// - Throws: `CloserKitError.secureStore` when the store fails; `.crypto` for a damaged key.
    public static func loadOrCreate(in store: any SecureStore) throws(CloserKitError) -> DeviceKey {
        if let existing = try load(from: store) { return existing }
        let key = try DeviceKey(deviceId: Hex.encode(SecureRandom.bytes(16)), privateKeyset: .generateECIESP256())
        let entry = Array(key.deviceId.utf8) + [0x0a] + key.privateKeyset.serialized()
        try secureStoreCall { () throws(SecureStoreError) in try store.write(.deviceKey, entry) }
        return key
    }

    /// The device key in `store`, or `nil` when none was made yet.
    /// - Throws: `CloserKitError.secureStore` / `.crypto` for a damaged entry.
    public static func load(from store: any SecureStore) throws(CloserKitError) -> DeviceKey? {
        guard let bytes = try secureStoreCall({ () throws(SecureStoreError) in try store.read(.deviceKey) }) else { return nil }
        guard let newline = bytes.firstIndex(of: 0x0a), newline == 32 else { throw .secureStore("the device key entry is malformed") }
        let keyset: Keyset
        do {
            keyset = try Keyset(serialized: Array(bytes[(newline + 1)...]))
        } catch {
            throw .crypto(error)
        }
        return try DeviceKey(deviceId: String(decoding: bytes[..<newline], as: UTF8.self), privateKeyset: keyset)
    }
}
