@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Testing

/// Client addresses: the TCP peer, or `X-Forwarded-For` only behind a trusted proxy.
@Suite struct TrustedProxiesTests {
    @Test func withoutTrustedProxiesThePeerIsTheClient() throws {
        let none = TrustedProxies()
        #expect(none.clientAddress(peer: "203.0.113.9", forwardedFor: ["198.51.100.1"]) == "203.0.113.9")
        #expect(none.clientAddress(peer: nil, forwardedFor: ["198.51.100.1"]) == "unknown")
    }

    @Test func behindTrustedProxiesTheRightmostUntrustedHopIsTheClient() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8", " 192.168.1.7 ", "fd00::/8"])
        // The client may write anything on the left; the proxy appended the real peer.
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["6.6.6.6, 198.51.100.4"]) == "198.51.100.4")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["198.51.100.4", "10.9.9.9"]) == "198.51.100.4")
        #expect(proxies.clientAddress(peer: "192.168.1.7", forwardedFor: ["2001:db8::1"]) == "2001:db8::1")
        #expect(proxies.clientAddress(peer: "fd12::1", forwardedFor: ["203.0.113.5"]) == "203.0.113.5")
        // An untrusted peer's header is ignored; garbage never becomes an address.
        #expect(proxies.clientAddress(peer: "192.168.1.8", forwardedFor: ["198.51.100.4"]) == "192.168.1.8")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["not-an-ip"]) == "10.1.2.3")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: []) == "10.1.2.3")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["10.4.4.4"]) == "10.4.4.4")
    }

    @Test func badEntriesAreRefusedWithTheirName() {
        #expect(throws: ServerSettings.Invalid(description: "trustedProxies: 10.0.0.0/33 has a bad prefix length")) {
            try TrustedProxies(["10.0.0.0/33"])
        }
        #expect(throws: ServerSettings.Invalid(description: "trustedProxies: proxy.local is not an IP address or CIDR block")) {
            try TrustedProxies(["proxy.local"])
        }
        // scripts/fuzz forwarded-for: an entry of slashes once trapped (no address part at all).
        for entry in ["/", "//", "/8"] {
            #expect(throws: ServerSettings.Invalid(description: "trustedProxies: \(entry) is not an IP address or CIDR block")) {
                try TrustedProxies([entry])
            }
        }
        #expect(throws: ServerSettings.Invalid(description: "trustedProxies: 10.0.0.0/ has a bad prefix length")) {
            try TrustedProxies(["10.0.0.0/"])
        }
    }

    @Test func loopbackAddresses() {
        #expect(TrustedProxies.isLoopback("127.0.0.1"))
        #expect(TrustedProxies.isLoopback("127.8.9.10"))
        #expect(TrustedProxies.isLoopback("::1"))
        #expect(!TrustedProxies.isLoopback("10.0.0.1"))
        #expect(!TrustedProxies.isLoopback("unknown"))
    }
}
