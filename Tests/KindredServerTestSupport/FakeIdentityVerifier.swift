import BillingServer
import KindredServer
import KindredServerCore

/// Accepts tokens of the form `provider|subject|email` for tests of the sign-in flows (the real
/// JWKS verification has its own tests); anything else is refused as the real one refuses.
package struct FakeIdentityVerifier: IdentityVerifying {
    package init() {}

    package func verify(provider: AppConfiguration.AuthProvider, idToken: String, app: AppConfiguration) async throws -> IdentityClaims {
        let parts = idToken.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0] == provider.rawValue, !parts[1].isEmpty else {
            throw KindredError.refused(status: 401, code: "invalid_identity_token", message: "the identity token is not valid")
        }
        return IdentityClaims(subject: parts[1], email: parts[2].isEmpty ? nil : parts[2])
    }
}
