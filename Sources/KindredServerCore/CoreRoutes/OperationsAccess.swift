import Crypto
import HTTPTypes
import KindredCrypto

/// Who may read `/metrics` and `/ready` (issue 21, item 8; docs/server.md, "Operations
/// endpoints"): clients on this machine, and anyone presenting `Authorization: Bearer` with the
/// configured `operations.token`. `/health` stays public (load balancers probe it).
///
/// "On this machine" means a loopback client address as `RequestScope.clientAddress` works it
/// out, and no `X-Forwarded-For` unless the peer is a trusted proxy: a request relayed by a
/// proxy on the same machine that is not listed in `trustedProxies` came from elsewhere.
package struct OperationsAccess: Sendable {
    /// The bearer token (`operations.token`), nil when only local clients may read.
    package let token: String?

    /// Access with `token`.
    package init(token: String?) {
        self.token = token
    }

    /// Refuses the current request unless it is local or carries the token.
    /// - Throws: 401 `operations_token_required` when a token is configured and the request has
    ///   none or a wrong one; 403 `operations_forbidden` when none is configured and the client
    ///   is not local.
    package func check(_ scope: RequestScope) throws {
        if Self.isLocal(scope) { return }
        guard let token else { throw KindredError.operationsForbidden }
        guard let presented = Self.bearer(scope.authorization),
            ConstantTime.equals(Array(SHA256.hash(data: Array(presented.utf8))), Array(SHA256.hash(data: Array(token.utf8))))
        else { throw KindredError.operationsTokenRequired }
    }

    /// Whether the request comes from this machine.
    static func isLocal(_ scope: RequestScope) -> Bool {
        // No socket: an in-process call (the router tests); every network request has a peer.
        guard let peer = scope.peer?.ipAddress else { return scope.peer == nil }
        let forwarded = !scope.headers[values: .xForwardedFor].isEmpty
        if forwarded, !scope.trustedProxies.trusts(peer) { return false }
        return TrustedProxies.isLoopback(scope.clientAddress)
    }

    /// The token of a `Bearer` authorization header.
    static func bearer(_ header: String?) -> String? {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        return String(header.dropFirst(7))
    }
}

extension KindredError {
    /// 403 `operations_forbidden`: `/metrics` and `/ready` answer local clients only.
    package static let operationsForbidden = refused(
        status: 403, code: "operations_forbidden",
        message: "the operations endpoints answer clients on this machine only; set operations.token to read them remotely"
    )
    /// 401 `operations_token_required`: a remote read of `/metrics` or `/ready` needs the bearer token.
    package static let operationsTokenRequired = refused(
        status: 401, code: "operations_token_required",
        message: "send Authorization: Bearer with the operations token to read this endpoint remotely"
    )
}
