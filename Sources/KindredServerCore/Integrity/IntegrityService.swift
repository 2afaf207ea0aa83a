import DeviceIntegrity
import Foundation
import KindredStore
import Logging

/// Device integrity for signed-in users: challenges, App Attest keys and assertions, Play
/// Integrity tokens, and each device's recorded verdict (docs/device-integrity.md, "Server").
package struct IntegrityService: Sendable {
    /// The verifiers, policy and limits.
    package let settings: IntegritySettings
    let challenges: IntegrityChallenges
    package let store: IntegrityStore
    let rateLimiter: RateLimiter

    /// The longest Play Integrity device id, and the shortest.
    static let deviceIDLengths = 8...128

    /// Creates the service.
    package init(database: Database, clock: any WallClock, settings: IntegritySettings) {
        self.settings = settings
        challenges = IntegrityChallenges(database: database, clock: clock, lifetime: settings.challengeLifetime)
        store = IntegrityStore(database: database, clock: clock)
        rateLimiter = RateLimiter(database: database, clock: clock)
    }

    /// A new challenge for `userID`'s device.
    /// - Throws: 429 `rate_limited` past `challengesPerHour`.
    func challenge(userID: String, app: AppID, logger: Logger) async throws -> (challenge: String, expiresAt: Date) {
        try await rateLimiter.enforce(
            key: "integrity-challenge:\(userID)", limit: settings.challengesPerHour, window: .seconds(3600), logger: logger
        )
        return try await challenges.issue(userID: userID, app: app)
    }

    /// Verifies an App Attest attestation and stores its key; records the verdict either way.
    /// - Throws: 400 for malformed input; the challenge's refusals; 501 `integrity_not_configured`;
    ///   409 `integrity_key_in_use`; 422 `integrity_check_failed` (recorded as failed).
    func registerAppAttestKey(
        userID: String, app: AppID, keyID: String, attestation: String, challenge: String, now: Date
    ) async throws -> IntegrityVerdictRecord {
        guard let configuration = settings.apps[app]?.appAttest else { throw KindredError.integrityNotConfigured("App Attest", app: app) }
        let (device, keyBytes) = try Self.keyID(keyID)
        let object = try Self.base64("attestation", attestation)
        try await challenges.consume(challenge, userID: userID, app: app)
        let key: AppAttestKey
        do {
            key = try await AppAttestVerifier(configuration: configuration)
                .verifyAttestation(object, keyID: keyBytes, clientData: Array(challenge.utf8), now: now)
        } catch {
            try await store.record(.failed(reason: error.description), userID: userID, app: app, device: device, platform: .appAttest)
            throw KindredError.integrityCheckFailed(error)
        }
        try await store.insertKey(key, device: device, userID: userID, app: app, environment: configuration.environment.rawValue)
        return try await store.record(.passed, userID: userID, app: app, device: device, platform: .appAttest)
    }

    /// Verifies an assertion with the user's stored key, advances its counter and records the verdict.
    /// - Throws: 404 `integrity_key_not_found`; 409 `assertion_replayed` for a counter not above
    ///   the stored one; 422 `integrity_check_failed`; the challenge's refusals.
    func assert(
        userID: String, app: AppID, keyID: String, assertion: String, challenge: String
    ) async throws -> IntegrityVerdictRecord {
        guard let configuration = settings.apps[app]?.appAttest else { throw KindredError.integrityNotConfigured("App Attest", app: app) }
        let (device, _) = try Self.keyID(keyID)
        let object = try Self.base64("assertion", assertion)
        guard let key = try await store.key(device: device, userID: userID, app: app) else { throw KindredError.integrityKeyNotFound }
        try await challenges.consume(challenge, userID: userID, app: app)
        let updated: AppAttestKey
        do {
            updated = try AppAttestVerifier(configuration: configuration)
                .verifyAssertion(object, clientData: Array(challenge.utf8), key: key)
        } catch {
            try await store.record(.failed(reason: error.description), userID: userID, app: app, device: device, platform: .appAttest)
            if case .counterNotIncreasing = error { throw KindredError.assertionReplayed(error.description) }
            throw KindredError.integrityCheckFailed(error)
        }
        guard try await store.advanceCounter(device: device, userID: userID, to: updated.counter) else {
            let why = "counter \(updated.counter) was already used"
            try await store.record(.failed(reason: why), userID: userID, app: app, device: device, platform: .appAttest)
            throw KindredError.assertionReplayed(why)
        }
        return try await store.record(.passed, userID: userID, app: app, device: device, platform: .appAttest)
    }

    /// Verifies a Play Integrity token bound to the challenge (as its nonce) and records the verdict.
    /// - Throws: 400 for a malformed device id; 501 `integrity_not_configured`; 422
    ///   `integrity_check_failed` (recorded as failed); the challenge's refusals.
    func submitPlayIntegrity(
        userID: String, app: AppID, deviceID: String, token: String, challenge: String, now: Date
    ) async throws -> IntegrityVerdictRecord {
        guard let configuration = settings.apps[app]?.playIntegrity else {
            throw KindredError.integrityNotConfigured("Play Integrity", app: app)
        }
        guard Self.isDeviceID(deviceID) else {
            throw KindredError.badRequest("deviceId must be 8–128 letters, digits or - _ . characters")
        }
        try await challenges.consume(challenge, userID: userID, app: app)
        do {
            _ = try PlayIntegrityVerifier(configuration: configuration).verify(token, binding: .nonce(challenge), now: now)
        } catch {
            try await store.record(.failed(reason: error.description), userID: userID, app: app, device: deviceID, platform: .playIntegrity)
            throw KindredError.integrityCheckFailed(error)
        }
        return try await store.record(.passed, userID: userID, app: app, device: deviceID, platform: .playIntegrity)
    }

    /// Whether `text` is a usable device id (also what `Kindred-Device-Key` may carry).
    static func isDeviceID(_ text: String) -> Bool {
        deviceIDLengths.contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x2B || byte == 0x2F || byte == 0x3D
        }
    }

    /// The device name of an App Attest key id (standard base64 of its 32 bytes) and the bytes.
    /// - Throws: 400 `bad_request` unless it is base64 of 32 bytes.
    static func keyID(_ text: String) throws -> (String, [UInt8]) {
        let bytes = try base64("keyId", text)
        guard bytes.count == 32 else { throw KindredError.badRequest("keyId must be base64 of 32 bytes") }
        return (Data(bytes).base64EncodedString(), bytes)
    }

    /// Standard or URL-safe base64, padded or not.
    /// - Throws: 400 `bad_request` naming `field`.
    static func base64(_ field: String, _ text: String) throws -> [UInt8] {
        var normalized = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        normalized += String(repeating: "=", count: (4 - normalized.utf8.count % 4) % 4)
        guard !text.isEmpty, let data = Data(base64Encoded: normalized) else {
            throw KindredError.badRequest("\(field) must be base64")
        }
        return Array(data)
    }
}
