import AdminConsole
import BillingServer
import CloserServer
import KindredServerCore
import Configuration
import Foundation

extension ServerSettings {
    /// The billing keys: `stripe.*` (webhookSecret, apiKey, baseUrl, successUrl, cancelUrl),
    /// `revenuecat.*` (webhookAuth, signingKey, apiKey, baseUrl, projects, projectApiKeys,
    /// projectEntitlements),
    /// `apps.<app>.billing.*` (products, oneTimeProducts, entitlement, revenuecatEntitlements, sandboxGrantsAccess,
    /// denormalizeUserFields) and `billing.inbox.*` (maxAttempts, retryBaseMs, retryMaxMs,
    /// leaseSeconds, concurrency). Secrets are read as secrets (never logged).
    static func resolveBilling(_ config: ConfigReader) throws -> BillingSettings {
        var billing = BillingSettings()
        func text(_ key: String, secret: Bool = false) -> String? {
            config.string(forKey: ConfigKey(key.split(separator: ".").map(String.init)), isSecret: secret)
                .flatMap { $0.isEmpty ? nil : $0 }
        }
        func url(_ key: String) throws -> URL? {
            guard let value = text(key) else { return nil }
            guard let url = URL(string: value), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw Invalid(description: "\(key) \(value) is not an http(s) URL")
            }
            return url
        }
        func pairs(_ key: String, secret: Bool = false) throws -> [(String, String)] {
            guard let value = text(key, secret: secret) else { return [] }
            return try value.split(separator: ",").map { item in
                let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw Invalid(description: "\(key) must be a comma-separated list of name=value")
                }
                return (parts[0], parts[1])
            }
        }
        func positive(_ key: String, _ fallback: Int) throws -> Int {
            let value = config.int(forKey: ConfigKey(key.split(separator: ".").map(String.init)), default: fallback)
            guard value >= 1 else { throw Invalid(description: "\(key) must be at least 1, not \(value)") }
            return value
        }
        billing.stripeWebhookSecret = text("stripe.webhookSecret", secret: true)
        billing.stripeAPIKey = text("stripe.apiKey", secret: true)
        if let base = try url("stripe.baseUrl") { billing.stripeBaseURL = base }
        if let success = text("stripe.successUrl") { billing.stripeSuccessURL = success }
        if let cancel = text("stripe.cancelUrl") { billing.stripeCancelURL = cancel }
        billing.revenueCatWebhookAuthorization = text("revenuecat.webhookAuth", secret: true)
        billing.revenueCatSigningKey = text("revenuecat.signingKey", secret: true)
        if let key = billing.revenueCatSigningKey, RevenueCatWebhookAuthenticator.publicKey(spkiBase64: key) == nil {
            throw Invalid(description: "revenuecat.signingKey is not a Base64 Ed25519 SubjectPublicKeyInfo")
        }
        let maxAge = config.int(forKey: ConfigKey(["revenuecat", "maxEventAgeSeconds"]), default: 86_400)
        guard maxAge >= 0 else { throw Invalid(description: "revenuecat.maxEventAgeSeconds must be 0 (off) or more, not \(maxAge)") }
        billing.revenueCatMaxEventAge = .seconds(maxAge)
        billing.revenueCatAPIKey = text("revenuecat.apiKey", secret: true)
        if let base = try url("revenuecat.baseUrl") { billing.revenueCatBaseURL = base }
        let projectKeys = Dictionary(try pairs("revenuecat.projectApiKeys", secret: true), uniquingKeysWith: { $1 })
        // `projA=plus|pro,projB=premium`: the entitlement lookup keys of each project.
        let projectEntitlements = Dictionary(try pairs("revenuecat.projectEntitlements"), uniquingKeysWith: { $1 })
            .mapValues { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        billing.revenueCatProjects = try pairs("revenuecat.projects").map { id, appName in
            guard let app = AppID(rawValue: appName) else {
                throw Invalid(description: "revenuecat.projects: \(appName) is not an app")
            }
            return .init(id: id, app: app, apiKey: projectKeys[id], entitlements: projectEntitlements[id])
        }
        let known = Set(billing.revenueCatProjects.map(\.id))
        if let unknown = projectEntitlements.keys.sorted().first(where: { !known.contains($0) }) {
            throw Invalid(description: "revenuecat.projectEntitlements: \(unknown) is not in revenuecat.projects")
        }
        for app in AppID.allCases {
            let prefix = "apps.\(app.rawValue).billing"
            var settings = BillingAppSettings.developmentDefault(for: app)
            let products = try pairs("\(prefix).products")
            if !products.isEmpty { settings.products = Dictionary(products, uniquingKeysWith: { $1 }) }
            let oneTime = try pairs("\(prefix).oneTimeProducts")
            if !oneTime.isEmpty { settings.oneTimeProducts = Dictionary(oneTime, uniquingKeysWith: { $1 }) }
            if let entitlement = text("\(prefix).entitlement") { settings.entitlement = entitlement }
            if let names = text("\(prefix).revenuecatEntitlements") {
                settings.revenueCatEntitlements = names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            settings.sandboxGrantsAccess = config.bool(
                forKey: ConfigKey(["apps", app.rawValue, "billing", "sandboxGrantsAccess"]), default: settings.sandboxGrantsAccess
            )
            let denormalize = config.bool(
                forKey: ConfigKey(["apps", app.rawValue, "billing", "denormalizeUserFields"]), default: settings.denormalizeUserFields
            )
            // Ex-Eraser keeps no PII: its usernames and e-mails are never copied, whatever the file says.
            settings.denormalizeUserFields = denormalize && app != .exeraser
            billing.apps[app] = settings
        }
        billing.inboxPolicy = RetryPolicy(
            maxAttempts: try positive("billing.inbox.maxAttempts", 8),
            baseDelay: .milliseconds(try positive("billing.inbox.retryBaseMs", 10_000)),
            maxDelay: .milliseconds(try positive("billing.inbox.retryMaxMs", 3_600_000))
        )
        billing.inboxLease = .seconds(try positive("billing.inbox.leaseSeconds", 60))
        billing.inboxConcurrency = try positive("billing.inbox.concurrency", 256)
        billing.inboxBatchSize = try positive("billing.inbox.batchSize", 64)
        return billing
    }
}
