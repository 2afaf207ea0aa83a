import Configuration
import DeviceIntegrity
import Foundation
import KindredServerCore

extension ServerSettings {
    /// The device-integrity keys (docs/device-integrity.md, "Server"):
    /// `integrity.policy` (rules `APP ROUTE MISSING FAILED` separated by `;`, actions `log`,
    /// `limit` or `refuse`), `integrity.challengeSeconds` (30–3600), `integrity.verdictMaxAgeSeconds`
    /// (60–2592000), `integrity.limitPerMinute` (1–1000), `integrity.challengesPerHour` (1–10000);
    /// per app `apps.<app>.appAttest.{teamId, bundleId, environment, rootCertificatePem |
    /// rootCertificateFile}` and `apps.<app>.playIntegrity.{packageName, decryptionKey,
    /// verificationKey}` (the keys are secrets: environment or config file only).
    static func resolveIntegrity(_ config: ConfigReader) throws -> IntegritySettings {
        var settings = IntegritySettings()
        func bounded(_ key: String, _ fallback: Int, _ range: ClosedRange<Int>) throws -> Int {
            let value = config.int(forKey: ConfigKey(key.split(separator: ".").map(String.init)), default: fallback)
            guard range.contains(value) else {
                throw Invalid(description: "\(key) must be \(range.lowerBound)–\(range.upperBound), not \(value)")
            }
            return value
        }
        settings.challengeLifetime = .seconds(try bounded("integrity.challengeSeconds", 300, 30...3600))
        settings.verdictLifetime = .seconds(try bounded("integrity.verdictMaxAgeSeconds", 86_400, 60...2_592_000))
        settings.limitedRequestsPerMinute = try bounded("integrity.limitPerMinute", settings.limitedRequestsPerMinute, 1...1000)
        settings.challengesPerHour = try bounded("integrity.challengesPerHour", settings.challengesPerHour, 1...10_000)
        settings.policy = try integrityPolicy(config.string(forKey: ConfigKey(["integrity", "policy"]), default: ""))
        for id in AppID.allCases {
            let app = try appIntegrity(config, app: id)
            if app.appAttest != nil || app.playIntegrity != nil { settings.apps[id] = app }
        }
        return settings
    }

    /// Parses `integrity.policy`: `APP ROUTE MISSING FAILED` rules separated by `;`.
    /// - Throws: `Invalid` naming the rule that does not parse.
    static func integrityPolicy(_ text: String) throws -> IntegrityPolicy {
        var rules: [IntegrityRule] = []
        for part in text.split(separator: ";") {
            let words = part.split(whereSeparator: \.isWhitespace).map(String.init)
            guard !words.isEmpty else { continue }
            guard words.count == 4, let missing = IntegrityAction(rawValue: words[2]), let failed = IntegrityAction(rawValue: words[3]),
                words[0] == "*" || AppID(rawValue: words[0]) != nil, words[1] == "*" || words[1].hasPrefix("/")
            else {
                throw Invalid(
                    description: "integrity.policy rule \"\(part.trimmingCharacters(in: .whitespaces).prefix(80))\" is not APP ROUTE MISSING FAILED (app or *, /path or /prefix/*, log|limit|refuse twice)"
                )
            }
            rules.append(IntegrityRule(app: words[0], route: words[1], missing: missing, failed: failed))
        }
        return IntegrityPolicy(rules: rules)
    }

    /// One app's `appAttest.*` and `playIntegrity.*` keys.
    private static func appIntegrity(_ config: ConfigReader, app: AppID) throws -> AppIntegritySettings {
        func value(_ path: [String], secret: Bool = false) -> String? {
            config.string(forKey: ConfigKey(["apps", app.rawValue] + path), isSecret: secret).flatMap { $0.isEmpty ? nil : $0 }
        }
        let name = "apps.\(app.rawValue)"
        var settings = AppIntegritySettings()
        let team = value(["appAttest", "teamId"]), bundle = value(["appAttest", "bundleId"])
        var pem = value(["appAttest", "rootCertificatePem"])
        if let file = value(["appAttest", "rootCertificateFile"]) {
            guard pem == nil else { throw Invalid(description: "\(name).appAttest: set rootCertificatePem or rootCertificateFile, not both") }
            do {
                pem = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw Invalid(description: "\(name).appAttest.rootCertificateFile \(file) cannot be read")
            }
        }
        if team != nil || bundle != nil || pem != nil {
            guard let team, let bundle, let pem else {
                throw Invalid(description: "\(name).appAttest needs teamId, bundleId and a root certificate together")
            }
            let environmentText = value(["appAttest", "environment"]) ?? "production"
            guard let environment = AppAttestConfiguration.Environment(rawValue: environmentText) else {
                throw Invalid(description: "\(name).appAttest.environment must be development or production, not \(environmentText.prefix(20))")
            }
            do {
                settings.appAttest = try AppAttestConfiguration(teamID: team, bundleID: bundle, environment: environment, rootCertificatePEM: pem)
            } catch {
                throw Invalid(description: "\(name).appAttest: \(error.description)")
            }
        }
        let package = value(["playIntegrity", "packageName"])
        let decryption = value(["playIntegrity", "decryptionKey"], secret: true)
        let verification = value(["playIntegrity", "verificationKey"], secret: true)
        if package != nil || decryption != nil || verification != nil {
            guard let package, let decryption, let verification else {
                throw Invalid(description: "\(name).playIntegrity needs packageName, decryptionKey and verificationKey together")
            }
            do {
                settings.playIntegrity = try PlayIntegrityConfiguration(
                    packageName: package, decryptionKeyBase64: decryption, verificationKeyBase64: verification
                )
            } catch {
                throw Invalid(description: "\(name).playIntegrity: \(error.description)")
            }
        }
        return settings
    }
}
