import Crypto
import DeviceIntegrity
import Foundation
@testable import KindredServer
@testable import KindredServerCore
import Testing
import X509

/// The `integrity.*` and `apps.<app>.appAttest|playIntegrity.*` settings.
@Suite struct ServerSettingsIntegrityTests {
    static func rootPEM() throws -> String {
        let key = P256.Signing.PrivateKey()
        let now = Date()
        let root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 3600,
            issuer: try DistinguishedName { CommonName("Test Root") }, subject: try DistinguishedName { CommonName("Test Root") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions([
                Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true)
            ]),
            issuerPrivateKey: Certificate.PrivateKey(key))
        return try root.serializeAsPEM().pemString
    }

    @Test func defaultsHaveNoAppsAndNoRules() async throws {
        let settings = try await ServerSettings.resolve(flags: .init(), environment: [:])
        #expect(settings.server.integrity.apps.isEmpty)
        #expect(settings.server.integrity.policy.rules.isEmpty)
        #expect(settings.server.integrity.challengeLifetime == .seconds(300))
        #expect(settings.server.integrity.verdictLifetime == .seconds(86_400))
        #expect(settings.server.integrity.limitedRequestsPerMinute == 10)
    }

    @Test func environmentConfiguresKeysAndPolicy() async throws {
        let aes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString()
        let ec = P256.Signing.PrivateKey().publicKey.derRepresentation.base64EncodedString()
        let settings = try await ServerSettings.resolve(flags: .init(), environment: [
            "KINDRED_INTEGRITY_POLICY": "closer /v1/closer/* refuse refuse; * /v1/me log limit",
            "KINDRED_INTEGRITY_LIMIT_PER_MINUTE": "5",
            "KINDRED_INTEGRITY_CHALLENGE_SECONDS": "120",
            "KINDRED_APPS_CLOSER_APP_ATTEST_TEAM_ID": "ABCDE12345",
            "KINDRED_APPS_CLOSER_APP_ATTEST_BUNDLE_ID": "dev.kindred.closer",
            "KINDRED_APPS_CLOSER_APP_ATTEST_ENVIRONMENT": "development",
            "KINDRED_APPS_CLOSER_APP_ATTEST_ROOT_CERTIFICATE_PEM": try Self.rootPEM(),
            "KINDRED_APPS_PULSE_PLAY_INTEGRITY_PACKAGE_NAME": "dev.kindred.pulse",
            "KINDRED_APPS_PULSE_PLAY_INTEGRITY_DECRYPTION_KEY": aes,
            "KINDRED_APPS_PULSE_PLAY_INTEGRITY_VERIFICATION_KEY": ec,
        ])
        let integrity = settings.server.integrity
        #expect(integrity.policy.rules == [
            IntegrityRule(app: "closer", route: "/v1/closer/*", missing: .refuse, failed: .refuse),
            IntegrityRule(app: "*", route: "/v1/me", missing: .log, failed: .limit),
        ])
        #expect(integrity.limitedRequestsPerMinute == 5)
        #expect(integrity.challengeLifetime == .seconds(120))
        #expect(integrity.apps[.closer]?.appAttest?.appID == "ABCDE12345.dev.kindred.closer")
        #expect(integrity.apps[.closer]?.appAttest?.environment == .development)
        #expect(integrity.apps[.closer]?.playIntegrity == nil)
        #expect(integrity.apps[.pulse]?.playIntegrity?.packageName == "dev.kindred.pulse")
        #expect(Set(integrity.apps.keys) == [.closer, .pulse])
    }

    @Test func badValuesAreOneLineErrors() async throws {
        let cases: [([String: String], String)] = [
            (["KINDRED_INTEGRITY_POLICY": "closer /v1/me deny refuse"], #"integrity.policy rule "closer /v1/me deny refuse" is not APP ROUTE MISSING FAILED"#),
            (["KINDRED_INTEGRITY_POLICY": "nosuchapp /v1/me log log"], "integrity.policy rule"),
            (["KINDRED_INTEGRITY_LIMIT_PER_MINUTE": "0"], "integrity.limitPerMinute must be 1–1000, not 0"),
            (["KINDRED_APPS_CLOSER_APP_ATTEST_TEAM_ID": "ABCDE12345"], "apps.closer.appAttest needs teamId, bundleId and a root certificate together"),
            (["KINDRED_APPS_CLOSER_PLAY_INTEGRITY_PACKAGE_NAME": "x"], "apps.closer.playIntegrity needs packageName, decryptionKey and verificationKey together"),
            ([
                "KINDRED_APPS_CLOSER_PLAY_INTEGRITY_PACKAGE_NAME": "x", "KINDRED_APPS_CLOSER_PLAY_INTEGRITY_DECRYPTION_KEY": "c2hvcnQ=",
                "KINDRED_APPS_CLOSER_PLAY_INTEGRITY_VERIFICATION_KEY": "c2hvcnQ=",
            ], "apps.closer.playIntegrity: invalid integrity configuration: decryption key is not 32 bytes of base64"),
        ]
        for (environment, message) in cases {
            do {
                _ = try await ServerSettings.resolve(flags: .init(), environment: environment)
                Issue.record("accepted \(environment)")
            } catch let error as ServerSettings.Invalid {
                #expect(error.description.contains(message), "\(error.description)")
            }
        }
    }
}
