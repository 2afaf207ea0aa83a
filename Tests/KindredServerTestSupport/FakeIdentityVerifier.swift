import Foundation
import BillingServer
import KindredServer
import KindredServerCore

/// Accepts tokens of the form `provider|subject|email` for tests of the sign-in flows (the real
/// JWKS verification has its own tests); anything else is refused as the real one refuses.
///
/// A fourth part, `provider|subject|email|nonce-claim`, makes the token behave like a real one
/// towards `IdentityTokenUse`: it has an expiry (so a second use is refused) and, when the part
/// is not empty, that `nonce` claim. Three-part tokens may be reused (most tests sign in twice).
package struct FakeIdentityVerifier: IdentityVerifying {
    package init() {}

    package func verify(provider: AppConfiguration.AuthProvider, idToken: String, app: AppConfiguration) async throws -> IdentityClaims {
        let parts = idToken.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 || parts.count == 4, parts[0] == provider.rawValue, !parts[1].isEmpty else {
            throw KindredError.refused(status: 401, code: "invalid_identity_token", message: "the identity token is not valid")
        }
        let email = parts[2].isEmpty ? nil : parts[2]
        guard parts.count == 4 else { return IdentityClaims(subject: parts[1], email: email) }
        return IdentityClaims(
            subject: parts[1], email: email, nonce: parts[3].isEmpty ? nil : parts[3], expiresAt: Date().addingTimeInterval(600)
        )
    }
}
