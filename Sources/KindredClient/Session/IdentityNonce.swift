import Crypto
import Foundation

/// The nonce of one Sign in with Apple or Google attempt: give the provider `sha256Hex` (its
/// `nonce` parameter), then send the token to Kindred with this nonce. The server checks that
/// the token's `nonce` claim is the hash of it, so a token copied without the nonce is useless.
public struct IdentityNonce: Sendable, Equatable {
    /// The nonce itself (sent to Kindred only).
    public let value: String

    /// A nonce from its text (8 to 256 bytes, as the server accepts).
    public init?(_ value: String) {
        guard (8...256).contains(value.utf8.count) else { return nil }
        self.value = value
    }

    /// A fresh nonce: 32 random bytes, base64url without padding.
    public static func random() -> IdentityNonce {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let text = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return IdentityNonce(unchecked: text)
    }

    private init(unchecked value: String) { self.value = value }

    /// What the app gives the provider: the lower-case hex SHA-256 of `value`.
    public var sha256Hex: String {
        SHA256.hash(data: Data(value.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
