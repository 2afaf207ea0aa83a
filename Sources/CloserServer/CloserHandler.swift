import CloserAPI
import KindredServerCore
import KindredStore

/// The implementation of Closer's generated server protocol (`CloserAPI.APIProtocol`): each
/// operation authenticates the caller, checks it is a Closer account and delegates to
/// `CloserController`. The operations live in `CloserHandler+Pairing.swift` and
/// `CloserHandler+Days.swift`.
///
/// A final class, not a struct: the generated server copies its handler into several closures per
/// request, and a class copy is one retain.
final class CloserHandler: APIProtocol, Sendable {
    let closer: CloserController
    let authenticator: Authenticator
    let rateLimiter: RateLimiter

    init(closer: CloserController, authenticator: Authenticator, rateLimiter: RateLimiter) {
        self.closer = closer
        self.authenticator = authenticator
        self.rateLimiter = rateLimiter
    }
}
