import Foundation

/// Reads how long a response may be cached from its `Cache-Control` header (RFC 9111 §5.2.2).
enum CacheControl {
    /// The cache lifetime the header values allow, clamped to `minimum...maximum`.
    ///
    /// `max-age=N` gives N seconds; `no-store` and `no-cache` give zero (hence `minimum`);
    /// without either the lifetime is `default`.
    static func lifetime(
        of values: [String], default defaultLifetime: TimeInterval, minimum: TimeInterval, maximum: TimeInterval
    ) -> TimeInterval {
        var maxAge: TimeInterval?
        var mustNotReuse = false
        for directive in values.flatMap({ $0.split(separator: ",") }) {
            let parts = directive.split(separator: "=", maxSplits: 1)
            let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            switch name {
            case "no-store", "no-cache":
                mustNotReuse = true
            case "max-age" where parts.count == 2:
                let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " \t\""))
                // delta-seconds: digits only; a value too large for an Int is simply very long.
                if !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Double(value) {
                    maxAge = seconds
                }
            default:
                continue
            }
        }
        let lifetime = mustNotReuse ? 0 : (maxAge ?? defaultLifetime)
        return min(max(lifetime, minimum), maximum)
    }
}
