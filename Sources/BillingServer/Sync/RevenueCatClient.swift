import KindredServerCore
import AsyncHTTPClient
import Foundation

/// RevenueCat's REST API v2 as Pulse's sync uses it: a customer and their subscriptions, per
/// project with the project's secret key. Configurable base URL (tests use a local fake).
/// See https://www.revenuecat.com/docs/api-v2
struct RevenueCatClient: Sendable {
    let http: ProviderHTTP
    let baseURL: URL

    /// Creates the client.
    init(client: HTTPClient, baseURL: URL) {
        http = ProviderHTTP(client: client, provider: .revenuecat)
        self.baseURL = baseURL
    }

    /// A subscription object of API v2 (the fields billing reads).
    struct Subscription: Decodable, Sendable, Equatable {
        var id: String
        var productID: String?
        var currentPeriodEndsAt: Int64?
        var endsAt: Int64?
        var givesAccess: Bool?
        var status: String?
        var environment: String?
        var store: String?
        var storeSubscriptionIdentifier: String?
        var entitlements: EntitlementList?

        enum CodingKeys: String, CodingKey {
            case id, status, environment, store, entitlements
            case productID = "product_id"
            case currentPeriodEndsAt = "current_period_ends_at"
            case endsAt = "ends_at"
            case givesAccess = "gives_access"
            case storeSubscriptionIdentifier = "store_subscription_identifier"
        }

        /// `entitlements`: a list of entitlement objects.
        struct EntitlementList: Decodable, Sendable, Equatable {
            var items: [Entitlement]
        }

        /// An entitlement (its `lookup_key` is the name apps use, e.g. `plus`).
        struct Entitlement: Decodable, Sendable, Equatable {
            var lookupKey: String?
            enum CodingKeys: String, CodingKey { case lookupKey = "lookup_key" }
        }

        /// The platform of its store.
        var platform: BillingPlatform {
            switch store?.lowercased() {
            case "play_store", "amazon": .android
            case "stripe", "rc_billing", "paddle": .web
            default: .ios
            }
        }
    }

    private struct Page: Decodable {
        var items: [Subscription]
        var nextPage: String?
        enum CodingKeys: String, CodingKey {
            case items
            case nextPage = "next_page"
        }
    }

    private func url(_ path: String) -> String {
        baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + path
    }

    /// Whether `GET /v2/projects/{project}/customers/{customer}` finds the customer (false on 404).
    func customerExists(project: String, customer: String, apiKey: String) async throws -> Bool {
        let path = "/v2/projects/\(ProviderHTTP.pathSegment(project))/customers/\(ProviderHTTP.pathSegment(customer))"
        let (status, body) = try await http.send(.get, url(path), bearer: apiKey)
        if status == 404 { return false }
        guard (200..<300).contains(status) else {
            throw BillingProviderError.status(.revenuecat, status, ProviderHTTP.excerpt(body))
        }
        return true
    }

    /// `GET /v2/projects/{project}/customers/{customer}/subscriptions` (up to 10 pages).
    func subscriptions(project: String, customer: String, apiKey: String) async throws -> [Subscription] {
        var path = "/v2/projects/\(ProviderHTTP.pathSegment(project))/customers/\(ProviderHTTP.pathSegment(customer))/subscriptions"
        var all: [Subscription] = []
        for _ in 0..<10 {
            let (status, body) = try await http.send(.get, url(path), bearer: apiKey)
            guard (200..<300).contains(status) else {
                throw BillingProviderError.status(.revenuecat, status, ProviderHTTP.excerpt(body))
            }
            let page: Page
            do {
                page = try JSONDecoder().decode(Page.self, from: body)
            } catch {
                throw BillingProviderError.malformed(.revenuecat, "subscription list")
            }
            all += page.items
            guard let next = page.nextPage, next.hasPrefix("/v2/") else { break }
            path = next
        }
        return all
    }
}
