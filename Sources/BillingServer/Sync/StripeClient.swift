import KindredServerCore
import AsyncHTTPClient
import Foundation

/// Stripe's REST API as billing uses it: Checkout Sessions, a customer's subscriptions and
/// invoices. Configurable base URL and key (tests point it at a local fake).
/// See https://docs.stripe.com/api
struct StripeClient: Sendable {
    let http: ProviderHTTP
    let baseURL: URL
    let apiKey: String

    /// Creates the client.
    init(client: HTTPClient, baseURL: URL, apiKey: String) {
        http = ProviderHTTP(client: client, provider: .stripe)
        self.baseURL = baseURL
        self.apiKey = apiKey
    }

    private func url(_ path: String) -> String {
        baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + path
    }

    /// `POST /v1/checkout/sessions` (mode `subscription`) carrying the user id in
    /// `client_reference_id`, `metadata[userId]` and `subscription_data[metadata][userId]`.
    func createCheckoutSession(
        priceID: String, userID: String, customer: String?, successURL: String, cancelURL: String
    ) async throws -> StripeObject {
        try await createCheckoutSession(
            prices: [priceID], subscription: true, userID: userID, customer: customer, successURL: successURL,
            cancelURL: cancelURL, metadata: [:]
        )
    }

    /// `POST /v1/checkout/sessions` for several prices: mode `subscription` when one of them is a
    /// subscription (Stripe adds one-time prices to its first invoice), else mode `payment`; the
    /// user id in `client_reference_id` and `metadata[userId]` (and the subscription's or the
    /// payment intent's metadata), plus `metadata`.
    func createCheckoutSession(
        prices: [String], subscription: Bool, userID: String, customer: String?, successURL: String, cancelURL: String,
        metadata: [String: String]
    ) async throws -> StripeObject {
        var form: [(String, String)] = [("mode", subscription ? "subscription" : "payment")]
        for (index, price) in prices.enumerated() {
            form += [("line_items[\(index)][price]", price), ("line_items[\(index)][quantity]", "1")]
        }
        form += [
            ("success_url", successURL), ("cancel_url", cancelURL),
            ("client_reference_id", userID), ("metadata[userId]", userID),
            (subscription ? "subscription_data[metadata][userId]" : "payment_intent_data[metadata][userId]", userID),
        ]
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { form.append(("metadata[\(key)]", value)) }
        if let customer { form.append(("customer", customer)) }
        let (status, body) = try await http.send(.post, url("/v1/checkout/sessions"), bearer: apiKey, form: form)
        return try decode(StripeObject.self, status: status, body: body)
    }

    /// `GET /v1/checkout/sessions/{id}?expand[]=subscription`; nil on 404.
    func checkoutSession(id: String) async throws -> StripeObject? {
        let path = "/v1/checkout/sessions/\(ProviderHTTP.pathSegment(id))?expand%5B%5D=subscription"
        let (status, body) = try await http.send(.get, url(path), bearer: apiKey)
        if status == 404 { return nil }
        return try decode(StripeObject.self, status: status, body: body)
    }

    /// Every subscription of a customer (`GET /v1/subscriptions?customer=…&status=all`, all pages).
    func subscriptions(customer: String) async throws -> [StripeObject] {
        try await list("/v1/subscriptions", query: "customer=\(ProviderHTTP.pathSegment(customer))&status=all")
    }

    /// Every invoice of a customer (`GET /v1/invoices?customer=…`, all pages).
    func invoices(customer: String) async throws -> [StripeObject] {
        try await list("/v1/invoices", query: "customer=\(ProviderHTTP.pathSegment(customer))")
    }

    /// Reads a list page by page (`limit=100`, `starting_after`), at most 20 pages.
    private func list(_ path: String, query: String) async throws -> [StripeObject] {
        var objects: [StripeObject] = []
        var after: String?
        for _ in 0..<20 {
            var full = "\(path)?\(query)&limit=100"
            if let after { full += "&starting_after=\(ProviderHTTP.pathSegment(after))" }
            let (status, body) = try await http.send(.get, url(full), bearer: apiKey)
            let page = try decode(StripeList.self, status: status, body: body)
            objects += page.data
            guard page.hasMore == true, let last = page.data.last?.id else { break }
            after = last
        }
        return objects
    }

    private func decode<T: Decodable>(_ type: T.Type, status: Int, body: Data) throws -> T {
        guard (200..<300).contains(status) else {
            throw BillingProviderError.status(.stripe, status, ProviderHTTP.excerpt(body))
        }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            throw BillingProviderError.malformed(.stripe, "\(T.self)")
        }
    }
}
