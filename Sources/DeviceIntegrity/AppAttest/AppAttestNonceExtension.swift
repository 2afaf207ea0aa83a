import SwiftASN1
import X509

/// The App Attest nonce extension, OID 1.2.840.113635.100.8.2: `SEQUENCE { [1] EXPLICIT OCTET STRING }`
/// (https://developer.apple.com/documentation/devicecheck/validating-apps-that-connect-to-your-server, step 4).
enum AppAttestNonceExtension {
    /// The extension's object identifier.
    static let oid: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 2]

    /// The nonce bytes in `certificate`'s extension.
    /// - Throws: `DeviceIntegrityError.malformedObject` when the extension is absent or malformed.
    static func nonce(in certificate: Certificate) throws(DeviceIntegrityError) -> [UInt8] {
        guard let ext = certificate.extensions[oid: oid] else {
            throw .malformedObject("leaf certificate has no App Attest nonce extension")
        }
        do {
            let root = try DER.parse(ext.value)
            return try DER.sequence(root, identifier: .sequence) { nodes in
                try DER.explicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { node in
                    Array(try ASN1OctetString(derEncoded: node).bytes)
                }
            }
        } catch {
            throw .malformedObject("App Attest nonce extension: \(error)")
        }
    }

}
