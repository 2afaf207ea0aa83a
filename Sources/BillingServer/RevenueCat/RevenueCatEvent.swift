import KindredServerCore

/// A RevenueCat webhook body: `{"api_version": "1.0", "event": {…}}`.
///
/// Only the fields billing reads are decoded; unknown fields and unknown event types are kept
/// (the raw body is what the inbox stores). See https://www.revenuecat.com/docs/integrations/webhooks/event-types-and-fields
struct RevenueCatWebhookBody: Decodable, Sendable {
    /// The event.
    var event: RevenueCatEvent
}

/// What the webhook reads of a body before acknowledging it: the event's id, type and time.
/// The rest is read when the event is applied, so an authentic event whose other fields this
/// version cannot read is kept (and dead-lettered for an operator) rather than refused, which
/// after RevenueCat's retries would lose it.
struct RevenueCatWebhookHeader: Decodable, Sendable {
    /// The event's id, type and time.
    struct Event: Decodable, Sendable {
        /// The event id.
        var id: String
        /// The event type.
        var type: String
        /// When RevenueCat created it (ms since 1970).
        var eventTimestampMs: Int64

        enum CodingKeys: String, CodingKey {
            case id, type
            case eventTimestampMs = "event_timestamp_ms"
        }
    }

    /// The event's header.
    var event: Event
}

/// One RevenueCat event.
struct RevenueCatEvent: Decodable, Sendable {
    /// The event's unique id (the idempotency key).
    var id: String
    /// `INITIAL_PURCHASE`, `RENEWAL`, … (unknown future types are stored and acknowledged).
    var type: String
    /// When RevenueCat created the event (ms since 1970).
    var eventTimestampMs: Int64
    /// The user the event is about.
    var appUserID: String?
    /// The user's first id.
    var originalAppUserID: String?
    /// Every id the user has had.
    var aliases: [String]?
    /// The store product.
    var productID: String?
    /// The product after a change (`PRODUCT_CHANGE`).
    var newProductID: String?
    /// `TRIAL`, `INTRO`, `NORMAL`, `PROMOTIONAL`, `PREPAID`.
    var periodType: String?
    /// When the current period ends (ms since 1970); null for lifetime purchases.
    var expirationAtMs: Int64?
    /// `SANDBOX` or `PRODUCTION`.
    var environment: String?
    /// The entitlements the product unlocks.
    var entitlementIDs: [String]?
    /// The purchase's transaction.
    var transactionID: String?
    /// The first transaction of the subscription: its lineage.
    var originalTransactionID: String?
    /// `APP_STORE`, `MAC_APP_STORE`, `PLAY_STORE`, `STRIPE`, `AMAZON`, `PROMOTIONAL`, …
    var store: String?
    /// Why it was cancelled (`CUSTOMER_SUPPORT` is a refund).
    var cancelReason: String?
    /// `TRANSFER`: the ids access moves away from.
    var transferredFrom: [String]?
    /// `TRANSFER`: the ids access moves to.
    var transferredTo: [String]?

    enum CodingKeys: String, CodingKey {
        case id, type, aliases, environment, store
        case eventTimestampMs = "event_timestamp_ms"
        case appUserID = "app_user_id"
        case originalAppUserID = "original_app_user_id"
        case productID = "product_id"
        case newProductID = "new_product_id"
        case periodType = "period_type"
        case expirationAtMs = "expiration_at_ms"
        case entitlementIDs = "entitlement_ids"
        case transactionID = "transaction_id"
        case originalTransactionID = "original_transaction_id"
        case cancelReason = "cancel_reason"
        case transferredFrom = "transferred_from"
        case transferredTo = "transferred_to"
    }

    /// Every id that may name the user: `app_user_id`, `original_app_user_id`, then `aliases`.
    var candidateUserIDs: [String] {
        var ids: [String] = []
        for id in [appUserID, originalAppUserID].compactMap({ $0 }) + (aliases ?? []) where !ids.contains(id) && !id.isEmpty {
            ids.append(id)
        }
        return ids
    }

    /// Whether the purchase was made in the sandbox.
    var isSandbox: Bool { environment?.uppercased() == "SANDBOX" }

    /// The platform of the store.
    var platform: BillingPlatform {
        switch store?.uppercased() {
        case "PLAY_STORE", "AMAZON": .android
        case "STRIPE", "RC_BILLING", "PADDLE": .web
        default: .ios
        }
    }
}
