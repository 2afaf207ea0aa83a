import Crypto
import Foundation

/// The 32-byte key that seals every row of the scan's store (AES-256-GCM). The caller keeps it
/// (the profile's secure store); `scan.db` alone reveals item ids, never descriptors, dates,
/// matches, decisions or the contact.
public struct ScanStoreKey: Sendable {
    let key: SymmetricKey

    /// A key from its 32 bytes.
    /// - Throws: `ScanError.invalidKey` for any other length.
    public init(bytes: [UInt8]) throws(EraserKitError) {
        guard bytes.count == 32 else { throw .scan(.invalidKey(bytes.count)) }
        key = SymmetricKey(data: bytes)
    }

    /// A key from a swift-crypto key.
    /// - Throws: `ScanError.invalidKey` unless it is 256 bits.
    public init(_ key: SymmetricKey) throws(EraserKitError) {
        guard key.bitCount == 256 else { throw .scan(.invalidKey(key.bitCount / 8)) }
        self.key = key
    }

    /// Seals `plaintext` bound to `associatedData` (nonce ‖ ciphertext ‖ tag).
    func seal(_ plaintext: [UInt8], associatedData: [UInt8]) throws(EraserKitError) -> [UInt8] {
        do {
            guard let combined = try AES.GCM.seal(plaintext, using: key, authenticating: associatedData).combined else {
                throw EraserKitError.scan(.store("AES-GCM gave no combined box"))
            }
            return Array(combined)
        } catch let error as EraserKitError {
            throw error
        } catch {
            throw .scan(.store("cannot seal a row: \(error)"))
        }
    }

    /// Opens a box sealed by `seal` with the same associated data.
    /// - Throws: `ScanError.sealedRowDoesNotOpen` naming `row`.
    func open(_ sealed: [UInt8], associatedData: [UInt8], row: String) throws(EraserKitError) -> [UInt8] {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return Array(try AES.GCM.open(box, using: key, authenticating: associatedData))
        } catch {
            throw .scan(.sealedRowDoesNotOpen(row))
        }
    }
}
