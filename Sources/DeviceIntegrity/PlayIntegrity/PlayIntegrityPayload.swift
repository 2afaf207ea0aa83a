import Foundation

/// The decoded payload of a Play Integrity verdict token
/// (https://developer.android.com/google/play/integrity/verdicts).
public struct PlayIntegrityPayload: Sendable, Hashable, Decodable {
    /// `requestDetails`: what the app asked for.
    public var requestDetails: RequestDetails
    /// `appIntegrity`: whether Play recognizes the binary.
    public var appIntegrity: AppIntegrity
    /// `deviceIntegrity`: the device labels.
    public var deviceIntegrity: DeviceIntegrityDetails
    /// `accountDetails`: the licensing verdict.
    public var accountDetails: AccountDetails

    /// `requestDetails`.
    public struct RequestDetails: Sendable, Hashable, Decodable {
        /// The package that requested the token.
        public var requestPackageName: String
        /// Milliseconds since 1970 when the token was made (a JSON string or number).
        public var timestampMillis: Int64
        /// The classic request's nonce.
        public var nonce: String?
        /// The standard request's request hash.
        public var requestHash: String?

        private enum CodingKeys: String, CodingKey { case requestPackageName, timestampMillis, nonce, requestHash }

        /// Decodes the fields, accepting `timestampMillis` as a string or a number.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            requestPackageName = try container.decode(String.self, forKey: .requestPackageName)
            if let number = try? container.decode(Int64.self, forKey: .timestampMillis) {
                timestampMillis = number
            } else if let number = Int64(try container.decode(String.self, forKey: .timestampMillis)) {
                timestampMillis = number
            } else {
                throw DecodingError.dataCorruptedError(
                    forKey: .timestampMillis, in: container, debugDescription: "timestampMillis is not an integer")
            }
            nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
            requestHash = try container.decodeIfPresent(String.self, forKey: .requestHash)
        }
    }

    /// `appIntegrity`.
    public struct AppIntegrity: Sendable, Hashable, Decodable {
        /// `PLAY_RECOGNIZED`, `UNRECOGNIZED_VERSION` or `UNEVALUATED`.
        public var appRecognitionVerdict: String
    }

    /// `deviceIntegrity`.
    public struct DeviceIntegrityDetails: Sendable, Hashable, Decodable {
        /// Labels such as `MEETS_DEVICE_INTEGRITY`; absent when the device meets none.
        public var deviceRecognitionVerdict: [String]?
    }

    /// `accountDetails`.
    public struct AccountDetails: Sendable, Hashable, Decodable {
        /// `LICENSED`, `UNLICENSED` or `UNEVALUATED`.
        public var appLicensingVerdict: String
    }
}
