@testable import BillingServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import Testing

/// The billing keys: secrets from the environment, base URLs, projects, per-app products.
@Suite struct BillingSettingsTests {
    @Test func environmentSecretsProjectsAndProducts() async throws {
        let settings = try await ServerSettings.resolve(flags: .init(), environment: [
            "KINDRED_STRIPE_WEBHOOK_SECRET": "whsec_abc",
            "KINDRED_STRIPE_API_KEY": "sk_test_abc",
            "KINDRED_STRIPE_BASE_URL": "http://127.0.0.1:9999",
            "KINDRED_REVENUECAT_WEBHOOK_AUTH": "Bearer hook",
            "KINDRED_REVENUECAT_API_KEY": "sk_rc_default",
            "KINDRED_REVENUECAT_PROJECTS": "projA=pulse,projB=closer",
            "KINDRED_REVENUECAT_PROJECT_API_KEYS": "projB=sk_rc_b",
            "KINDRED_APPS_PULSE_BILLING_PRODUCTS": "price_123=pulsecheck-monthly",
            "KINDRED_APPS_EXERASER_BILLING_DENORMALIZE_USER_FIELDS": "true",
            "KINDRED_BILLING_INBOX_MAX_ATTEMPTS": "5",
        ]).server.billing
        #expect(settings.stripeWebhookSecret == "whsec_abc")
        #expect(settings.stripeAPIKey == "sk_test_abc")
        #expect(settings.stripeBaseURL.absoluteString == "http://127.0.0.1:9999")
        #expect(settings.revenueCatWebhookAuthorization == "Bearer hook")
        #expect(settings.revenueCatSigningKey == nil)
        #expect(settings.revenueCatProjects == [
            .init(id: "projA", app: .pulse, apiKey: nil), .init(id: "projB", app: .closer, apiKey: "sk_rc_b"),
        ])
        #expect(settings.app(.pulse).products == ["price_123": "pulsecheck-monthly"])
        #expect(settings.app(.pulse).revenueCatEntitlements == ["plus"])
        #expect(settings.app(.exeraser).denormalizeUserFields == false)  // never for Ex-Eraser
        #expect(settings.inboxPolicy.maxAttempts == 5)
    }

    @Test func defaultsHaveNoSecrets() async throws {
        let settings = try await ServerSettings.resolve(flags: .init(), environment: [:]).server.billing
        #expect(settings.stripeWebhookSecret == nil)
        #expect(settings.revenueCatWebhookAuthorization == nil)
        #expect(settings.stripeBaseURL.absoluteString == "https://api.stripe.com")
        #expect(settings.app(.pulse).planType(for: "pc_1y") == "pulsecheck-annual")
        #expect(settings.app(.closer).entitlement == "premium")
        #expect(settings.app(.exeraser).entitlement == "healing_pass")
    }

    @Test func entitlementNamesPerProject() async throws {
        let settings = try await ServerSettings.resolve(flags: .init(), environment: [
            "KINDRED_REVENUECAT_PROJECTS": "ios=pulse,android=pulse,web=pulse",
            "KINDRED_REVENUECAT_PROJECT_ENTITLEMENTS": "ios=plus|plus_annual,android= premium ",
        ]).server.billing
        #expect(settings.revenueCatProjects.map(\.entitlements) == [["plus", "plus_annual"], ["premium"], nil])
        await #expect(throws: ServerSettings.Invalid(description: "revenuecat.projectEntitlements: nope is not in revenuecat.projects")) {
            _ = try await ServerSettings.resolve(flags: .init(), environment: [
                "KINDRED_REVENUECAT_PROJECTS": "ios=pulse", "KINDRED_REVENUECAT_PROJECT_ENTITLEMENTS": "nope=plus",
            ])
        }
    }

    @Test func badValuesAreRefused() async throws {
        await #expect(throws: ServerSettings.Invalid.self) {
            _ = try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_REVENUECAT_PROJECTS": "projA=nosuchapp"])
        }
        await #expect(throws: ServerSettings.Invalid.self) {
            _ = try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_REVENUECAT_SIGNING_KEY": "bm90IGEga2V5"])
        }
        await #expect(throws: ServerSettings.Invalid.self) {
            _ = try await ServerSettings.resolve(flags: .init(), environment: ["KINDRED_STRIPE_BASE_URL": "ftp://x"])
        }
    }
}
