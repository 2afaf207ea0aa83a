// The server's readers of request bytes are internal to their targets (they are not API), so the
// fuzz targets reach them as the tests do: `@testable import` (debug builds are testable; the
// sanitizer build passes `-enable-testing`, see scripts/fuzz).
@testable import AdminConsole
@testable import BillingServer
import Foundation
@testable import KindredServerCore

extension FuzzTargets {
    /// What a server reads from a request before anyone is authenticated: identity tokens,
    /// webhook signatures and bodies, admin forms, `X-Forwarded-For`, realtime frames.
    static let serverTargets: [FuzzTarget] = [
        FuzzTarget(name: "identity-token", summary: "IdentityTokenVerifier.parse (the Apple/Google id token's JWS reader)", body: identityToken),
        identityKeySetTarget,
        FuzzTarget(name: "stripe-signature", summary: "StripeSignature.verify and RevenueCat's Authorization/X-RevenueCat-Signature check", body: webhookSignature),
        FuzzTarget(name: "billing-webhook", summary: "the webhook headers, BillingApplier.decode and the inbox envelope's JSON", body: billingWebhook),
        FuzzTarget(name: "admin-form", summary: "AdminForm(encoded:), the console's form bodies", body: adminForm),
        FuzzTarget(name: "forwarded-for", summary: "TrustedProxies: X-Forwarded-For hops, addresses, rate-limit keys", body: forwardedFor),
        FuzzTarget(name: "realtime-frame", summary: "RealtimeFrame.parse and the server frames' JSON quoting", body: realtimeFrame),
    ]

    /// A token that parses has a `kid`; the loggable form is short and safe.
    static func identityToken(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        let string = text(input)
        let parsed = try? IdentityTokenVerifier.parse(string)
        if let token = parsed {
            try expect(!token.kid.isEmpty, "identity-token", "a parsed token has an empty kid")
        }
        let loggable = IdentityTokenVerifier.loggable(string)
        try expect(loggable.count <= 20, "identity-token", "loggable() returned \(loggable.count) characters")
        return parsed != nil
    }

    /// The secret and clock the signature target verifies with (the corpus is signed with them).
    static let stripeSecret = "whsec_fuzz"
    /// 2023-11-14 22:13:20 UTC, the `t` of the corpus headers.
    static let stripeNow = Date(timeIntervalSince1970: 1_700_000_000)

    /// Line 1 is the signature header, the rest the body: verification refuses or accepts, never
    /// traps; hex that decodes re-encodes to itself.
    static func webhookSignature(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        let parts = lines(input)
        let header = parts.first ?? ""
        let body = Array(parts.dropFirst().joined(separator: "\n").utf8)
        let stripe = StripeSignature(secret: stripeSecret, tolerance: .seconds(300))
        let stripeVerified = (try? stripe.verify(header: header, payload: body, now: stripeNow)) != nil
        for field in header.split(separator: ",") {
            let value = String(field.drop { $0 != "=" }.dropFirst())
            if let bytes = StripeSignature.hexBytes(value) {
                let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
                try expect(hex == value.lowercased(), "stripe-signature", "hexBytes(\(value)) re-encodes as \(hex)")
            }
        }
        let revenueCat = RevenueCatWebhookAuthenticator(
            authorization: "Bearer fuzz", signingKey: "MCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="
        )
        let revenueCatVerified = (try? revenueCat.verify(authorizationHeader: "Bearer fuzz", signatureHeader: header, body: body)) != nil
        _ = RevenueCatWebhookAuthenticator.publicKey(spkiBase64: header)
        return stripeVerified || revenueCatVerified
    }

    /// The body as both providers' webhooks read it; the inbox envelope's hand-written JSON
    /// decodes to the same envelope.
    static func billingWebhook(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        let data = Data(input)
        let revenueCat = try? JSONDecoder().decode(RevenueCatWebhookHeader.self, from: data).event
        let stripe = try? JSONDecoder().decode(StripeEventHeader.self, from: data)
        for provider in BillingProvider.allCases {
            let envelope = BillingInbox.Envelope(
                provider: provider,
                eventID: (provider == .stripe ? stripe?.id : revenueCat?.id) ?? "evt_fuzz",
                type: (provider == .stripe ? stripe?.type : revenueCat?.type) ?? "fuzz",
                body: text(input), receivedAt: 1_700_000_000_000
            )
            _ = try? BillingApplier.decode(envelope)
            let decoded = try? JSONDecoder().decode(BillingInbox.Envelope.self, from: Data(envelope.jsonText.utf8))
            try expect(decoded == envelope, "billing-webhook", "the \(provider.rawValue) envelope's jsonText does not decode to the envelope")
        }
        return revenueCat != nil || stripe != nil
    }

    /// Every field of a parsed form has a name, and `raw` returns what was parsed.
    static func adminForm(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        let form = AdminForm(encoded: Substring(text(input)))
        for (name, value) in form.fields {
            try expect(!name.isEmpty, "admin-form", "a field with an empty name")
            try expect(form.raw(name) == value, "admin-form", "raw(\(name)) differs from the parsed value")
            _ = form[name]
        }
        return !form.fields.isEmpty
    }

    /// The proxies the forwarded-for target trusts.
    static let trustedProxies = try? TrustedProxies(["10.0.0.0/8", "127.0.0.1", "::1", "fd00::/8"])

    /// Line 1 is the peer, the rest `X-Forwarded-For` values: the client is the peer or one of the hops.
    static func forwardedFor(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        let proxies = try FuzzFixtures.loaded(trustedProxies, "forwarded-for", "trusted proxies")
        let parts = lines(input)
        let peer = parts.first ?? ""
        let headers = Array(parts.dropFirst())
        let client = proxies.clientAddress(peer: peer, forwardedFor: headers)
        let hops = headers.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        try expect(client == peer || hops.contains(client), "forwarded-for", "client \(client) is neither the peer nor a hop")
        _ = proxies.rateLimitKey(for: client)
        for part in parts {
            if let bytes = TrustedProxies.bytes(of: part) {
                try expect(bytes.count == 4 || bytes.count == 16, "forwarded-for", "an address of \(bytes.count) bytes")
            }
        }
        _ = try? TrustedProxies(parts)
        return TrustedProxies.bytes(of: client) != nil
    }

    /// The frame a server frame names a channel in.
    private struct ChannelFrame: Decodable, Equatable {
        var op: String
        var channel: String
        var seq: Int64
    }

    /// Client frames parse or are refused; any text quoted into a server frame reads back as itself.
    static func realtimeFrame(_ input: [UInt8]) throws(FuzzFinding) -> Bool {
        let string = text(input)
        let parsed = try? RealtimeFrame.parse(string)
        if case .subscribe(_, let after)? = parsed {
            try expect(after.map { $0 >= 0 } ?? true, "realtime-frame", "a subscribe frame with a negative after")
        }
        let frame = RealtimeFrame.subscribed(string, seq: 7)
        let decoded = try? JSONDecoder().decode(ChannelFrame.self, from: Data(frame.utf8))
        try expect(decoded == ChannelFrame(op: "subscribed", channel: string, seq: 7), "realtime-frame", "a quoted channel does not read back as itself")
        return parsed != nil
    }
}
