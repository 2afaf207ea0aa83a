import KindredServerCore
import Crypto
import Foundation

/// Verifies `Stripe-Signature` headers as Stripe signs webhooks: `t=<unix seconds>,v1=<hex>[,v1=…][,v0=…]`,
/// where each `v1` is HMAC-SHA256 with the endpoint secret over `"<t>.<raw body>"`; any one
/// matching `v1` is enough, `v0` (test-mode legacy) is ignored, and `t` must be within the
/// tolerance of now. See https://docs.stripe.com/webhooks#verify-manually
struct StripeSignature: Sendable {
    /// Why a signature is refused (all 401 except `notConfigured`, a 500).
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// `KINDRED_STRIPE_WEBHOOK_SECRET` is not set.
        case notConfigured
        /// No header, or no `t` / `v1` in it.
        case malformedHeader
        /// `t` is further than the tolerance from now.
        case outsideTolerance
        /// No `v1` matches.
        case noMatchingSignature

        var description: String {
            switch self {
            case .notConfigured: "KINDRED_STRIPE_WEBHOOK_SECRET is not set"
            case .malformedHeader: "missing or malformed Stripe-Signature header"
            case .outsideTolerance: "the Stripe-Signature timestamp is outside the tolerance"
            case .noMatchingSignature: "no Stripe-Signature v1 signature matches"
            }
        }
    }

    let secret: String?
    let tolerance: Duration

    /// Verifies `header` for `payload` at `now`.
    /// - Throws: `Failure`.
    func verify(header: String?, payload: [UInt8], now: Date) throws(Failure) {
        guard let secret, !secret.isEmpty else { throw .notConfigured }
        guard let header else { throw .malformedHeader }
        var timestamp: Int64?
        var signatures: [[UInt8]] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0] {
            case "t": timestamp = Int64(pair[1])
            case "v1": if let bytes = Self.hexBytes(pair[1]) { signatures.append(bytes) }
            default: continue
            }
        }
        guard let timestamp, !signatures.isEmpty else { throw .malformedHeader }
        let age = now.timeIntervalSince1970 - TimeInterval(timestamp)
        guard abs(age) <= Double(tolerance.components.seconds) else { throw .outsideTolerance }
        let expected = Self.signature(secret: secret, timestamp: timestamp, payload: payload)
        guard signatures.contains(where: { RevenueCatWebhookAuthenticator.constantTimeEqual($0, expected) }) else {
            throw .noMatchingSignature
        }
    }

    /// HMAC-SHA256(secret, "<timestamp>.<payload>").
    static func signature(secret: String, timestamp: Int64, payload: [UInt8]) -> [UInt8] {
        var message = Array("\(timestamp).".utf8)
        message.append(contentsOf: payload)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Array(secret.utf8)))
        return Array(mac)
    }

    /// Decodes lower- or upper-case hex; nil for anything else.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0, utf8.count <= 256 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
