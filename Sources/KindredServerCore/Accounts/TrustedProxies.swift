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

    /// No trusted proxies.
    public init() {}

    /// Parses addresses and CIDR blocks (`10.0.0.0/8`, `::1`, `192.168.1.7`).
    /// - Throws: `SettingsError` naming the entry that is not an address or block.
    public init(_ entries: [String]) throws {
        for entry in entries.map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
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
