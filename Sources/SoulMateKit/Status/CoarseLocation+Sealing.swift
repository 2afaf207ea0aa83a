import Crypto
import Foundation
import KindredCrypto

/// A coarse location sealed end to end with the pair key, for the relay to hold and the partner
/// to open. Spec: docs/soulmate-device.md, "Location".
///
/// ```
/// plaintext = UTF-8 JSON {"at":<unix seconds>,"lat":<±d.dd>,"lon":<±d.dd>}   (keys sorted, no spaces)
/// sealed    = Base64-standard( nonce(12) ‖ AES-256-GCM(pairKey, nonce, plaintext, aad = "soulmate-location-v1") ‖ tag(16) )
/// ```
extension CoarseLocation {
    /// The associated data that separates locations from chat envelopes under the same key.
    public static let associatedData = "soulmate-location-v1"
    /// The longest sealed location accepted (the relay's limit), in Base64 characters.
    public static let maximumSealedLength = 1024

    /// The plaintext JSON: `{"at":1700000000,"lat":41.01,"lon":-0.50}`, two decimals always.
    public var json: String {
        "{\"at\":\(Int64(at.timeIntervalSince1970)),\"lat\":\(Self.degrees(latitudeHundredths)),\"lon\":\(Self.degrees(longitudeHundredths))}"
    }

    /// Seals this location with the pair key.
    /// - Parameter key: the pair key (`SoulMateChatKey`; its `keyBytes` are the AES-256 key).
    /// - Returns: standard Base64 of nonce ‖ ciphertext ‖ tag.
    /// - Throws: `SoulMateKitError.crypto(.authenticationFailed)` if AES-GCM fails.
    public func seal(with key: SoulMateChatKey) throws(SoulMateKitError) -> String {
        do {
            let box = try AES.GCM.seal(Array(json.utf8), using: SymmetricKey(data: key.keyBytes),
                                       authenticating: Array(Self.associatedData.utf8))
            guard let combined = box.combined else { throw KindredCryptoError.authenticationFailed }
            return Base64.encode(Array(combined), alphabet: .standard)
        } catch {
            throw .crypto(.authenticationFailed)
        }
    }

    /// Opens a sealed location from the partner.
    /// - Parameters:
    ///   - sealed: standard Base64 of nonce ‖ ciphertext ‖ tag.
    ///   - key: the pair key.
    /// - Returns: the location (re-rounded to the grid).
    /// - Throws: `.crypto(.tooLong / .malformed / .truncated)` for a bad string,
    ///   `.crypto(.authenticationFailed)` for another key or a modified value, `.invalidLocation`
    ///   for a plaintext that is not a location.
    public static func open(_ sealed: String, with key: SoulMateChatKey) throws(SoulMateKitError) -> CoarseLocation {
        let format = "soulmate-location"
        guard sealed.utf8.count <= maximumSealedLength else { throw .crypto(.tooLong(format: format, limit: maximumSealedLength)) }
        let bytes: [UInt8]
        do throws(KindredCryptoError) {
            bytes = try Base64.decode(sealed, alphabet: .standard, format: format)
        } catch {
            throw .crypto(error)
        }
        guard bytes.count >= 12 + 16 else { throw .crypto(.truncated(format: format)) }
        let plaintext: Data
        do {
            let box = try AES.GCM.SealedBox(combined: bytes)
            plaintext = try AES.GCM.open(box, using: SymmetricKey(data: key.keyBytes), authenticating: Array(associatedData.utf8))
        } catch {
            throw .crypto(.authenticationFailed)
        }
        struct Wire: Decodable {
            let lat: Double
            let lon: Double
            let at: Int64
        }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: plaintext)
        } catch {
            throw .invalidLocation("the sealed location is not {\"at\",\"lat\",\"lon\"} JSON")
        }
        return try CoarseLocation(latitude: wire.lat, longitude: wire.lon, at: Date(timeIntervalSince1970: Double(wire.at)))
    }

    /// Hundredths of a degree as `±d.dd`.
    static func degrees(_ hundredths: Int) -> String {
        let magnitude = hundredths.magnitude
        let fraction = magnitude % 100
        return (hundredths < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
