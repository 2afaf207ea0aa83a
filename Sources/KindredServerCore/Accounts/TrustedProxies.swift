import Foundation
import NIOCore

/// The proxies whose `X-Forwarded-For` header is believed, and the client address of a request.
///
/// Without trusted proxies the client is the TCP peer. Behind them, the client is the rightmost
/// `X-Forwarded-For` entry that is not itself a trusted proxy (entries further left were written
/// by the client and prove nothing).
public struct TrustedProxies: Sendable, Equatable {
    /// A block of addresses: the first `prefixLength` bits of `address`.
    package struct Block: Sendable, Equatable {
        var address: [UInt8]
        var prefixLength: Int

        func contains(_ candidate: [UInt8]) -> Bool {
            guard candidate.count == address.count else { return false }
            var remaining = prefixLength
            for (a, b) in zip(address, candidate) where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if a & mask != b & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    /// The trusted blocks.
    package var blocks: [Block] = []
    /// How many leading bits of an IPv6 client address identify the client for per-address
    /// limits (64 by default: one customer's network, which a client can rotate within freely).
    /// 128 keys on the whole address; IPv4 clients are always keyed on their whole address.
    public var ipv6ClientPrefixLength: Int = 64

    /// No trusted proxies.
    public init() {}

    /// Parses addresses and CIDR blocks (`10.0.0.0/8`, `::1`, `192.168.1.7`).
    /// - Throws: `SettingsError` naming the entry that is not an address or block.
    public init(_ entries: [String]) throws {
        for entry in entries.map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            // Empty parts kept: `/8` or `/` has an empty address (refused), never no address at all.
            let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let bytes = Self.bytes(of: parts[0]) else {
                throw SettingsError(description: "trustedProxies: \(entry) is not an IP address or CIDR block")
            }
            var length = bytes.count * 8
            if parts.count == 2 {
                guard let given = Int(parts[1]), (0...length).contains(given) else {
                    throw SettingsError(description: "trustedProxies: \(entry) has a bad prefix length")
                }
                length = given
            }
            blocks.append(Block(address: bytes, prefixLength: length))
        }
    }

    /// Whether `address` is a trusted proxy.
    package func trusts(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address) else { return false }
        return blocks.contains { $0.contains(bytes) }
    }

    /// The client address of a request from `peer` carrying `forwardedFor` headers.
    /// - Returns: an IP address text, or `unknown` when the peer has none.
    package func clientAddress(peer: String?, forwardedFor: [String]) -> String {
        guard let peer else { return "unknown" }
        guard !blocks.isEmpty, trusts(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard Self.bytes(of: hop) != nil else { return peer }  // garbage: do not guess
            if !trusts(hop) { return hop }
        }
        return hops.first ?? peer
    }

    /// The key that per-address limits count `address` under: an IPv4 address as it is, an
    /// IPv6 address as its first `ipv6ClientPrefixLength` bits (`2001:db8:0:7::/64`; an
    /// IPv4-mapped one as its IPv4 address), anything else as it is.
    package func rateLimitKey(for address: String) -> String {
        guard let bytes = Self.bytes(of: address), bytes.count == 16 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        let length = min(128, max(0, ipv6ClientPrefixLength))
        guard length < 128 else { return address }
        var masked = bytes
        for index in masked.indices {
            let kept = min(8, max(0, length - index * 8))
            masked[index] &= UInt8(truncatingIfNeeded: 0xFF << (8 - kept))
        }
        let groups = stride(from: 0, to: 16, by: 2).map { String(UInt16(masked[$0]) << 8 | UInt16(masked[$0 + 1]), radix: 16) }
        return Self.compressed(groups) + "/\(length)"
    }

    /// IPv6 text of eight hex groups, the longest run (≥ 2) of zero groups written `::`.
    private static func compressed(_ groups: [String]) -> String {
        var best = (start: -1, count: 0)
        var index = 0
        while index < groups.count {
            guard groups[index] == "0" else { index += 1; continue }
            var end = index
            while end < groups.count, groups[end] == "0" { end += 1 }
            if end - index > best.count { best = (index, end - index) }
            index = end
        }
        guard best.count >= 2 else { return groups.joined(separator: ":") }
        let head = groups[..<best.start].joined(separator: ":")
        let tail = groups[(best.start + best.count)...].joined(separator: ":")
        return head + "::" + tail
    }

    /// Whether `address` is a loopback address (127.0.0.0/8 or ::1).
    package static func isLoopback(_ address: String) -> Bool {
        guard let bytes = bytes(of: address) else { return false }
        return bytes.count == 4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
    }

    /// The bytes of an IPv4 or IPv6 address, or nil when it is neither.
    package static func bytes(of text: String) -> [UInt8]? {
        guard let address = try? SocketAddress(ipAddress: text, port: 0) else { return nil }
        switch address {
        case .v4(let v4):
            return withUnsafeBytes(of: v4.address.sin_addr.s_addr) { Array($0) }
        case .v6(let v6):
            return withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
        case .unixDomainSocket:
            return nil
        }
    }
}
