import Foundation
import KindredServerCore
import Synchronization

/// The exchanges of one provider sync, kept for support with secrets and personal fields
/// redacted: what the seed logs raw to debug RevenueCat's 404s, without keeping anyone's
/// e-mail or a key.
///
/// `BillingSync` binds a log to `ProviderResponseLog.current` around a provider's sync;
/// `ProviderHTTP.send` appends every answer to the bound log (none outside a sync).
final class ProviderResponseLog: Sendable {
    /// One request and its answer.
    struct Exchange: Sendable, Codable, Equatable {
        /// `GET` or `POST`.
        var method: String
        /// The path and query (never the key: that is a header).
        var path: String
        /// The HTTP status.
        var status: Int
        /// The body with secret and personal values replaced by `"[redacted]"`, as JSON text; a
        /// body that is not JSON is summarised by its size.
        var body: String
    }

    /// The log bound to the current task (a sync), if any.
    @TaskLocal static var current: ProviderResponseLog?

    /// The most exchanges kept per sync, and the most bytes of one redacted body.
    static let maxExchanges = 20
    static let maxBodyBytes = 16_384

    private let exchanges = Mutex<[Exchange]>([])

    /// Records an answer.
    func record(method: String, url: String, status: Int, body: Data) {
        let path = URLComponents(string: url).map { $0.percentEncodedPath + ($0.percentEncodedQuery.map { "?\($0)" } ?? "") } ?? url
        let exchange = Exchange(method: method, path: path, status: status, body: Self.redacted(body))
        exchanges.withLock { if $0.count < Self.maxExchanges { $0.append(exchange) } }
    }

    /// What was recorded, in order.
    var recorded: [Exchange] { exchanges.withLock { $0 } }

    /// Keys whose values are never kept: secrets and personal data (matched case-insensitively,
    /// as the whole key or, for the `contains` list, anywhere in it).
    static let redactedKeys: Set<String> = [
        "address", "shipping", "phone", "ip", "ip_address", "card", "last4", "fingerprint", "iban", "tax_id", "tax_ids",
        "invoice_settings", "customer_details", "billing_details", "shipping_details", "attributes", "subscriber_attributes",
    ]
    static let redactedKeyParts = ["email", "name", "secret", "token", "password", "key"]
    /// Keys containing a redacted part that are safe identifiers and kept.
    static let keptKeys: Set<String> = ["lookup_key", "product_key", "idempotency_key"]

    /// Redacts a body: JSON with sensitive values replaced, else a size summary.
    static func redacted(_ body: Data) -> String {
        guard !body.isEmpty else { return "" }
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return "[\(body.count) bytes, not JSON]"
        }
        let clean = redact(object)
        guard let data = try? JSONSerialization.data(withJSONObject: clean, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return "[\(body.count) bytes]" }
        guard data.count <= maxBodyBytes else { return "[\(data.count) bytes redacted JSON, over \(maxBodyBytes)]" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func redact(_ value: Any) -> Any {
        if let dictionary = value as? [String: Any] {
            var out: [String: Any] = [:]
            for (key, item) in dictionary {
                out[key] = isSensitive(key) && !(item is NSNull) ? "[redacted]" : redact(item)
            }
            return out
        }
        if let array = value as? [Any] { return array.map(redact) }
        return value
    }

    /// Whether a key's value is a secret or personal data.
    static func isSensitive(_ key: String) -> Bool {
        let lower = key.lowercased()
        if keptKeys.contains(lower) { return false }
        return redactedKeys.contains(lower) || redactedKeyParts.contains { lower.contains($0) }
    }
}
