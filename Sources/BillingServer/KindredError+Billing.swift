import KindredServerCore

/// The refusals of the billing domain.
extension KindredError {
    /// 400 `unknown_price`: the price is not a configured product of the app.
    static let unknownPrice = refused(status: 400, code: "unknown_price", message: "this price is not a product of the app")
    /// 404 `checkout_not_found`: no such Checkout Session for this user.
    static let checkoutNotFound = refused(
        status: 404, code: "checkout_not_found", message: "no such checkout session for this account"
    )
    /// 409 `checkout_incomplete`: the session is not paid (yet).
    static let checkoutIncomplete = refused(
        status: 409, code: "checkout_incomplete", message: "the checkout session is not complete"
    )
    /// 503 `billing_unavailable`: the provider is not configured or not answering.
    static let billingUnavailable = refused(
        status: 503, code: "billing_unavailable", message: "the payment provider is not available; try again later"
    )
    /// 500 `webhook_not_configured`: the server lacks the webhook's secret (an operator's mistake).
    static func webhookNotConfigured(_ why: String) -> KindredError {
        refused(status: 500, code: "webhook_not_configured", message: why)
    }
    /// 401 `invalid_webhook_signature`: missing or wrong webhook credentials.
    static func invalidWebhookSignature(_ why: String) -> KindredError {
        refused(status: 401, code: "invalid_webhook_signature", message: why)
    }
    /// 422 `stale_event`: an authentic webhook event older (or further ahead) than the server accepts.
    static func staleEvent(_ why: String) -> KindredError {
        refused(status: 422, code: "stale_event", message: why)
    }
    /// 400 `malformed_event`: the webhook body is not the provider's event.
    static func malformedEvent(_ why: String) -> KindredError {
        refused(status: 400, code: "malformed_event", message: why)
    }
}
