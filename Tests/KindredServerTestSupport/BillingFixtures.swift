import BillingServer
import KindredServer
import KindredServerCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredTestSupport
import NIOCore
import Testing

/// Provider events shaped as the providers send them, signed as they sign them, and the
/// settings the billing tests run with.
package enum BillingFixtures {
    /// The fixed time of the billing tests (2025-06-15T15:06:40Z).
    package static let start = Date(timeIntervalSince1970: 1_750_000_000)
    /// `start` in Unix seconds.
    package static let now: Int64 = 1_750_000_000
    package static let revenueCatAuth = "Bearer rc-webhook-test-secret"
    package static let stripeSecret = "whsec_test_kindred_billing"

    /// Settings with both webhooks configured and fast retries (3 attempts, 1 s to 2 s).
    package static func settings(signingKey: String? = nil) -> BillingSettings {
        var settings = BillingSettings()
        settings.revenueCatWebhookAuthorization = revenueCatAuth
        settings.revenueCatSigningKey = signingKey
        settings.stripeWebhookSecret = stripeSecret
        settings.inboxPolicy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(2))
        return settings
    }

    /// A RevenueCat webhook body (`{"api_version":"1.0","event":{…}}`).
    package static func revenueCat(
        id: String, type: String, user: String?, product: String = "pc_1m", expiresAt: Int64? = nil, eventAt: Int64,
        original: String = "otx-1", periodType: String = "NORMAL", cancelReason: String? = nil,
        environment: String = "PRODUCTION", aliases: [String]? = nil, transferredFrom: [String]? = nil,
        transferredTo: [String]? = nil, store: String = "APP_STORE"
    ) -> String {
        var event: [String: Any] = [
            "id": id, "type": type, "event_timestamp_ms": eventAt * 1000, "product_id": product,
            "period_type": periodType, "environment": environment, "original_transaction_id": original,
            "transaction_id": "\(original)-\(id)", "store": store, "entitlement_ids": ["plus"], "app_id": "app1234",
        ]
        if let user {
            event["app_user_id"] = user
            event["original_app_user_id"] = user
        }
        if let expiresAt { event["expiration_at_ms"] = expiresAt * 1000 }
        if let cancelReason { event["cancel_reason"] = cancelReason }
        if let aliases { event["aliases"] = aliases }
        if let transferredFrom { event["transferred_from"] = transferredFrom }
        if let transferredTo { event["transferred_to"] = transferredTo }
        return json(["api_version": "1.0", "event": event])
    }

    /// A Stripe subscription object (newer API: the period end on the items).
    package static func stripeSubscription(
        id: String, customer: String, user: String?, status: String = "active", periodEnd: Int64,
        price: String = "pc_1m", endedAt: Int64? = nil, topLevelPeriodEnd: Bool = false
    ) -> [String: Any] {
        var object: [String: Any] = [
            "id": id, "object": "subscription", "customer": customer, "status": status, "livemode": true,
            "metadata": user.map { ["userId": $0] } ?? [:],
        ]
        let item: [String: Any] = ["id": "si_\(id)", "price": ["id": price]]
        if topLevelPeriodEnd {
            object["current_period_end"] = periodEnd
            object["items"] = ["object": "list", "data": [item]]
        } else {
            object["items"] = ["object": "list", "data": [item.merging(["current_period_end": periodEnd]) { $1 }]]
        }
        if let endedAt { object["ended_at"] = endedAt }
        return object
    }

    /// A Stripe event around `object`.
    package static func stripeEvent(id: String, type: String, created: Int64, object: [String: Any]) -> String {
        json([
            "id": id, "object": "event", "type": type, "created": created, "livemode": true, "api_version": "2025-03-31.basil",
            "data": ["object": object],
        ])
    }

    package static func json(_ value: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A `Stripe-Signature` header made by Python's `stripe` package
    /// (`stripe.WebhookSignature.generate_signature_header`).
    package static func stripeHeader(payload: String, secret: String = stripeSecret, timestamp: Int64 = now) throws -> String {
        let script = """
            import sys, stripe
            payload = sys.stdin.read()
            sys.stdout.write(stripe.WebhookSignature.generate_signature_header(payload, sys.argv[1], int(sys.argv[2])))
            """
        let result = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, secret, String(timestamp)], input: Array(payload.utf8))
        guard result.status == 0 else {
            throw FixtureError(description: "python3 stripe signing failed (pip install stripe): \(result.stderr)")
        }
        return result.text
    }

    package struct FixtureError: Error, CustomStringConvertible {
        package var description: String
    }
}

extension TestClientProtocol {
    /// `POST /v1/webhooks/revenuecat` with RevenueCat's headers.
    package func revenueCatWebhook(
        _ body: String, authorization: String? = BillingFixtures.revenueCatAuth, signature: String? = nil
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if let authorization { headers[.authorization] = authorization }
        if let signature { headers[HTTPField.Name("X-RevenueCat-Signature")!] = signature }
        return try await execute(uri: "/v1/webhooks/revenuecat", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    /// `POST /v1/webhooks/stripe`, signed by Python's `stripe` unless `signature` is given.
    package func stripeWebhook(_ body: String, signature: String? = nil) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[HTTPField.Name("Stripe-Signature")!] = try signature ?? BillingFixtures.stripeHeader(payload: body)
        return try await execute(uri: "/v1/webhooks/stripe", method: .post, headers: headers, body: ByteBuffer(string: body))
    }
}

extension TestApplication {
    /// Applies everything due in the inbox (rounds until a round handles nothing).
    package func drainInbox() async {
        while await platform.worker.processAvailable() > 0 {}
    }

    /// The user's subscription answer.
    package func subscription(of userID: String) async throws -> SubscriptionSnapshot {
        try await entitlements.snapshot(userID: userID).snapshot
    }
}
