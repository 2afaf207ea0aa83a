@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import Testing

/// The checks of `IdentityTokenVerifier` on tokens, with inline and file key sets.
/// (Key sets over HTTP: `IdentityTokenVerifierTests.KeySetOverHTTP`.)
@Suite struct IdentityTokenVerifierTests {
    let apple: TestIdentityIssuer
    let google: TestIdentityIssuer
    let clock = TestClock()

    init() throws {
        apple = try TestIdentityIssuer.shared(provider: .apple, kid: "apple-key-1")
        google = try TestIdentityIssuer.shared(provider: .google, kid: "google-key-1")
    }

    /// Verifies `token` with `issuer`'s inline JWKS and the shared clock.
    func verify(
        _ token: String, with issuer: TestIdentityIssuer, audiences: [String]? = nil
    ) async throws(IdentityTokenError) -> VerifiedIdentity {
        try await issuer.verifier(clock: clock).verify(token, audiences: audiences ?? [issuer.defaultAudience])
    }

    /// An Apple verifier on the shared clock with keys from `source`.
    func appleVerifier(_ source: JWKSSource) -> IdentityTokenVerifier {
        IdentityTokenVerifier(provider: .apple, jwks: source, clock: clock, logger: .quietForIdentityTests)
    }

    // MARK: - Valid tokens

    @Test func acceptsAValidAppleToken() async throws {
        let token = try apple.token(extraClaims: ["is_private_email": "true"])
        let identity = try await verify(token, with: apple)
        #expect(
            identity
                == VerifiedIdentity(
                    provider: .apple, subject: TestIdentityIssuer.defaultSubject, email: "someone@example.com",
                    emailVerified: true, isPrivateRelayEmail: true,
                    issuedAt: TestIdentityIssuer.defaultIssuedAt,
                    expiresAt: TestIdentityIssuer.defaultIssuedAt.addingTimeInterval(600)))
    }

    @Test(arguments: ["https://accounts.google.com", "accounts.google.com"])
    func acceptsAValidGoogleTokenFromEitherIssuer(issuer: String) async throws {
        let token = try google.token(subject: "110169484474386276334", issuer: issuer, emailVerified: "true")
        let identity = try await verify(token, with: google)
        #expect(identity.provider == .google)
        #expect(identity.subject == "110169484474386276334")
        #expect(identity.emailVerified == true)
        #expect(identity.isPrivateRelayEmail == nil)
    }

    @Test func acceptsAnAudienceArrayThatNamesOneAcceptedAudience() async throws {
        let token = try google.token(audience: ["someone-else", "dev.kindred.closer.apps.googleusercontent.com"])
        let identity = try await verify(token, with: google, audiences: ["other-app", google.defaultAudience])
        #expect(identity.subject == TestIdentityIssuer.defaultSubject)
    }

    @Test(arguments: [
        (TestClaim.bool(true), true), (.bool(false), false), (.string("true"), true), (.string("false"), false),
    ] as [(TestClaim, Bool)])
    func readsEmailVerifiedAsABooleanOrAString(sent: TestClaim, read: Bool) async throws {
        let identity = try await verify(try apple.token(emailVerified: sent), with: apple)
        #expect(identity.emailVerified == read)
    }

    @Test func leavesAbsentEmailClaimsNil() async throws {
        let identity = try await verify(try apple.token(email: nil, emailVerified: nil), with: apple)
        #expect(identity.email == nil)
        #expect(identity.emailVerified == nil)
        #expect(identity.isPrivateRelayEmail == nil)
    }

    @Test func refusesAnEmailVerifiedThatIsNeitherBooleanNorTrueOrFalse() async throws {
        let token = try apple.token(emailVerified: "yes")
        await #expect(throws: IdentityTokenError.malformed) { try await verify(token, with: apple) }
    }

    // MARK: - Audience and issuer

    @Test func refusesAnotherAudience() async throws {
        let single = try apple.token(audience: "com.example.other")
        await #expect(throws: IdentityTokenError.wrongAudience) { try await verify(single, with: apple) }
        let array = try apple.token(audience: ["com.example.other", "com.example.third"])
        await #expect(throws: IdentityTokenError.wrongAudience) { try await verify(array, with: apple) }
        let missing = try apple.token(audience: .null)
        await #expect(throws: IdentityTokenError.wrongAudience) { try await verify(missing, with: apple) }
    }

    @Test func refusesEveryTokenWhenNoAudienceIsAccepted() async throws {
        let token = try apple.token()
        await #expect(throws: IdentityTokenError.wrongAudience) {
            try await verify(token, with: apple, audiences: [])
        }
    }

    @Test func refusesAnotherIssuer() async throws {
        let google = try apple.token(issuer: "https://accounts.google.com")
        await #expect(throws: IdentityTokenError.wrongIssuer) { try await verify(google, with: apple) }
        let lookalike = try apple.token(issuer: "https://appleid.apple.com/")
        await #expect(throws: IdentityTokenError.wrongIssuer) { try await verify(lookalike, with: apple) }
        var claims = apple.claims()
        claims["iss"] = nil
        let missing = try apple.signedToken(header: ["alg": "RS256", "kid": "apple-key-1"], claims: claims)
        await #expect(throws: IdentityTokenError.wrongIssuer) { try await verify(missing, with: apple) }
    }

    // MARK: - Time

    @Test func refusesATokenExpiredByMoreThanTheLeeway() async throws {
        let token = try apple.token()
        let expiry = TestIdentityIssuer.defaultIssuedAt.addingTimeInterval(TestIdentityIssuer.defaultLifetime)
        clock.set(expiry.addingTimeInterval(59))
        #expect(try await verify(token, with: apple).expiresAt == expiry)
        clock.set(expiry.addingTimeInterval(60))
        await #expect(throws: IdentityTokenError.expired) { try await verify(token, with: apple) }
        clock.advance(by: .seconds(3600))
        await #expect(throws: IdentityTokenError.expired) { try await verify(token, with: apple) }
    }

    @Test func refusesATokenIssuedMoreThanTheLeewayAhead() async throws {
        let now = clock.now()
        let slightlyAhead = try apple.token(issuedAt: now.addingTimeInterval(60))
        #expect(try await verify(slightlyAhead, with: apple).issuedAt == now.addingTimeInterval(60))
        let ahead = try apple.token(issuedAt: now.addingTimeInterval(61))
        await #expect(throws: IdentityTokenError.issuedInFuture) { try await verify(ahead, with: apple) }
    }

    // MARK: - Subject

    @Test func refusesAMissingEmptyOrOverlongSubject() async throws {
        let longest = String(repeating: "s", count: 255)
        #expect(try await verify(try apple.token(subject: longest), with: apple).subject == longest)
        for subject in ["", String(repeating: "s", count: 256), String(repeating: "é", count: 128)] {
            let token = try apple.token(subject: subject)
            await #expect(throws: IdentityTokenError.missingSubject) { try await verify(token, with: apple) }
        }
        var claims = apple.claims()
        claims["sub"] = nil
        let missing = try apple.signedToken(header: ["alg": "RS256", "kid": "apple-key-1"], claims: claims)
        await #expect(throws: IdentityTokenError.missingSubject) { try await verify(missing, with: apple) }
    }

    // MARK: - Signature, algorithm, key

    @Test func refusesATokenSignedByAnotherKeyWithTheSameKid() async throws {
        let forged = try apple.impostor().token()
        await #expect(throws: IdentityTokenError.badSignature) { try await verify(forged, with: apple) }
    }

    @Test func refusesAPayloadSwappedUnderAValidSignature() async throws {
        let genuine = try apple.token().split(separator: ".")
        let other = try apple.token(subject: "someone-else").split(separator: ".")
        let spliced = [genuine[0], other[1], genuine[2]].joined(separator: ".")
        await #expect(throws: IdentityTokenError.badSignature) { try await verify(spliced, with: apple) }
    }

    @Test func refusesAKidTheKeySetDoesNotHold() async throws {
        let token = try apple.token(kid: "apple-key-2")
        await #expect(throws: IdentityTokenError.unknownKey) { try await verify(token, with: apple) }
    }

    @Test func refusesEveryAlgorithmButRS256() async throws {
        await #expect(throws: IdentityTokenError.unsupportedAlgorithm("none")) {
            try await verify(apple.unsecuredToken(), with: apple)
        }
        await #expect(throws: IdentityTokenError.unsupportedAlgorithm("HS256")) {
            try await verify(apple.hs256Token(), with: apple)
        }
        for alg in ["ES256", "PS256", "RS512", "rs256"] {
            let token = try apple.signedToken(header: ["alg": .string(alg), "kid": "apple-key-1"])
            await #expect(throws: IdentityTokenError.unsupportedAlgorithm(alg)) { try await verify(token, with: apple) }
        }
        let odd = try apple.signedToken(header: ["alg": "RS256\"<script>", "kid": "apple-key-1"])
        await #expect(throws: IdentityTokenError.unsupportedAlgorithm("RS256script")) { try await verify(odd, with: apple) }
    }

    // MARK: - Malformed tokens

    @Test(arguments: [
        "", "abc", "abc.def", "a.b.c.d", "...", "!!!.@@@.###",
        "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0=.c2ln", "eyJhbGciOiJSUzI1NiJ9 .e30.c2ln",
    ])
    func refusesStringsThatAreNotCompactJWS(token: String) async throws {
        await #expect(throws: IdentityTokenError.malformed) { try await verify(token, with: apple) }
    }

    @Test func refusesAHeaderOrPayloadThatIsNotJSON() async throws {
        let claims = TestIdentityIssuer.json(apple.claims())
        let badHeader = try apple.signedToken(headerJSON: #"{"alg":"RS256","#, payloadJSON: claims)
        await #expect(throws: IdentityTokenError.malformed) { try await verify(badHeader, with: apple) }
        let badPayload = try apple.signedToken(headerJSON: #"{"alg":"RS256","kid":"apple-key-1"}"#, payloadJSON: "not json")
        await #expect(throws: IdentityTokenError.malformed) { try await verify(badPayload, with: apple) }
        let arrayPayload = try apple.signedToken(headerJSON: #"{"alg":"RS256","kid":"apple-key-1"}"#, payloadJSON: "[1]")
        await #expect(throws: IdentityTokenError.malformed) { try await verify(arrayPayload, with: apple) }
    }

    @Test func refusesAHeaderWithoutAlgOrKidOrWithCrit() async throws {
        for header: [String: TestClaim] in [
            ["kid": "apple-key-1"], ["alg": "RS256"], ["alg": "RS256", "kid": ""],
            ["alg": "RS256", "kid": "apple-key-1", "crit": ["exp"]],
        ] {
            let token = try apple.signedToken(header: header)
            await #expect(throws: IdentityTokenError.malformed) { try await verify(token, with: apple) }
        }
    }

    @Test func refusesMissingOrMistypedTimeClaims() async throws {
        for (name, value) in [("exp", nil), ("iat", nil), ("exp", "1767226200"), ("iat", true)] as [(String, TestClaim?)] {
            var claims = apple.claims()
            claims[name] = value
            let token = try apple.signedToken(header: ["alg": "RS256", "kid": "apple-key-1"], claims: claims)
            await #expect(throws: IdentityTokenError.malformed) { try await verify(token, with: apple) }
        }
    }

    @Test func acceptsUpTo8192CharactersAndNoMore() async throws {
        func padded(_ count: Int) throws -> String {
            try apple.token(extraClaims: ["pad": .string(String(repeating: "x", count: count))])
        }
        var count = (8192 - (try padded(0)).utf8.count) * 3 / 4 - 4
        while try padded(count + 1).utf8.count <= 8192 { count += 1 }
        let longest = try padded(count)
        let tooLong = try padded(count + 1)
        #expect((8191...8192).contains(longest.utf8.count))
        #expect(try await verify(longest, with: apple).subject == TestIdentityIssuer.defaultSubject)
        #expect(tooLong.utf8.count > 8192)
        await #expect(throws: IdentityTokenError.malformed) { try await verify(tooLong, with: apple) }
    }

    // MARK: - Key sets from a file and inline

    @Test func readsTheKeySetFromAFile() async throws {
        let directory = try TemporaryDirectory()
        let path = try apple.writeJWKS(in: directory)
        let verifier = appleVerifier(.file(path))
        let identity = try await verifier.verify(apple.token(), audiences: [apple.defaultAudience])
        #expect(identity.subject == TestIdentityIssuer.defaultSubject)
        // Read once: the file can go away.
        try FileManager.default.removeItem(atPath: path)
        #expect(try await verifier.verify(apple.token(), audiences: [apple.defaultAudience]).provider == .apple)
    }

    @Test func refusesTokensWhileTheKeySetFileIsMissingOrInvalid() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("jwks.json").path
        let verifier = appleVerifier(.file(path))
        let token = try apple.token()
        await #expect(throws: IdentityTokenError.jwksUnavailable("cannot read the JWKS file \(path)")) {
            try await verifier.verify(token, audiences: [apple.defaultAudience])
        }
        _ = try directory.file("jwks.json", Array("not json".utf8))
        await #expect(throws: IdentityTokenError.invalidJWKS(#"not a JSON object with a "keys" array"#)) {
            try await verifier.verify(token, audiences: [apple.defaultAudience])
        }
        _ = try apple.writeJWKS(in: directory)
        #expect(try await verifier.verify(token, audiences: [apple.defaultAudience]).provider == .apple)
    }

    @Test func skipsKeysThatCannotVerifyRS256AndRefusesASetWithNone() async throws {
        let other = try TestIdentityIssuer.shared(provider: .apple, kid: "apple-key-2")
        var rs512 = other.publicJWK
        rs512["alg"] = "RS512"
        let ec: [String: TestClaim] = ["kty": "EC", "kid": "ec-1", "crv": "P-256", "x": "AAAA", "y": "AAAA"]
        let mixed = TestIdentityIssuer.json(["keys": [.object(ec), .object(rs512), .object(apple.publicJWK), "junk"]])
        let verifier = appleVerifier(.json(mixed))
        #expect(try await verifier.verify(apple.token(), audiences: [apple.defaultAudience]).provider == .apple)
        await #expect(throws: IdentityTokenError.unknownKey) {
            try await verifier.verify(other.token(), audiences: [other.defaultAudience])
        }
        let none = TestIdentityIssuer.json(["keys": [.object(ec), .object(rs512)]])
        let empty = appleVerifier(.json(none))
        await #expect(throws: IdentityTokenError.invalidJWKS("the key set holds no usable RS256 signing key")) {
            try await empty.verify(apple.token(), audiences: [apple.defaultAudience])
        }
    }

    @Test func skipsAKeyWithAPrivatePart() async throws {
        // jwt-kit would build a private key from `d`; swift-crypto traps on inconsistent numbers.
        var withPrivate = apple.publicJWK
        withPrivate["d"] = "AQAB"
        let verifier = appleVerifier(.json(TestIdentityIssuer.json(["keys": [.object(withPrivate)]])))
        await #expect(throws: IdentityTokenError.invalidJWKS("the key set holds no usable RS256 signing key")) {
            try await verifier.verify(apple.token(), audiences: [apple.defaultAudience])
        }
    }

    @Test func messagesNeverEchoTheToken() throws {
        #expect(IdentityTokenError.badSignature.message == "the identity token signature is invalid")
        #expect(IdentityTokenError.jwksUnavailable("GET https://example.com answered 500").message
            == "the identity provider's signing keys are unavailable; try again later")
        #expect(IdentityTokenError.jwksUnavailable("GET https://example.com answered 500").description
            == "the identity provider's signing keys are unavailable; try again later (GET https://example.com answered 500)")
        #expect(IdentityTokenError.jwksUnavailable("x").isKeySetFailure)
        #expect(!IdentityTokenError.expired.isKeySetFailure)
    }
}
