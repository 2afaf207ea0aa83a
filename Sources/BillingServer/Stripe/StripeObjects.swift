import KindredServerCore

/// What the webhook reads of a body before acknowledging it (the rest is read when the event
/// is applied; see `RevenueCatWebhookHeader`).
struct StripeEventHeader: Decodable, Sendable {
    /// The event id.
    var id: String
    /// The event type.
    var type: String
    /// When Stripe created it (Unix seconds).
    var created: Int64
}

/// A Stripe event: `{"id": "evt_…", "type": "…", "created": <unix s>, "livemode": …, "data": {"object": {…}}}`.
/// See https://docs.stripe.com/api/events/object
struct StripeEvent: Decodable, Sendable {
    /// The event id (the idempotency key).
    var id: String
    /// `checkout.session.completed`, `customer.subscription.updated`, …
    var type: String
    /// When Stripe created it (Unix seconds).
    var created: Int64
    /// False for test mode (treated as a sandbox purchase).
    var livemode: Bool?
    /// The object the event is about.
    var data: DataField

    /// The event's `data`.
    struct DataField: Decodable, Sendable {
        /// The object.
        var object: StripeObject
    }

    /// The latest `created` accepted: 9999-12-31T23:59:59Z. Anything later is not a time Stripe
    /// sends, and `created * 1000` (milliseconds) would overflow and trap the worker (issue 21,
    /// item 14): such an event fails to decode, so the inbox dead-letters it with the reason.
    static let latestCreated: Int64 = 253_402_300_799

    private enum CodingKeys: String, CodingKey { case id, type, created, livemode, data }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        type = try container.decode(String.self, forKey: .type)
        created = try container.decode(Int64.self, forKey: .created)
        guard (0...Self.latestCreated).contains(created) else {
            throw DecodingError.dataCorruptedError(
                forKey: .created, in: container, debugDescription: "created \(created) is not a time between 1970 and 9999"
            )
        }
        livemode = try container.decodeIfPresent(Bool.self, forKey: .livemode)
        data = try container.decode(DataField.self, forKey: .data)
    }
}

/// An id that Stripe sends either as a string or as an expanded object with an `id`.
struct StripeID: Decodable, Sendable, Equatable {
    /// The id.
    var id: String
    /// The expanded object, when it was expanded.
    var object: StripeObject?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            id = text
            object = nil
        } else {
            let expanded = try container.decode(StripeObject.self)
            guard let id = expanded.id else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "an expanded object without id")
            }
            self.id = id
            object = expanded
        }
    }
}

/// The fields billing reads of Stripe's checkout sessions, subscriptions and invoices (one
/// loose shape: every field optional). See https://docs.stripe.com/api/subscriptions/object
final class StripeObject: Decodable, Sendable, Equatable {
    /// `cs_…`, `sub_…`, `in_…`.
    let id: String?
    /// `checkout.session`, `subscription`, `invoice`.
    let object: String?
    /// The customer.
    let customer: StripeID?
    /// Checkout: the id the session was created with (the Kindred user id).
    let clientReferenceID: String?
    /// Key-value metadata (`userId`).
    let metadata: [String: String]?
    /// Checkout and older invoices: the subscription.
    let subscription: StripeID?
    /// Subscription or session status.
    let status: String?
    /// Checkout: `paid`, `unpaid`, `no_payment_required`.
    let paymentStatus: String?
    /// Older API versions: the current period's end (Unix seconds).
    let currentPeriodEnd: Int64?
    /// Subscription items (newer API versions carry the period end per item).
    let items: StripeList?
    /// Invoice lines.
    let lines: StripeList?
    /// When a subscription ended (Unix seconds).
    let endedAt: Int64?
    /// When a subscription was cancelled (Unix seconds).
    let canceledAt: Int64?
    /// When the trial ends (Unix seconds).
    let trialEnd: Int64?
    /// Item: the price.
    let price: StripePrice?
    /// Invoice line: the period.
    let period: StripePeriod?
    /// Newer invoices: the subscription behind it.
    let parent: StripeParent?
    /// Checkout: the hosted page.
    let url: String?
    /// False in test mode.
    let livemode: Bool?
    /// Checkout: `payment` or `subscription`.
    let mode: String?
    /// Checkout: the total charged, in the currency's smallest unit.
    let amountTotal: Int64?
    /// Checkout: the three-letter currency.
    let currency: String?

    enum CodingKeys: String, CodingKey {
        case id, object, customer, metadata, subscription, status, items, lines, price, period, parent, url, livemode, mode, currency
        case amountTotal = "amount_total"
        case clientReferenceID = "client_reference_id"
        case paymentStatus = "payment_status"
        case currentPeriodEnd = "current_period_end"
        case endedAt = "ended_at"
        case canceledAt = "canceled_at"
        case trialEnd = "trial_end"
    }

    static func == (lhs: StripeObject, rhs: StripeObject) -> Bool { lhs.id == rhs.id && lhs.object == rhs.object }

    /// The Kindred user the object names: `metadata.userId`, else `client_reference_id`, else the
    /// invoice's subscription metadata.
    var namedUserID: String? {
        metadata?["userId"] ?? clientReferenceID ?? parent?.subscriptionDetails?.metadata?["userId"]
    }

    /// A subscription's period end: the latest `items.data[].current_period_end` (newer API
    /// versions), else the top-level `current_period_end`.
    var subscriptionPeriodEnd: Int64? {
        items?.data.compactMap(\.currentPeriodEnd).max() ?? currentPeriodEnd
    }

    /// An invoice's subscription: `parent.subscription_details.subscription` (newer), else `subscription`.
    var invoiceSubscriptionID: String? {
        parent?.subscriptionDetails?.subscription?.id ?? subscription?.id
    }

    /// The first price of the items (subscriptions) or lines (invoices).
    var firstPriceID: String? {
        items?.data.lazy.compactMap(\.price?.id).first ?? lines?.data.lazy.compactMap(\.price?.id).first
    }
}

/// A Stripe list: `{"object": "list", "data": […], "has_more": …}`.
struct StripeList: Decodable, Sendable, Equatable {
    /// The page's objects.
    var data: [StripeObject]
    /// Whether more pages follow.
    var hasMore: Bool?

    enum CodingKeys: String, CodingKey {
        case data
        case hasMore = "has_more"
    }
}

/// A price (only its id).
struct StripePrice: Decodable, Sendable, Equatable {
    /// `price_…`.
    var id: String?
}

/// An invoice line's period.
struct StripePeriod: Decodable, Sendable, Equatable {
    /// Start (Unix seconds).
    var start: Int64?
    /// End (Unix seconds).
    var end: Int64?
}

/// An invoice's parent (newer API versions).
struct StripeParent: Decodable, Sendable, Equatable {
    /// The subscription behind a subscription invoice.
    var subscriptionDetails: SubscriptionDetails?

    enum CodingKeys: String, CodingKey {
        case subscriptionDetails = "subscription_details"
    }

    /// `parent.subscription_details`.
    struct SubscriptionDetails: Decodable, Sendable, Equatable {
        /// The subscription.
        var subscription: StripeID?
        /// The subscription's metadata at invoicing.
        var metadata: [String: String]?
    }
}
