@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Crypto
import Foundation
import Testing


/// The claims' plain JSON is byte for byte what `JSONEncoder` writes, and anything else is
/// left to the coders.
@Suite struct AccessTokenClaimsJSONTests {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static func claims(app: String = "closer", sub: String = UUID().uuidString.lowercased(), iat: Int64 = 1_767_225_600) -> AccessTokenClaims {
        AccessTokenClaims(iss: "kindred", sub: sub, sid: UUID().uuidString.lowercased(), app: app, iat: iat, exp: iat + 900)
    }

    @Test func plainClaimsAreWrittenAsTheEncoderWritesThemAndReadBack() throws {
        for claims in [Self.claims(), Self.claims(app: "pulse", iat: 0), Self.claims(sub: "A_b-9.z", iat: 999_999_999_999)] {
            let json = claims.json(fallback: Self.encoder)
            #expect(json == Array(try Self.encoder.encode(claims)))
            #expect(AccessTokenClaims.parsePlain(json) == claims)
        }
    }

    @Test func otherTextsUseTheEncoder() throws {
        let claims = Self.claims(sub: "a\"b/c é")
        #expect(claims.json(fallback: Self.encoder) == Array(try Self.encoder.encode(claims)))
        #expect(AccessTokenClaims.parsePlain(claims.json(fallback: Self.encoder)) == nil)
    }

    @Test func otherFormsAreNotParsed() {
        let forms = [
            #"{"exp":1,"app":"closer","iat":0,"iss":"kindred","sid":"s","sub":"u"}"#,
            #"{"app":"closer","exp":01,"iat":0,"iss":"kindred","sid":"s","sub":"u"}"#,
            #"{"app":"closer","exp":-1,"iat":0,"iss":"kindred","sid":"s","sub":"u"}"#,
            #"{"app":"closer","exp":1,"iat":0,"iss":"kindred","sid":"s","sub":"u"} "#,
            #"{"app":"clo\u0073er","exp":1,"iat":0,"iss":"kindred","sid":"s","sub":"u"}"#,
            #"{"app":"closer","exp":1234567890123456789,"iat":0,"iss":"kindred","sid":"s","sub":"u"}"#,
            #"{"app":"closer","exp":1,"iat":0,"iss":"kindred","sid":"s","sub":"u""#,
        ]
        for form in forms {
            #expect(AccessTokenClaims.parsePlain(Array(form.utf8)) == nil, "\(form)")
        }
        #expect(
            AccessTokenClaims.parsePlain(Array(#"{"app":"closer","exp":10,"iat":0,"iss":"kindred","sid":"s","sub":"u"}"#.utf8))
                == AccessTokenClaims(iss: "kindred", sub: "u", sid: "s", app: "closer", iat: 0, exp: 10)
        )
    }
}

/// The codec's memory of verified tokens: only a token whose MAC checked out is remembered,
/// expiry is checked on every use, and the memory is bounded.
@Suite struct VerifiedTokensTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)

    @Test func onlyVerifiedTokensAreRememberedAndExpiryIsCheckedOnEveryUse() throws {
        let codec = AccessTokenCodec(keys: ["k1": SymmetricKey(size: .bits256)], currentKeyID: "k1")
        // The same key id under another key: what a forger without the key would produce.
        let forger = AccessTokenCodec(keys: ["k1": SymmetricKey(size: .bits256)], currentKeyID: "k1")
        let claims = AccessTokenClaimsJSONTests.claims(iat: Int64(Self.now.timeIntervalSince1970))
        let forged = forger.sign(claims)
        #expect(throws: AccessTokenCodec.Refusal.invalid("the access token's signature is wrong")) {
            try codec.verify(forged, now: Self.now)
        }
        let token = codec.sign(claims)
        #expect(try codec.verify(token, now: Self.now) == claims)
        #expect(try codec.verify(token, now: Self.now) == claims)  // remembered
        // Remembering the real token does not make the forged one (same claims) acceptable.
        #expect(throws: AccessTokenCodec.Refusal.invalid("the access token's signature is wrong")) {
            try codec.verify(forged, now: Self.now)
        }
        #expect(throws: AccessTokenCodec.Refusal.expired) { try codec.verify(token, now: Self.now + 900) }
        #expect(try codec.verify(token, now: Self.now + 899) == claims)
    }

    @Test func theMemoryIsBounded() {
        let memory = VerifiedTokens(capacity: 2)
        let claims = AccessTokenClaimsJSONTests.claims()
        memory.remember("a", claims: claims)
        memory.remember("b", claims: claims)
        #expect(memory.count == 2)
        memory.remember("c", claims: claims)
        #expect(memory.count == 1)
        #expect(memory.claims(of: "a") == nil)
        #expect(memory.claims(of: "c") == claims)
    }
}

/// Tokens are HS256 JWS over the claims: each signature is the one-shot HMAC of its own signing
/// input (the codec signs by copying an HMAC keyed once, so every copy must start clean).
@Suite struct AccessTokenSigningTests {
    @Test func everySignatureIsTheOneShotHMACOfItsSigningInput() throws {
        let key = SymmetricKey(size: .bits256)
        let codec = AccessTokenCodec(keys: ["k1": key, "k0": SymmetricKey(size: .bits256)], currentKeyID: "k1")
        for index in 0..<50 {
            let token = codec.sign(AccessTokenClaimsJSONTests.claims(iat: 1_767_225_600 + Int64(index)))
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            try #require(parts.count == 3)
            let header = try #require(Data(base64URLEncoded: String(parts[0])))
            #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"HS256","kid":"k1","typ":"JWT"}"#)
            let expected = HMAC<SHA256>.authenticationCode(for: Data("\(parts[0]).\(parts[1])".utf8), using: key)
            #expect(try #require(Data(base64URLEncoded: String(parts[2]))) == Data(expected))
        }
    }
}

extension Data {
    /// Base64url without padding, as JWS writes it.
    fileprivate init?(base64URLEncoded text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
