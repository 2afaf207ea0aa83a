import AsyncHTTPClient
import KindredStore
import Logging

/// The live `IdentityVerifying`: each app's Apple and Google tokens checked against the JWKS
/// its configuration names, with the app's own audiences.
///
/// One `IdentityTokenVerifier` (and so one key cache) exists per provider and key source, so
/// apps sharing Apple's default JWKS URL share one cache and one refetch throttle.
public struct JWKSIdentityVerifier: IdentityVerifying {
    private struct Key: Hashable {
        var provider: IdentityProvider
        var source: JWKSSource
    }

    private let verifiers: [Key: IdentityTokenVerifier]

    /// Builds the verifiers for every app of `apps`.
    /// - Parameters:
    ///   - apps: the apps and their JWKS sources.
    ///   - clock: the time tokens are checked against.
    ///   - httpClient: fetches URL key sets (AsyncHTTPClient's shared client by default).
    ///   - logger: key-set fetch failures are logged here.
    public init(
        apps: AppRegistry, clock: any WallClock, httpClient: HTTPClient = .shared,
        logger: Logger = Logger(label: "kindred.identity")
    ) {
        var verifiers: [Key: IdentityTokenVerifier] = [:]
        for app in apps.apps.values {
            for (provider, source) in [(IdentityProvider.apple, app.appleJWKS), (.google, app.googleJWKS)] {
                let key = Key(provider: provider, source: source)
                if verifiers[key] == nil {
                    verifiers[key] = IdentityTokenVerifier(
                        provider: provider, jwks: source, clock: clock, logger: logger, httpClient: httpClient
                    )
                }
            }
        }
        self.verifiers = verifiers
    }

    /// Verifies `idToken` for `app`.
    public func verify(provider: AppConfiguration.AuthProvider, idToken: String, app: AppConfiguration) async throws -> IdentityClaims {
        let (identityProvider, source, audiences): (IdentityProvider, JWKSSource, [String]) = switch provider {
        case .apple: (.apple, app.appleJWKS, app.appleAudiences)
        case .google: (.google, app.googleJWKS, app.googleAudiences)
        case .password: throw KindredError.providerDisabled("password", app: app.id)
        }
        guard let verifier = verifiers[Key(provider: identityProvider, source: source)] else {
            throw KindredError.identityProviderUnavailable
        }
        do {
            let identity = try await verifier.verify(idToken, audiences: audiences)
            return IdentityClaims(subject: identity.subject, email: identity.email, nonce: identity.nonce, expiresAt: identity.expiresAt)
        } catch {
            if error.isKeySetFailure { throw KindredError.identityProviderUnavailable }
            throw KindredError.invalidIdentityToken(error.message)
        }
    }
}
