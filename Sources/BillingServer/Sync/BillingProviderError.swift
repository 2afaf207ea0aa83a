import KindredServerCore

/// Why a call to a provider's API failed.
public enum BillingProviderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The provider's key is not configured.
    case notConfigured(BillingProvider)
    /// The provider answered with an unexpected status.
    case status(BillingProvider, Int, String)
    /// The provider could not be reached.
    case unreachable(BillingProvider, String)
    /// The provider's answer is not in its documented shape.
    case malformed(BillingProvider, String)

    /// A one-line description (no secrets).
    public var description: String {
        switch self {
        case .notConfigured(let provider): "\(provider.rawValue) is not configured"
        case .status(let provider, let status, let message): "\(provider.rawValue) answered \(status): \(message)"
        case .unreachable(let provider, let why): "\(provider.rawValue) is unreachable: \(why)"
        case .malformed(let provider, let why): "\(provider.rawValue) answered in an unexpected shape: \(why)"
        }
    }

    /// The provider concerned.
    public var provider: BillingProvider {
        switch self {
        case .notConfigured(let provider), .status(let provider, _, _), .unreachable(let provider, _),
            .malformed(let provider, _):
            provider
        }
    }
}
