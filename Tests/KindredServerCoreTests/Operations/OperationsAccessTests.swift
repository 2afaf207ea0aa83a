@testable import KindredServerCore
import HTTPTypes
import Logging
import NIOCore
import Testing

/// Who may read `/metrics` and `/ready`: local clients, or remote ones with the operations token.
@Suite struct OperationsAccessTests {
    static let token = "0123456789abcdef0123456789abcdef"

    func scope(peer: String?, forwardedFor: String? = nil, authorization: String? = nil, proxies: [String] = []) throws -> RequestScope {
        var headers = HTTPFields()
        if let forwardedFor { headers[.xForwardedFor] = forwardedFor }
        if let authorization { headers[.authorization] = authorization }
        return RequestScope(
            app: nil, headers: headers, peer: try peer.map { try SocketAddress(ipAddress: $0, port: 40_000) },
            trustedProxies: try TrustedProxies(proxies), logger: Logger(label: "test")
        )
    }

    /// The code `check` refuses with, or nil when it lets the request through.
    func refusal(_ access: OperationsAccess, _ scope: RequestScope) -> String? {
        do {
            try access.check(scope)
            return nil
        } catch let error as KindredError {
            return error.code
        } catch {
            return "\(error)"
        }
    }

    @Test func localClientsReadWithoutAToken() throws {
        let closed = OperationsAccess(token: nil)
        #expect(refusal(closed, try scope(peer: "127.0.0.1")) == nil)
        #expect(refusal(closed, try scope(peer: "127.8.9.10")) == nil)
        #expect(refusal(closed, try scope(peer: "::1")) == nil)
        // No socket: an in-process call.
        #expect(refusal(closed, try scope(peer: nil)) == nil)
        #expect(refusal(closed, try scope(peer: "203.0.113.5")) == "operations_forbidden")
        #expect(refusal(closed, try scope(peer: "2001:db8::5")) == "operations_forbidden")
    }

    @Test func aLocalProxyMustBeTrustedForItsClientToCountAsLocal() throws {
        let closed = OperationsAccess(token: nil)
        // Relayed by a proxy on loopback that is not trusted: not local.
        #expect(refusal(closed, try scope(peer: "127.0.0.1", forwardedFor: "198.51.100.7")) == "operations_forbidden")
        // A trusted proxy: the forwarded client decides.
        #expect(refusal(closed, try scope(peer: "127.0.0.1", forwardedFor: "198.51.100.7", proxies: ["127.0.0.1/32"])) == "operations_forbidden")
        #expect(refusal(closed, try scope(peer: "127.0.0.1", forwardedFor: "127.0.0.1", proxies: ["127.0.0.1/32"])) == nil)
        // A forged header from a remote peer changes nothing.
        #expect(refusal(closed, try scope(peer: "203.0.113.5", forwardedFor: "127.0.0.1")) == "operations_forbidden")
    }

    @Test func remoteClientsNeedTheExactToken() throws {
        let open = OperationsAccess(token: Self.token)
        let remote = "203.0.113.5"
        #expect(refusal(open, try scope(peer: remote)) == "operations_token_required")
        #expect(refusal(open, try scope(peer: remote, authorization: "Bearer \(Self.token)")) == nil)
        #expect(refusal(open, try scope(peer: remote, authorization: "bearer \(Self.token)")) == nil)
        #expect(refusal(open, try scope(peer: remote, authorization: "Bearer \(Self.token)x")) == "operations_token_required")
        #expect(refusal(open, try scope(peer: remote, authorization: "Bearer \(Self.token.dropLast())")) == "operations_token_required")
        #expect(refusal(open, try scope(peer: remote, authorization: "Basic \(Self.token)")) == "operations_token_required")
        #expect(refusal(open, try scope(peer: remote, authorization: "Bearer ")) == "operations_token_required")
        #expect(refusal(open, try scope(peer: "127.0.0.1")) == nil)
    }
}
