import Foundation
import X509

/// What an App Attest verifier checks against: the app id, the environment and the trusted root.
public struct AppAttestConfiguration: Sendable {
    /// The App Attest environment, which fixes the AAGUID an attestation must carry.
    public enum Environment: String, Sendable, Hashable, Codable {
        /// Development builds: AAGUID `appattestdevelop`.
        case development
        /// Production builds: AAGUID `appattest` followed by seven zero bytes.
        case production

        /// The 16 AAGUID bytes of this environment.
        public var aaguid: [UInt8] {
            switch self {
            case .development: Array("appattestdevelop".utf8)
            case .production: Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
            }
        }
    }

    /// The Apple developer team id (ten characters).
    public var teamID: String
    /// The app's bundle id.
    public var bundleID: String
    /// The environment the app's builds attest in.
    public var environment: Environment
    /// The trusted root (Apple App Attestation Root CA in production).
    public var rootCertificate: Certificate

    /// The app id, `TEAMID.bundle.id`, whose SHA256 is the relying-party id hash.
    public var appID: String { "\(teamID).\(bundleID)" }

    /// Creates a configuration from a root certificate in PEM.
    /// - Parameters:
    ///   - teamID: the developer team id.
    ///   - bundleID: the bundle id.
    ///   - environment: development or production.
    ///   - rootCertificatePEM: the App Attest root CA, PEM encoded.
    /// - Throws: `DeviceIntegrityError.invalidConfiguration` when the PEM or ids are unusable.
    public init(teamID: String, bundleID: String, environment: Environment, rootCertificatePEM: String) throws(DeviceIntegrityError) {
        guard !teamID.isEmpty, !bundleID.isEmpty else { throw .invalidConfiguration("team id and bundle id are required") }
        let root: Certificate
        do {
            root = try Certificate(pemEncoded: rootCertificatePEM)
        } catch {
            throw .invalidConfiguration("App Attest root certificate: \(error)")
        }
        self.init(teamID: teamID, bundleID: bundleID, environment: environment, rootCertificate: root)
    }

    /// Creates a configuration from a parsed root certificate.
    public init(teamID: String, bundleID: String, environment: Environment, rootCertificate: Certificate) {
        self.teamID = teamID
        self.bundleID = bundleID
        self.environment = environment
        self.rootCertificate = rootCertificate
    }
}
