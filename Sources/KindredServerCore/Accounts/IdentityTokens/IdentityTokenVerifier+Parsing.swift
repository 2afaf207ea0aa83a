import JWTKit

extension IdentityTokenVerifier {
    /// A token that passed the structural checks, before its signature is checked.
    struct ParsedToken {
        /// The header's `kid`.
        let kid: String
        /// The payload.
        let claims: IdentityTokenClaims
    }

    /// Checks the token's shape and header: length, three base64url parts, JSON header and
    /// payload, `alg` RS256, a `kid`, no `crit`.
    static func parse(_ idToken: String) throws(IdentityTokenError) -> ParsedToken {
        guard idToken.utf8.count <= maximumTokenLength else { throw .malformed }
        let header: JWTHeader
        let claims: IdentityTokenClaims
        do {
            (header, claims, _) = try DefaultJWTParser().parse(Array(idToken.utf8), as: IdentityTokenClaims.self)
        } catch {
            throw .malformed
        }
        guard let alg = header.alg else { throw .malformed }
        guard alg == algorithm else { throw .unsupportedAlgorithm(loggable(alg)) }
        guard header.fields["crit"] == nil, let kid = header.kid, !kid.isEmpty else { throw .malformed }
        return ParsedToken(kid: kid, claims: claims)
    }

    /// `value` cut to 20 characters of `[A-Za-z0-9_-]`, safe to put in a message.
    static func loggable(_ value: String) -> String {
        let safe = value.unicodeScalars.filter { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "_"
        }
        return String(String.UnicodeScalarView(safe.prefix(20)))
    }
}
